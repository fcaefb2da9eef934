"""The bots decide the same from the same seed: a whole heuristic game's totals, a random
deal's actions, and the actions of ten deals of each bot, fixed for every variant. The engine
may get faster; its choices stay."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import pytest

from scorekeeper.engine import Bot, HeuristicBot, RandomBot, play_game
from scorekeeper.engine.fuzz import play_random_deal
from scorekeeper.engine.game import default_table, play_deal
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


MANY_DEALS = [
    # variant, digests of the actions of deals 0 to 9 (seeds) with heuristic and random bots
    ("pagat", "0ca4ca3a20b3d0a9", "32a0cecaf7807fb5"),
    ("gamerules", "e862bccb499754ca", "376b2813bfb2f248"),
    ("saskatchewan", "0b498aeb43590495", "03954719561de0fd"),
    ("simpson", "1a4f7c117a3c36fa", "e89d3f36381e40d3"),
    ("brouillette-low", "a25815dc6591029e", "5a0233a0200446a0"),
    ("brouillette-high", "a25815dc6591029e", "5a0233a0200446a0"),
    ("brouillette-partners-low", "64f1f270be705068", "73c8823177aba332"),
    ("brouillette-partners-high", "64f1f270be705068", "73c8823177aba332"),
]


def _many_deals_digest(variant_id: str, make_bots: Callable[[int], list[Bot]]) -> str:
    """The digest of every action of ten four-player deals, seeds 0 to 9, dealt as the
    speed benchmark deals them (deal number seed % deals + 1)."""
    variant = get_variant(variant_id)
    table = default_table(variant, players=4)
    digest = hashlib.sha256()
    for seed in range(10):
        state = play_deal(
            variant, seed % variant.deals + 1, table, random.Random(seed), make_bots(seed)
        )
        digest.update(" ".join(str(action) for action in state.history).encode())
        digest.update(b"\n")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("variant_id", "heuristic", "random_bots"), MANY_DEALS)
def test_ten_deals_of_each_bot_take_the_same_actions(
    variant_id: str, heuristic: str, random_bots: str
) -> None:
    assert _many_deals_digest(variant_id, lambda seed: [HeuristicBot()] * 4) == heuristic
    assert (
        _many_deals_digest(
            variant_id, lambda seed: [RandomBot(seed * 97 + seat) for seat in range(4)]
        )
        == random_bots
    )
