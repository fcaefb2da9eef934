"""A game as its history and statistics read it: the summary stored with each game.

Made by the rules core from the game's entries (every deal scored with the game's frozen
rules), stored as ``summary_data`` (JSON, format ``SUMMARY_FORMAT``) in ``game_summaries``
(``summary_writes``), and read back by ``from_stored``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.game import GameScore, score_game
from scorekeeper.rules.score_lines import LINES
from scorekeeper.rules.variants import Variant
from scorekeeper.store.games import Game
from scorekeeper.store.scores import deal_entry, game_variant

BOOK_KINDS = ("clean_books", "dirty_books", "wild_books", "black_three_books")
LINE_GROUPS: dict[str, tuple[str, ...]] = {
    group: tuple(line.key for line in LINES if line.chart_group == group)
    for group in dict.fromkeys(line.chart_group for line in LINES)
}
"""The lines of a deal's score as the charts group them (every kind of book as one), from the
score-line spec."""
SUMMARY_FORMAT = 1
"""The shape of a stored summary (``summary_data``): one more whenever it changes."""


@dataclass(frozen=True, slots=True)
class SideSummary:
    name: str
    deal_totals: tuple[int, ...]
    total: int
    won: bool
    went_out: int
    """Deals the side ended by going out."""
    red_threes_caught: int
    """Red threes still held when a deal ended."""
    books: tuple[int, ...]
    """Books by kind, in ``BOOK_KINDS`` order."""
    lines: tuple[tuple[str, int], ...]
    """Points by line group (``LINE_GROUPS``) over the game."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: int
    version: int
    created_at: datetime
    name: str
    variant_id: str
    variant_name: str
    players: int
    deals: int
    """Deals entered so far."""
    deals_in_game: int
    """Deals the game's rules play."""
    finished: bool
    sides: tuple[SideSummary, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, side in enumerate(self.sides) if side.won)


def summarize(game: Game) -> GameSummary:
    """The game as its history and statistics read it, scored by the rules core from the deals
    loaded with it."""
    variant = game_variant(game)
    entries = [deal_entry(game, deal, variant) for deal in game.deals]
    data = summary_data(variant, game.rules, game.side_names, entries)
    return from_stored(game, game.id, game.version, data)


def summary_data(
    variant: Variant,
    rules: dict[str, Any],
    side_names: Sequence[str],
    entries: Sequence[DealEntry],
) -> list[Any]:
    """What is stored of a game (format ``SUMMARY_FORMAT``): its deals scored by the rules core
    with the game's frozen ``rules`` (``variant``, read from them).

    Positional, to be short to store and quick to read back (the statistics read a thousand
    at once): ``[rules' name, deals entered, deals in the game, finished, line group keys,
    sides]``, each side ``[name, total, won, deals gone out on, red threes caught, deal totals,
    books by kind (BOOK_KINDS order), points by line group (in the keys' order)]``.
    """
    score = score_game(variant, side_names, entries)
    sides = [side_summary(score, index) for index in range(len(score.side_names))]
    keys = [key for key, _points in sides[0].lines] if sides else list(LINE_GROUPS)
    return [
        str(rules.get("name", variant.id)),
        len(score.deals),
        score.variant.deals,
        score.finished,
        keys,
        [_side_data(side) for side in sides],
    ]


def _side_data(side: SideSummary) -> list[Any]:
    return [
        side.name,
        side.total,
        side.won,
        side.went_out,
        side.red_threes_caught,
        list(side.deal_totals),
        list(side.books),
        [points for _key, points in side.lines],
    ]


class GameColumns(Protocol):
    """What a summary reads from the game's own row (the row, or a query's named columns)."""

    created_at: datetime
    name: str
    variant_id: str
    players: int


def from_stored(game: GameColumns, game_id: int, version: int, data: list[Any]) -> GameSummary:
    """A stored summary as the statistics read it, with what the game row holds itself."""
    variant_name, deals, deals_in_game, finished, keys, sides = data
    return GameSummary(
        game_id=game_id,
        version=version,
        created_at=game.created_at,
        name=game.name,
        variant_id=game.variant_id,
        variant_name=variant_name,
        players=game.players,
        deals=deals,
        deals_in_game=deals_in_game,
        finished=finished,
        sides=tuple(
            SideSummary(
                name=name,
                deal_totals=tuple(totals),
                total=total,
                won=won,
                went_out=went_out,
                red_threes_caught=caught,
                books=tuple(books),
                lines=tuple(zip(keys, lines, strict=True)),
            )
            for name, total, won, went_out, caught, totals, books, lines in sides
        ),
    )


def side_summary(score: GameScore, index: int) -> SideSummary:
    lines = dict.fromkeys(LINE_GROUPS, 0)
    books = [0] * len(BOOK_KINDS)
    went_out = caught = 0
    for result in score.deals:
        entry = result.entry.sides[index]
        for line in result.scores[index].lines:
            group = next(key for key, members in LINE_GROUPS.items() if line.key in members)
            lines[group] += line.points
        for kind, field in enumerate(BOOK_KINDS):
            books[kind] += getattr(entry, field)
        went_out += int(entry.went_out and not result.entry.stock_ran_out)
        caught += entry.red_threes_held
    return SideSummary(
        name=score.side_names[index],
        deal_totals=tuple(result.scores[index].total for result in score.deals),
        total=score.totals[index],
        won=index in score.winners,
        went_out=went_out,
        red_threes_caught=caught,
        books=tuple(books),
        lines=tuple(lines.items()),
    )
