"""The engine's compiled build: used only while it matches its sources, and playing exactly as
the plain Python engine does."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.engine import HeuristicBot, native
from scorekeeper.engine.game import default_table, play_deal
from scorekeeper.rules.variants import all_variants

ROOT = Path(__file__).resolve().parents[3]

PLAY = """
import hashlib, json, random, sys
from scorekeeper.engine import HeuristicBot, RandomBot
from scorekeeper.engine.game import default_table, play_deal
from scorekeeper.engine.native import engine_build
from scorekeeper.rules.variants import all_variants

def digest(variant, seed, bots):
    table = default_table(variant, players=4)
    deal = seed % variant.deals + 1
    state = play_deal(variant, deal, table, random.Random(seed), bots(table, seed))
    return hashlib.sha256(" ".join(map(str, state.history)).encode()).hexdigest()

print(json.dumps({"build": engine_build(), "digests": [
    digest(variant, seed, bots)
    for variant in all_variants()
    for bots in (
        lambda table, seed: [HeuristicBot()] * table.players,
        lambda table, seed: [RandomBot(seed * 97 + seat) for seat in range(table.players)],
    )
    for seed in range(6)
]}))
"""


def _played(engine: str) -> dict[str, object]:
    """The digests of the same deals played in a fresh process with `SCOREKEEPER_ENGINE`."""
    environment = {**os.environ, "SCOREKEEPER_ENGINE": engine}
    done = subprocess.run(
        [sys.executable, "-c", PLAY],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _write_build(build_dir: Path, digest: str) -> None:
    (build_dir / "scorekeeper" / "engine").mkdir(parents=True)
    (build_dir / native.DIGEST_FILE).write_text(digest + "\n")


def test_a_build_is_used_only_when_made_from_the_sources_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SCOREKEEPER_ENGINE", raising=False)
    monkeypatch.setattr(native, "BUILD_DIR", tmp_path)
    assert native.usable_build() is None  # nothing built

    _write_build(tmp_path, "0" * 64)
    assert native.usable_build() is None  # built from other sources

    (tmp_path / native.DIGEST_FILE).write_text(native.sources_digest() + "\n")
    assert native.usable_build() == tmp_path / "scorekeeper" / "engine"

    monkeypatch.setenv("SCOREKEEPER_ENGINE", "python")
    assert native.usable_build() is None


def test_the_digest_follows_every_compiled_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in native.COMPILED:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
    monkeypatch.setattr(native, "PACKAGE_DIR", tmp_path)
    before = native.sources_digest()

    (tmp_path / "legal.py").write_text("# legal, edited\n")

    assert native.sources_digest() != before


def test_the_compiled_build_and_the_python_engine_take_the_same_actions() -> None:
    """Both engines, each in a process of its own, play six deals of every variant with each
    bot; every action of every deal is the same. Where no compiled build matches the sources,
    the two runs are both plain Python and the test says so by skipping."""
    plain = _played("python")
    assert plain["build"] == "python"
    usual = _played("")
    if usual["build"] != "compiled":
        pytest.skip("no compiled build of these sources: make engine-native")
    digests = plain["digests"]
    assert isinstance(digests, list) and len(digests) == len(all_variants()) * 2 * 6
    assert usual["digests"] == digests


def test_this_process_runs_the_build_when_there_is_one() -> None:
    build = native.usable_build()
    expected = "compiled" if build is not None else "python"

    assert native.engine_build() == expected


def test_a_deal_played_here_matches_the_same_deal_in_the_other_engine() -> None:
    """This process's engine (compiled where the build matches) against the other one."""
    variant = all_variants()[0]
    table = default_table(variant, players=4)
    state = play_deal(variant, 1, table, random.Random(4), [HeuristicBot()] * table.players)
    mine = hashlib.sha256(" ".join(map(str, state.history)).encode()).hexdigest()
    other = _played("python" if native.engine_build() == "compiled" else "")

    digests = other["digests"]
    assert isinstance(digests, list)
    assert mine == digests[4]  # the first variant's heuristic deal of seed 4
