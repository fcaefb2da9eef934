"""Random play checked against the rules core: every deal the engine can finish is a deal the
score sheet must accept, and both must add it up alike.

`RandomBot`s play a deal; the finished deal's `DealEntry` goes through the validator
(`rules.validation.validate_deal`) and the scorer (`rules.scoring.score_deal`). A `Finding`
records whatever disagrees: an error the validator raises, an entry that says otherwise than
the table it was read from (`entry_disagreements`), or cards lost or made on the way. The test
suite and the long run under bench/ both call `play_checked`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields

from ..rules.cards import BOOK_SIZE
from ..rules.entry import DealEntry, SideEntry
from ..rules.house_rules import HouseRules
from ..rules.validation import validate_deal
from ..rules.variants import Table, Variant
from .bots import Bot, HeuristicBot, RandomBot
from .cards import FACE_COUNT, Face, counts_of, deck_faces, deck_of
from .entries import to_deal_entry
from .game import default_table, play_deal
from .melds import MeldKind
from .state import DealEnd, DealState

HOUSE_RULES_PLAYED: tuple[HouseRules, ...] = (
    HouseRules(
        name="Sevens and red-three books",
        based_on="pagat",
        changes={
            "book_bonus.special_rank": "7",
            "book_bonus.special": 1000,
            "book_bonus.red_three": 1000,
            "red_three.down_not_out": 50,
            "going_out_concealed_bonus": 100,
            "card_points.black_three": 100,
        },
    ),
    HouseRules(
        name="Pack with ladies in books, each for themselves",
        based_on="simpson",
        changes={
            "deck": "handnfoot",
            "tables": [
                {"sides": 2, "players": 2, "decks": 1},
                {"sides": 3, "players": 3, "decks": 1},
                {"sides": 4, "players": 4, "decks": 2},
            ],
        },
    ),
    HouseRules(
        name="Kings for each their own",
        based_on="brouillette-high",
        changes={
            "book_bonus.special_rank": "K",
            "book_bonus.special": 1500,
            "going_out_concealed_bonus": 200,
        },
    ),
    HouseRules(
        name="Sevens needed, black threes dirty, run out and wait",
        based_on="brouillette-partners-low",
        changes={
            "book_bonus.special_rank": "7",
            "book_bonus.special": 1500,
            "black_three_book_goes_out_as": "dirty",
            "special_book_goes_out_as": "none",
            "going_out_any_books": 3,
            "going_out_needs_special_book": True,
            "players_may_run_out": True,
            "book_first_meld_deals": [2, 3],
        },
    ),
    HouseRules(
        name="Three or four teams of two",
        based_on="pagat",
        changes={
            "tables": [
                {"sides": 3, "players": 6, "decks": 7},
                {"sides": 4, "players": 8, "decks": 9},
            ],
        },
    ),
)
"""House rules that random play covers beside the built-in variants: every rule that
changes scoring or play but no built-in variant has (special books, red-three books, red
threes worth less to a side that did not go out, going out concealed, costly black threes,
red threes added to clean books where the HANDnFOOT pack's ladies are kept in hand; what
black-three and special books count as toward going out, the books of any kind and the
special book it needs, players who run out of cards and wait, a first meld with a book;
three or four teams of two, a partner's foot needed to go out)."""


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
"""The tables the sources allow, beyond those a variant lists (pagat and saskatchewan: 2 to 6
each for themselves, 2 teams of 2 or of 3; simpson and the brouillette games: 2 to 12 players
with a deck more than the players)."""


def tables_the_sources_allow(variant: Variant) -> tuple[Table, ...]:
    """The variant's own tables (the usual one first), then those the sources allow."""
    return tuple(dict.fromkeys((*variant.tables, *SOURCE_TABLES.get(variant.id, ()))))


def house_variants_played() -> tuple[Variant, ...]:
    return tuple(rules.variant() for rules in HOUSE_RULES_PLAYED)


@dataclass(frozen=True, slots=True)
class Finding:
    """One finished deal the rules core and the engine disagree on."""

    variant: str
    table: Table
    deal: int
    seed: int
    problem: str

    def __str__(self) -> str:
        return (
            f"{self.variant} at {self.table.players} players in {self.table.sides} sides "
            f"({self.table.decks} decks), deal {self.deal}, seed {self.seed}: {self.problem}"
        )


def tables_to_play(variant: Variant, extra: Iterable[Table] = ()) -> tuple[Table, ...]:
    """The variant's usual table first, then every other table it allows (and `extra`)."""
    usual = default_table(variant)
    others = [table for table in (*variant.tables, *extra) if table != usual]
    return (usual, *dict.fromkeys(others))


def play_random_deal(
    variant: Variant, table: Table, seed: int, against_heuristic: bool = False
) -> DealState:
    """One deal between random bots, the deal number following the seed.

    With `against_heuristic`, the first side is played by heuristic bots, which go out:
    random bots alone almost always play until the stock runs out.
    """
    deal = seed % variant.deals + 1
    bots: list[Bot] = [RandomBot(seed * 97 + seat) for seat in range(table.players)]
    if against_heuristic:
        for seat in range(0, table.players, table.sides):
            bots[seat] = HeuristicBot()
    return play_deal(variant, deal, table, random.Random(seed), bots)


@dataclass(frozen=True, slots=True)
class SideCount:
    """What a side has at the end of a deal, in the numbers both the table and an entry give."""

    meld_points: int
    books: int
    """Books of cards melded (not of red threes laid down)."""
    wild_books: int
    black_three_books: int
    red_threes: int
    """Every red three of the side: laid down, in books of red threes, in clean books, held."""
    red_threes_held: int
    ladies_in_books: int
    cards_left_points: int
    went_out: bool


def written_count(side: SideEntry) -> SideCount:
    """The side's count as its entry gives it."""
    return SideCount(
        meld_points=side.meld_points,
        books=side.books() - side.red_three_books,
        wild_books=side.wild_books,
        black_three_books=side.black_three_books,
        red_threes=BOOK_SIZE * side.red_three_books
        + side.red_threes_down
        + side.red_threes_held
        + side.ladies_in_books,
        red_threes_held=side.red_threes_held,
        ladies_in_books=side.ladies_in_books,
        cards_left_points=side.cards_left_points,
        went_out=side.went_out,
    )


def table_count(state: DealState, side: int) -> SideCount:
    """The side's count read off the table: its melds and its players' cards, face by face."""
    melded = [0] * FACE_COUNT
    books = wild_books = black_three_books = ladies = 0
    for meld in state.melds[side]:
        if meld.rank is not None:
            melded[meld.rank] += meld.naturals
        melded[Face.TWO] += meld.twos
        melded[Face.JOKER] += meld.jokers
        ladies += meld.red_threes
        if meld.size >= BOOK_SIZE:
            books += 1
            wild_books += meld.kind is MeldKind.WILD
            black_three_books += meld.kind is MeldKind.BLACK_THREE
    held = [0] * FACE_COUNT
    down = 0
    for player in state.side_players(side):
        down += state.red_threes_down[player]
        for cards in (state.hands[player], state.feet[player] or ()):
            for face, count in enumerate(cards):
                held[face] += count
    outcome = state.outcome
    went_out = (
        outcome is not None
        and outcome.end is DealEnd.WENT_OUT
        and outcome.player is not None
        and state.side_of[outcome.player] == side
    )
    return SideCount(
        meld_points=sum(map(int.__mul__, melded, state.melded_points)),
        books=books,
        wild_books=wild_books,
        black_three_books=black_three_books,
        red_threes=down + ladies + held[Face.RED_THREE],
        red_threes_held=held[Face.RED_THREE],
        ladies_in_books=ladies,
        cards_left_points=sum(map(int.__mul__, held, state.held_points)),
        went_out=went_out,
    )


def entry_disagreements(state: DealState, entry: DealEntry) -> list[str]:
    """Where the entry read off a deal says otherwise than the table it came from: the cards
    melded, the books, the red threes and the cards left, counted again card by card."""
    problems = []
    for side, written in enumerate(entry.sides):
        said, found = written_count(written), table_count(state, side)
        for field in fields(SideCount):
            if getattr(said, field.name) != getattr(found, field.name):
                problems.append(
                    f"side {side} {field.name}: the entry says {getattr(said, field.name)}, "
                    f"the table {getattr(found, field.name)}"
                )
    return problems


def check_finished(state: DealState, seed: int) -> Iterator[Finding]:
    """What the rules core says against a deal the engine finished."""

    def finding(problem: str) -> Finding:
        return Finding(state.variant.id, state.table, state.deal, seed, problem)

    entry = to_deal_entry(state)
    for error in validate_deal(entry).errors:
        yield finding(f"refused: {error.message} (side {error.side}, field {error.field})")
    for problem in entry_disagreements(state, entry):
        yield finding(problem)
    dealt = counts_of(deck_faces(deck_of(state.variant), state.table.decks))
    found = state.card_counts()
    if found != dealt:
        changed = [f for f in range(FACE_COUNT) if found[f] != dealt[f]]
        yield finding(f"cards lost or made: faces {changed}")


def play_checked(
    variant: Variant, table: Table, seeds: Iterable[int], against_heuristic: bool = False
) -> list[Finding]:
    """Play a random deal for each seed and gather every disagreement."""
    findings: list[Finding] = []
    for seed in seeds:
        state = play_random_deal(variant, table, seed, against_heuristic)
        findings.extend(check_finished(state, seed))
    return findings
