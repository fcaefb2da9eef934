"""A table's numbers per player and per team over its finished games, not yet named: made from
the games' summaries (``tallies``), stored with the table (``stored_data``, read back by
``from_stored_data``), and changed one game at a time (``Tallies.take_out``/``put_in``) when a
change to a game is written, in its transaction (``store.table_statistics``).

Only finished games count: a game still being played has no winner yet. A team is the same
players on one side (in any seat order); a player alone on a side is a team of one and is
counted as a player only. Every number is a sum over the games counted, or read from each
game's own result (the best deal), so that a game's part can be taken out again exactly.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from functools import partial
from operator import is_not, itemgetter
from typing import Any

from scorekeeper.store.game_summary import BOOK_KINDS, LINE_GROUPS, GameSummary, SideSummary

Seats = dict[int, list[list[int]]]
"""The player ids seated on each side of each game: game id -> sides."""


@dataclass(frozen=True, slots=True)
class Filters:
    """Which games count: one rules' games (None: all), and those started in a period."""

    rules: str | None = None
    since: date | None = None
    until: date | None = None

    def keeps(self, game: GameSummary) -> bool:
        if self.rules is not None and game.variant_id != self.rules:
            return False
        if self.since is not None and game.created_at < datetime.combine(self.since, time.min):
            return False
        return self.until is None or game.created_at <= datetime.combine(self.until, time.max)


ALL_GAMES = Filters()
"""Every game counts."""


@dataclass(slots=True)
class Tally:
    """One player's (or team's) numbers over the games counted."""

    name: str
    games: int = 0
    wins: int = 0
    deals: int = 0
    deal_points: int = 0
    game_points: int = 0
    went_out: int = 0
    red_threes_caught: int = 0
    books: list[int] = field(default_factory=lambda: [0] * len(BOOK_KINDS))
    lines: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LINE_GROUPS, 0))
    rules: Counter[str] = field(default_factory=Counter)
    tables: Counter[tuple[int, int]] = field(default_factory=Counter)
    played: list[tuple[datetime, int, int, bool, int | None]] = field(default_factory=list)
    """(when, game id, game total, won, best deal) for each game counted, oldest first."""

    def add(self, game: GameSummary, side: SideSummary) -> None:
        self._count(game, side, 1)
        result = (game.created_at, game.game_id, side.total, side.won, _best(side))
        if not self.played or self.played[-1] < result:
            self.played.append(result)  # the usual case: games counted oldest first
        else:
            insort(self.played, result)

    def remove(self, game: GameSummary, side: SideSummary) -> None:
        """Take out what ``add`` counted of this game (its summary as it was added)."""
        self._count(game, side, -1)
        self.played = [item for item in self.played if item[1] != game.game_id]

    def _count(self, game: GameSummary, side: SideSummary, sign: int) -> None:
        # Called for every player of every side of every game counted: kept to plain steps.
        totals = side.deal_totals
        self.games += sign
        if side.won:
            self.wins += sign
        self.deals += sign * len(totals)
        self.deal_points += sign * sum(totals)
        self.game_points += sign * side.total
        self.went_out += sign * side.went_out
        self.red_threes_caught += sign * side.red_threes_caught
        books = self.books
        for kind, count in enumerate(side.books):
            books[kind] += sign * count
        lines = self.lines
        for key, points in side.lines:
            lines[key] += sign * points
        _count(self.rules, game.variant_name, sign)
        _count(self.tables, (len(game.sides), game.players), sign)

    @property
    def results(self) -> list[tuple[datetime, int, bool]]:
        """(when, game total, won) for each game counted, oldest first."""
        return [(when, total, won) for when, _id, total, won, _best in self.played]

    @results.setter
    def results(self, results: Sequence[tuple[datetime, int, bool]]) -> None:
        """Results of games not otherwise known (no id, no best deal): for the charts alone."""
        self.played = [(when, n, total, won, None) for n, (when, total, won) in enumerate(results)]

    @property
    def best_deal(self) -> int | None:
        return max(filter(_known, map(_BEST_DEAL, self.played)), default=None)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_deal(self) -> float:
        return self.deal_points / self.deals if self.deals else 0.0

    @property
    def average_game(self) -> float:
        return self.game_points / self.games if self.games else 0.0

    @property
    def books_by_kind(self) -> dict[str, int]:
        return dict(zip(BOOK_KINDS, self.books, strict=True))


_BEST_DEAL = itemgetter(4)
"""The best deal of a result of ``Tally.played``."""


_known = partial(is_not, None)
"""Whether a best deal is known: built of functions the interpreter runs without a frame,
as it is asked of each of a player's games."""


def _best(side: SideSummary) -> int | None:
    return max(side.deal_totals) if side.deal_totals else None


def _count(counter: Counter[Any], key: Any, sign: int) -> None:
    counter[key] += sign
    if counter[key] <= 0:
        del counter[key]


@dataclass(slots=True)
class Tallies:
    """A table's numbers by player id and by team (its players' ids, sorted), not yet named."""

    games: int
    """Finished games counted."""
    players: dict[int, Tally]
    teams: dict[tuple[int, ...], Tally]
    played_rules: dict[str, tuple[str, int]] = field(default_factory=dict)
    """variant id -> (its name, games of it), every game, finished or not; made by
    ``tallies``, not stored (the page reads them from the games: ``played_rules``)."""

    @property
    def rules(self) -> list[tuple[str, str]]:
        """(id, name) of every rules the table played, for the filter."""
        played = [(variant_id, name) for variant_id, (name, _n) in self.played_rules.items()]
        return sorted(played, key=lambda item: item[1].casefold())

    def put_in(self, game: GameSummary, sides: Sequence[Sequence[int]]) -> None:
        """Count the game, its players seated as ``sides`` (player ids of each side)."""
        if game.finished:
            self.games += 1
            self._sides(game, sides, add=True)

    def take_out(self, game: GameSummary, sides: Sequence[Sequence[int]]) -> None:
        """Take out what ``put_in`` counted of the game (its summary and seats as then)."""
        if game.finished:
            self.games -= 1
            self._sides(game, sides, add=False)

    def _rules(self, game: GameSummary, sign: int) -> None:
        name, count = self.played_rules.get(game.variant_id, (game.variant_name, 0))
        if count + sign > 0:
            self.played_rules[game.variant_id] = (name, count + sign)
        else:
            self.played_rules.pop(game.variant_id, None)

    def _sides(self, game: GameSummary, sides: Sequence[Sequence[int]], *, add: bool) -> None:
        for index, side in enumerate(game.sides):
            seated = sides[index] if index < len(sides) else []
            for player_id in seated:
                _change(self.players, player_id, game, side, add=add)
            if len(seated) > 1:
                _change(self.teams, tuple(sorted(seated)), game, side, add=add)


def _change(
    tallies: dict[Any, Tally], key: Any, game: GameSummary, side: SideSummary, *, add: bool
) -> None:
    tally = tallies.get(key)
    if tally is None:
        if not add:
            return
        tally = tallies[key] = Tally("")
    if add:
        tally.add(game, side)
    else:
        tally.remove(game, side)
        if tally.games <= 0:
            del tallies[key]


def tallies(
    games: Sequence[GameSummary],
    seats: Seats,
    filters: Filters = Filters(),
) -> Tallies:
    """Each player's and team's numbers over the finished games ``filters`` keeps (``games``:
    newest first; ``seats``: the player ids on each side of each game)."""
    found = Tallies(0, {}, {})
    for game in reversed(games):
        # The rules list names every rules played, whichever games the filters keep.
        found._rules(game, 1)
        if game.finished and filters.keeps(game):
            found.games += 1
            found._sides(game, seats.get(game.game_id, []), add=True)
    return found


def rules_played(games: Sequence[GameSummary]) -> list[tuple[str, str]]:
    played = {game.variant_id: game.variant_name for game in games}
    return sorted(played.items(), key=lambda item: item[1].casefold())


STORED_FORMAT = 2
"""The shape of stored tallies (``stored_data``): one more whenever it changes."""


def stored_data(found: Tallies) -> dict[str, Any]:
    """``found`` as JSON, to be stored (``store.table_statistics``) and read back by
    ``from_stored_data`` as it was (the rules played apart): each tally's counters in the order
    they were first met.
    The games' dates are written once (``dates``), and each result names its date's place."""
    places: dict[datetime, int] = {}
    for tally in [*found.players.values(), *found.teams.values()]:
        for when, *_rest in tally.played:
            places.setdefault(when, len(places))
    return {
        "games": found.games,
        "dates": [when.isoformat() for when in places],
        "players": [
            [player_id, _tally_data(tally, places)] for player_id, tally in found.players.items()
        ],
        "teams": [[list(key), _tally_data(tally, places)] for key, tally in found.teams.items()],
    }


def from_stored_data(data: dict[str, Any]) -> Tallies:
    dates = [datetime.fromisoformat(when) for when in data["dates"]]
    return Tallies(
        data["games"],
        {player_id: _tally(raw, dates) for player_id, raw in data["players"]},
        {tuple(key): _tally(raw, dates) for key, raw in data["teams"]},
    )


def _tally_data(tally: Tally, places: dict[datetime, int]) -> list[Any]:
    return [
        tally.games,
        tally.wins,
        tally.deals,
        tally.deal_points,
        tally.game_points,
        tally.went_out,
        tally.red_threes_caught,
        tally.books,
        [tally.lines[key] for key in LINE_GROUPS],
        list(tally.rules.items()),
        [[sides, players, count] for (sides, players), count in tally.tables.items()],
        # One flat list (date's place, game id, total, won, best, ...): read back quicker.
        [
            item
            for when, game_id, total, won, best in tally.played
            for item in (places[when], game_id, total, won, best)
        ],
    ]


def _tally(raw: list[Any], dates: list[datetime]) -> Tally:
    (games, wins, deals, deal_points, game_points, went_out, caught) = raw[:7]
    books, lines, rules, tables, played = raw[7:]
    return Tally(
        "",
        games=games,
        wins=wins,
        deals=deals,
        deal_points=deal_points,
        game_points=game_points,
        went_out=went_out,
        red_threes_caught=caught,
        books=books,
        lines=dict(zip(LINE_GROUPS, lines, strict=True)),
        rules=Counter(dict(rules)),
        tables=Counter({(sides, players): count for sides, players, count in tables}),
        played=list(  # the flat list's five columns, each every fifth item
            zip(
                map(dates.__getitem__, played[0::5]),
                played[1::5],
                played[2::5],
                played[3::5],
                played[4::5],
                strict=True,
            )
        ),
    )
