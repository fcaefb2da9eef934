"""Each game of a table reduced to what its history and statistics read, through the rules core.

A ``GameSummary`` is made from the game's stored entries by ``store.scores.game_score`` (the
rules core scores every deal with the game's frozen rules): no total is ever stored apart.
Summaries are kept in memory by (game id, game version): every deal saved, changed or deleted
gives its game a new version, so a summary kept can never be stale, and a table's page reads
only the games it has not summed up before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Lock

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.rules.game import GameScore
from scorekeeper.rules.score_lines import LINES
from scorekeeper.store.game_service import games_newest_first
from scorekeeper.store.games import Game, GameSide
from scorekeeper.store.players import Seat
from scorekeeper.store.scores import game_score

BOOK_KINDS = ("clean_books", "dirty_books", "wild_books", "black_three_books")
LINE_GROUPS: dict[str, tuple[str, ...]] = {
    group: tuple(line.key for line in LINES if line.chart_group == group)
    for group in dict.fromkeys(line.chart_group for line in LINES)
}
"""The lines of a deal's score as the charts group them (every kind of book as one), from the
score-line spec."""

CACHE_SIZE = 20_000
LOAD_CHUNK = 400


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
    """The game as its history and statistics read it, scored by the rules core."""
    score = game_score(game)
    sides = tuple(_side(score, index) for index in range(len(score.side_names)))
    return GameSummary(
        game_id=game.id,
        version=game.version,
        created_at=game.created_at,
        name=game.name,
        variant_id=game.variant_id,
        variant_name=str(game.rules.get("name", game.variant_id)),
        players=game.players,
        deals=len(score.deals),
        deals_in_game=score.variant.deals,
        finished=score.finished,
        sides=sides,
    )


def _side(score: GameScore, index: int) -> SideSummary:
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


class SummaryCache:
    """Summaries by (game id, version), the least recently used dropped first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[tuple[int, int], GameSummary] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple[int, int]) -> GameSummary | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, summary: GameSummary) -> None:
        with self._lock:
            self._items[(summary.game_id, summary.version)] = summary
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


summaries = SummaryCache()


Versions = tuple[tuple[int, int], ...]
SeatRows = tuple[tuple[int, int, int], ...]


def table_versions(table_id: int) -> Versions:
    """(game id, version) of every game of the table, newest first."""
    rows = db.session.execute(
        select(Game.id, Game.version)
        .where(Game.table_id == table_id)
        .order_by(Game.created_at.desc(), Game.id.desc())
    )
    return tuple((game_id, version) for game_id, version in rows)


def table_summaries(table_id: int, versions: Versions | None = None) -> list[GameSummary]:
    """Every game of the table, newest first, each read and scored only when it changed."""
    rows = versions if versions is not None else table_versions(table_id)
    found: dict[int, GameSummary] = {}
    missing = []
    for game_id, version in rows:
        summary = summaries.get((game_id, version))
        if summary is None:
            missing.append(game_id)
        else:
            found[game_id] = summary
    for chunk in _chunks(missing, LOAD_CHUNK):
        for game in games_newest_first(Game.id.in_(chunk)):
            summary = summarize(game)
            summaries.put(summary)
            found[game.id] = summary
    return [found[game_id] for game_id, _version in rows if game_id in found]


def _chunks(items: Sequence[int], size: int) -> Iterable[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def seat_rows(table_id: int) -> SeatRows:
    """(game id, side position, player id) of every seat at the table's games."""
    rows = db.session.execute(
        select(GameSide.game_id, GameSide.position, Seat.player_id)
        .join(Seat, Seat.side_id == GameSide.id)
        .join(Game, Game.id == GameSide.game_id)
        .where(Game.table_id == table_id)
        .order_by(GameSide.game_id, GameSide.position, Seat.position)
    )
    return tuple((game_id, position, player_id) for game_id, position, player_id in rows)


def table_seats(table_id: int, rows: SeatRows | None = None) -> dict[int, list[list[int]]]:
    """The player ids seated on each side of each of the table's games: game id -> sides."""
    rows = rows if rows is not None else seat_rows(table_id)
    seats: dict[int, list[list[int]]] = {}
    for game_id, position, player_id in rows:
        sides = seats.setdefault(game_id, [])
        while len(sides) <= position:
            sides.append([])
        sides[position].append(player_id)
    return seats
