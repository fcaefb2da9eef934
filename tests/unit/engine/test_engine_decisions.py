"""The bots decide the same from the same seed: a whole heuristic game's totals, and a random
deal's actions, fixed for every variant. The engine may get faster; its choices stay."""

from __future__ import annotations

import hashlib

import pytest

from scorekeeper.engine import play_game
from scorekeeper.engine.fuzz import play_random_deal
from scorekeeper.engine.game import default_table
from scorekeeper.rules.variants import get_variant

PLAYED = [
    # variant, heuristic game totals (seed 1), random deal (seed 3): actions, their digest
    ("pagat", (28645, 27305), 199, "faf77f0734d7e63c"),
    ("gamerules", (26590, 25110), 199, "faf77f0734d7e63c"),
    ("saskatchewan", (20895, 23090), 242, "cb9b126c8beaa304"),
    ("simpson", (3365, 2930, 1635, 3195), 219, "b2089ebdb1af7660"),
    ("brouillette-low", (2435, 3440, 2295, 2785), 308, "4fa0f5870964b4f3"),
    ("brouillette-high", (4235, 6240, 4295, 4785), 308, "4fa0f5870964b4f3"),
    ("brouillette-partners-low", (6310, 5250), 356, "81031d7be4c5adea"),
    ("brouillette-partners-high", (12110, 10850), 356, "81031d7be4c5adea"),
]


@pytest.mark.parametrize(("variant_id", "totals", "_actions", "_digest"), PLAYED)
def test_a_heuristic_game_ends_with_the_same_totals(
    variant_id: str, totals: tuple[int, ...], _actions: int, _digest: str
) -> None:
    assert play_game(variant_id, 1).totals == totals


@pytest.mark.parametrize(("variant_id", "_totals", "actions", "digest"), PLAYED)
def test_a_random_deal_takes_the_same_actions(
    variant_id: str, _totals: tuple[int, ...], actions: int, digest: str
) -> None:
    variant = get_variant(variant_id)

    state = play_random_deal(variant, default_table(variant), 3)

    text = " ".join(str(action) for action in state.history)
    assert len(state.history) == actions
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest
