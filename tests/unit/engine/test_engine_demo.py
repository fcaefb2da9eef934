"""The demo command: a bot game printed as a summary or as JSON."""

from __future__ import annotations

import io
import json

import pytest

from scorekeeper.engine.demo import main, run_demo
from scorekeeper.rules.entry import SIDE_FIELDS


def test_the_summary_tells_each_deal_and_the_winner() -> None:
    out = io.StringIO()

    assert run_demo("saskatchewan", 2, out=out) == 0

    text = out.getvalue()
    assert text.count("Deal ") == 4
    assert "Final scores:" in text and ("Winner:" in text or "Tie:" in text)


def test_the_json_is_the_demo_shape() -> None:
    out = io.StringIO()

    assert run_demo("brouillette-partners-high", 9, as_json=True, out=out) == 0

    data = json.loads(out.getvalue())
    assert data["variant"] == "brouillette-partners-high" and data["seed"] == 9
    assert data["sides"] == ["North & South", "East & West"]
    assert [deal["deal"] for deal in data["deals"]] == [1, 2, 3, 4]
    assert list(data["deals"][0]["sides"][0]) == list(SIDE_FIELDS)


def test_an_unknown_variant_or_table_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo("canasta", 1) == 2
    assert "Unknown variant 'canasta'" in capsys.readouterr().err
    assert main(["--variant", "pagat", "--players", "8"]) == 2


def test_the_command_line_runs_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.cli import main as cli_main

    assert cli_main(["demo", "--variant", "simpson", "--seed", "3", "--json"]) == 0

    assert json.loads(capsys.readouterr().out)["variant"] == "simpson"
