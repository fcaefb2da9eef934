"""Random play finds what hand-made cases miss: every deal random bots finish is accepted by
the validator, and the entry read off its table says what the table holds.

Each variant plays 20 deals at its usual table and 2 at every other table it allows, or that
the sources allow (`fuzz.SOURCE_TABLES`). House rules with the scoring rules no built-in
variant has (`fuzz.HOUSE_RULES_PLAYED`: special books, red-three books, going out
concealed...) play the same deals, and so does every rule set of the ready-made rules
(`rules.gallery`). The seeds are fixed (0, 1, 2...): these deals reach every
line and branch of the engine and the rules core that 40 and 4 deals reached, in two thirds of
the time. The long run of the same check, thousands of deals at every one of those tables, is
bench/bench_random_bot.py (`make bench`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from scorekeeper.engine import Draw, Face, RandomBot, apply, legal_actions, new_deal
from scorekeeper.engine.fuzz import (
    house_variants_played,
    play_checked,
    tables_the_sources_allow,
    tables_to_play,
)
from scorekeeper.engine.legal import Candidates, refusal
from scorekeeper.engine.state import MeldsByRank
from scorekeeper.rules.gallery import GALLERY
from scorekeeper.rules.variants import Table, Variant, all_variants, get_variant

USUAL_TABLE_DEALS = 20
OTHER_TABLE_DEALS = 2
GOING_OUT_DEALS = 10

PLAYED = (
    *all_variants(),
    *house_variants_played(),
    *(entry.variant() for entry in GALLERY),
)


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


def test_candidates_renewed_for_each_action_are_those_made_anew() -> None:
    """The random bot keeps one list of candidates and writes each action's over the last:
    what a longer earlier list left behind is never read."""
    variant = next(v for v in house_variants_played() if v.id.startswith("house-pack"))
    table = tables_to_play(variant)[0]
    state = new_deal(variant, 1, table, random.Random(4))
    bot = RandomBot(4)
    kept = Candidates()
    sizes = set()
    for _ in range(400):
        if state.outcome is not None:
            break
        kept.renew(state)
        fresh = Candidates(state)
        assert len(kept) == len(fresh)
        assert list(kept) == list(fresh)
        assert [kept[i] for i in range(len(kept))] == list(fresh)
        sizes.add(len(fresh))
        apply(state, bot.choose(state))

    assert len(sizes) > 10, "lists of many lengths, shorter ones after longer ones"


def test_the_melds_index_brought_up_to_date_is_the_one_made_anew() -> None:
    """A side's melds by rank are indexed once, then brought up to date as melds are added:
    at every action the index is the one made from the melds anew."""
    variant = next(v for v in house_variants_played() if v.id.startswith("house-pack"))
    table = tables_to_play(variant)[0]
    state = new_deal(variant, 2, table, random.Random(5))
    bot = RandomBot(5)
    added = 0
    while state.outcome is None:
        melds_before = sum(len(melds) for melds in state.melds)
        for side in range(table.sides):
            kept = state.melds_by_rank(side)
            fresh = MeldsByRank(state.melds[side])
            assert (kept.places, kept.melded) == (fresh.places, fresh.melded)
        apply(state, bot.choose(state))
        added += sum(len(melds) for melds in state.melds) - melds_before

    assert added > 20, "melds added one after another, through the deal"


def test_candidates_passed_over_unmade_are_refused_by_the_rules() -> None:
    """A random pick passes over a new meld too small without making it: the rules refuse
    every such candidate, and every other is the candidate the list holds."""
    variant = next(v for v in house_variants_played() if v.id.startswith("house-pack"))
    table = tables_to_play(variant)[0]
    passed_over = 0
    for seed in range(3):
        state = new_deal(variant, 1, table, random.Random(seed))
        bot = RandomBot(seed)
        while state.outcome is None:
            candidates = Candidates(state)
            for index in range(len(candidates)):
                action = candidates.playable_at(index)
                if action is None:
                    passed_over += 1
                    assert refusal(state, candidates[index]) is not None
                else:
                    assert action == candidates[index]
            apply(state, bot.choose(state))

    assert passed_over > 100
