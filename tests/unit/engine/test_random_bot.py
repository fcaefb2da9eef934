"""Random play finds what hand-made cases miss: every deal random bots finish is accepted by
the validator, and the engine's totals are the rules core's.

Each variant plays 200 deals at its usual table and 20 at every other table it allows, or that
the sources allow (pagat and saskatchewan: 2 to 6 each for themselves, 2 teams of 2 or of 3;
simpson and the brouillette games: 2 to 12 players with a deck more than the players). House
rules with the scoring rules no built-in variant has (`fuzz.HOUSE_RULES_PLAYED`: special books,
red-three books, going out concealed...) play the same deals. The long run of the same check
is bench/bench_random_bot.py.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from scorekeeper.engine import Draw, Face, RandomBot, apply, legal_actions, new_deal
from scorekeeper.engine.fuzz import house_variants_played, play_checked, tables_to_play
from scorekeeper.engine.legal import Candidates
from scorekeeper.rules.variants import Table, Variant, all_variants, get_variant

USUAL_TABLE_DEALS = 200
OTHER_TABLE_DEALS = 20
GOING_OUT_DEALS = 40

_EACH_OR_TEAMS = (
    Table(2, 4, 5),
    Table(2, 6, 7),
    *(Table(n, n, n + 1) for n in range(2, 7)),
)
_ANY_NUMBER = tuple(Table(n, n, n + 1) for n in range(2, 13))

SOURCE_TABLES: dict[str, tuple[Table, ...]] = {
    "pagat": _EACH_OR_TEAMS,
    "gamerules": (),
    "saskatchewan": _EACH_OR_TEAMS,
    "simpson": _ANY_NUMBER,
    "brouillette-low": _ANY_NUMBER,
    "brouillette-high": _ANY_NUMBER,
    "brouillette-partners-low": (Table(2, 4, 5),),
    "brouillette-partners-high": (Table(2, 4, 5),),
}
"""The tables the sources allow, beyond those a variant lists."""


PLAYED = (*all_variants(), *house_variants_played())


def tables_the_sources_allow(variant: Variant) -> tuple[Table, ...]:
    """The variant's own tables (the usual one first), then those the sources allow."""
    return tuple(dict.fromkeys((*variant.tables, *SOURCE_TABLES.get(variant.id, ()))))


@pytest.mark.parametrize("variant", PLAYED, ids=lambda variant: variant.id)
def test_random_deals_are_accepted_and_scored_alike(variant: Variant) -> None:
    playable = variant.with_changes(tables=tables_the_sources_allow(variant))
    usual, *others = tables_to_play(playable)

    findings = play_checked(playable, usual, range(USUAL_TABLE_DEALS))
    for table in others:
        findings += play_checked(playable, table, range(OTHER_TABLE_DEALS))

    assert [str(finding) for finding in findings] == []


@pytest.mark.parametrize("variant", PLAYED, ids=lambda variant: variant.id)
def test_deals_a_side_goes_out_of_are_accepted_and_scored_alike(variant: Variant) -> None:
    """Random bots seldom go out: here the first side plays the heuristic bot, which does."""
    table = tables_to_play(variant)[0]

    findings = play_checked(variant, table, range(GOING_OUT_DEALS), against_heuristic=True)

    assert [str(finding) for finding in findings] == []


def test_random_deals_with_a_handnfoot_pack_are_accepted_and_scored_alike() -> None:
    """The special 262-card pack: one pack for two teams of two, 2 packs for 6 players; its
    ladies laid down at once or added to a clean book for 100 each."""
    base = get_variant("pagat")
    tables = (Table(2, 4, 1), Table(2, 6, 2), Table(3, 3, 1))
    variant = base.with_changes(
        id="house-pack",
        deck="handnfoot",
        tables=tables,
        book_bonus=replace(base.book_bonus, lady=100),
    )

    findings = play_checked(variant, tables[0], range(USUAL_TABLE_DEALS))
    findings += play_checked(variant, tables[0], range(GOING_OUT_DEALS), against_heuristic=True)
    for table in tables[1:]:
        findings += play_checked(variant, table, range(OTHER_TABLE_DEALS))

    assert [str(finding) for finding in findings] == []


def test_the_random_bot_picks_every_legal_action_alike() -> None:
    variant = all_variants()[0]
    seed = 0
    state = new_deal(variant, 1, variant.tables[0], random.Random(seed))
    while state.hands[state.current][Face.RED_THREE]:
        seed += 1
        state = new_deal(variant, 1, variant.tables[0], random.Random(seed))
    apply(state, Draw())
    legal = legal_actions(state)
    candidates = Candidates(state)
    assert [candidates[i] for i in range(len(candidates))] == list(candidates)
    picks = Counter(RandomBot(seed).choose(state) for seed in range(200 * len(legal)))

    assert len(legal) > 5
    assert set(picks) == set(legal)
    assert min(picks.values()) > 120 and max(picks.values()) < 280
