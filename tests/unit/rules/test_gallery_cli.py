"""Every ready-made rule set through the command line: its house rules file exported, a
whole game played by the bots with ``demo --rules``, and each deal of it scored again by
``score`` with the rules given inline, to the same totals the game kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main
from scorekeeper.rules.gallery import GALLERY, PublishedRules


def played(tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: PublishedRules) -> Any:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(entry.house_rules().to_json()))

    assert main(["demo", "--rules", str(path), "--seed", "7", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def scored(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, body: Any) -> Any:
    monkeypatch.setattr("sys.stdin.read", lambda: json.dumps(body))
    code = main(["score"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0, answer
    return answer


@pytest.mark.parametrize("entry", GALLERY, ids=[entry.slug for entry in GALLERY])
def test_each_deal_the_bots_play_is_scored_alike_by_the_score_command(
    entry: PublishedRules,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = played(tmp_path, capsys, entry)
    inline = entry.house_rules().to_json()
    variant = entry.variant()
    running = [0] * len(game["sides"])
    assert game["variant"] == entry.house_rules().id and game["deals"]

    for deal in game["deals"]:
        body = {
            "variant": inline,
            "deal": deal["deal"],
            "players": game["players"],
            "stock_ran_out": deal["stock_ran_out"],
            "sides": deal["sides"],
            "running_scores": running,
        }
        answer = scored(capsys, monkeypatch, body)

        assert [side["total"] for side in answer["sides"]] == deal["totals"], deal["deal"]
        running = [before + total for before, total in zip(running, deal["totals"], strict=True)]

    last = game["deals"][-1]["deal"]
    if variant.target_score is None:
        assert last == variant.deals
    else:
        assert max(running) >= variant.target_score or last == variant.deals
