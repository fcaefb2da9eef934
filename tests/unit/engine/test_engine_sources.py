"""The engine plays the sources' rules: every table they allow, going out on a discard where
they ask for it, the first card of the discard pile, and red threes that are never laid down."""

from __future__ import annotations

import random

import pytest
from engine_helpers import cards, meld, refused, table

from scorekeeper.engine import (
    AskToGoOut,
    DealEnd,
    Discard,
    Draw,
    LayRedThrees,
    Meld,
    Phase,
    Play,
    TakePile,
    apply,
    arrange,
    deal_totals,
    is_legal,
    legal_actions,
    new_deal,
    to_deal_entry,
)
from scorekeeper.engine.cards import Face, counts_of, shoe
from scorekeeper.engine.fuzz import entry_disagreements
from scorekeeper.rules.cards import CARDS_PER_DECK
from scorekeeper.rules.variants import RedThreeScore, Table, Variant, get_variant

PAGAT = get_variant("pagat")
GAMERULES = get_variant("gamerules")
SASKATCHEWAN = get_variant("saskatchewan")
SIMPSON = get_variant("simpson")
BROUILLETTE = get_variant("brouillette-low")

PAGAT_TABLES = (*(Table(n, n, n + 1) for n in range(2, 7)), Table(2, 4, 5), Table(2, 6, 7))
"""pagat and saskatchewan: 2 to 6 each for themselves, 2 teams of 2, 2 teams of 3."""
SIMPSON_TABLES = tuple(Table(n, n, n + 1) for n in range(2, 13))
"""simpson and the brouillette games: from 2 players up, a deck more than the players."""

KEPT_RED_THREES = RedThreeScore(down=None, held=-500)
"""Red threes never laid down: one still held at the end costs 500."""


def _tables_the_sources_allow() -> list[tuple[Variant, Table]]:
    pairs = [(PAGAT, t) for t in PAGAT_TABLES] + [(SASKATCHEWAN, t) for t in PAGAT_TABLES]
    pairs += [(SIMPSON, t) for t in SIMPSON_TABLES] + [(BROUILLETTE, t) for t in SIMPSON_TABLES]
    return [
        (variant.with_changes(tables=tuple(t for _, t in pairs if _ is variant)), table)
        for variant, table in pairs
    ]


@pytest.mark.parametrize(
    ("variant", "table_size"),
    _tables_the_sources_allow(),
    ids=lambda value: value.id if isinstance(value, Variant) else f"{value.players}in{value.sides}",
)
def test_every_table_the_sources_allow_is_dealt_in_full(
    variant: Variant, table_size: Table
) -> None:
    state = new_deal(variant, 2, table_size, random.Random(table_size.players))

    packet = variant.hand_size + variant.foot_size
    assert [sum(hand) for hand in state.hands] == [variant.hand_size] * table_size.players
    assert [sum(foot or ()) for foot in state.feet] == [variant.foot_size] * table_size.players
    assert state.stock_size + len(state.pile) == (
        table_size.decks * CARDS_PER_DECK - table_size.players * packet
    )
    assert state.card_counts() == counts_of(card.face for card in shoe(table_size.decks))
    assert sorted(state.side_of) == sorted(p % table_size.sides for p in range(table_size.players))


def test_two_teams_of_three_sit_alternately_and_wait_for_both_partners() -> None:
    six = PAGAT.with_changes(tables=PAGAT_TABLES)
    assert new_deal(six, 1, Table(2, 6, 7), random.Random(3)).teammates[0] == (2, 4)

    books = [meld("A", 7), meld("Q", 7), meld("J", 6, 1), meld("10", 6, 1), meld(None, 0, 4, 3)]
    state = arrange(
        six,
        sides=2,
        hands=[cards("K K"), *[cards("5")] * 5],
        feet=[None, None, cards("5"), None, None, None],
        melds={0: [*books, meld("K", 5)]},
        foot_played=[0, 4],
        phase=Phase.PLAY,
    )
    assert state.teammates[0] == (2, 4)

    assert refused(state, Meld((Play(Face.KING, 2, onto=5),))) == (
        "That would leave you 0 card(s) from your foot, but you may not go out yet: "
        "Your partner must pick up their foot and play from it before you may go out. "
        "Keep at least two cards, one to discard and one to hold."
    )


def test_twelve_players_cut_their_packets_from_thirteen_decks() -> None:
    twelve = SIMPSON.with_changes(tables=SIMPSON_TABLES)
    state = new_deal(twelve, 1, Table(12, 12, 13), random.Random(12))

    assert len(state.hands) == 12 and state.sides == 12
    assert state.stock_size == 13 * CARDS_PER_DECK - 12 * 22
    assert entry_disagreements(state, to_deal_entry(state)) == []
    assert len(deal_totals(state)) == 12


# --- going out (gamerules: on a discard) -------------------------------------------------------


def test_gamerules_goes_out_on_a_discard_and_never_by_melding_the_last_card() -> None:
    books = [meld("A", 7), meld("K", 7), meld("Q", 6, 1), meld("J", 5, 2), meld(None, 0, 5, 2)]
    feet: list[str | None] = [None, None, None, None]
    state = table(
        GAMERULES, ["9 9 9 9", "5", "5", "5"], feet=feet, melds={0: books}, foot_played=[0, 1, 2, 3]
    )
    apply(state, AskToGoOut())

    assert refused(state, Meld((Play(Face.NINE, 4),))) == (
        "In this variant you go out by discarding your last card: keep one to discard."
    )
    apply(state, Meld((Play(Face.NINE, 3),)))
    apply(state, Discard(Face.NINE))
    assert state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT
    assert state.outcome.player == 0

    pagat = table(
        PAGAT, ["9 9 9 9", "5", "5", "5"], feet=feet, melds={0: books}, foot_played=[0, 1, 2, 3]
    )
    apply(pagat, AskToGoOut())
    apply(pagat, Meld((Play(Face.NINE, 4),)))
    assert pagat.outcome is not None and pagat.outcome.player == 0


# --- the first card of the discard pile ---------------------------------------------------------


def _first_discards(variant: Variant, seeds: range) -> set[Face]:
    table_size = variant.tables[0]
    return {new_deal(variant, 1, table_size, random.Random(seed)).pile[0] for seed in seeds}


def test_pagat_buries_a_red_three_or_a_wild_card_turned_up() -> None:
    turned = _first_discards(PAGAT, range(400))

    assert turned.isdisjoint({Face.RED_THREE, Face.TWO, Face.JOKER})
    assert Face.BLACK_THREE in turned


def test_gamerules_buries_any_three_or_a_joker_but_keeps_a_two() -> None:
    turned = _first_discards(GAMERULES, range(400))

    assert turned.isdisjoint({Face.RED_THREE, Face.BLACK_THREE, Face.JOKER})
    assert Face.TWO in turned


@pytest.mark.parametrize("variant_id", ["simpson", "brouillette-low", "brouillette-partners-high"])
def test_simpsons_family_turns_no_card_the_pile_starts_empty(variant_id: str) -> None:
    variant = get_variant(variant_id)
    for seed in range(20):
        state = new_deal(variant, 1, variant.tables[0], random.Random(seed))
        assert state.pile == []
        assert state.card_counts() == counts_of(card.face for card in shoe(state.table.decks))

    first = new_deal(variant, 1, variant.tables[0], random.Random(0))
    assert not any(isinstance(action, TakePile) for action in legal_actions(first))


# --- red threes never laid down (the simpson family) --------------------------------------------


KEPT = SIMPSON.with_changes(red_three=KEPT_RED_THREES)


def test_a_red_three_that_is_never_laid_down_is_discarded() -> None:
    state = table(KEPT, ["R3 K Q 5", "6 7 8"], stock="9 10", phase=Phase.DRAW)

    assert refused(state, LayRedThrees()) == (
        "In this variant red threes are never laid down: discard them to be rid of them."
    )
    assert LayRedThrees() not in legal_actions(state)
    apply(state, Draw((0, 0)))
    assert is_legal(state, Discard(Face.RED_THREE))
    apply(state, Discard(Face.RED_THREE))
    assert state.pile == [Face.RED_THREE]
    assert state.red_threes_down == [0, 0]


def test_a_red_three_on_the_pile_cannot_be_taken() -> None:
    state = table(KEPT, ["5", "R3 R3 9"], pile="4 4 4 4 4 4 R3", current=1, phase=Phase.DRAW)

    assert refused(state, TakePile((Play(None, 0),))) == (
        "A red three on top of the discard pile cannot be taken."
    )


def test_a_red_three_held_at_the_end_costs_its_held_score() -> None:
    books = [meld("A", 7), meld("K", 6, 1), meld("Q", 3)]
    state = table(KEPT, ["R3", "R3 5 6"], feet=[None, "7"], melds={0: books}, foot_played=[0])

    apply(state, Discard(Face.RED_THREE))  # the last card: going out by discarding it

    assert state.outcome is not None and state.outcome.player == 0
    entry = to_deal_entry(state)
    assert [(side.red_threes_down, side.red_threes_held) for side in entry.sides] == [
        (0, 0),
        (0, 1),
    ]
    # Side 1: 250 melded, a clean and a dirty book, going out. Side 2: a red three held,
    # and a five, a six and a seven left.
    assert deal_totals(state) == (250 + 300 + 100 + 100, -500 - 15)
    assert entry_disagreements(state, entry) == []
