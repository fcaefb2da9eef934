"""A table's statistics per player and per team, summed from its games' summaries.

Only finished games count: a game still being played has no winner yet. A team is the same
players on one side (in any seat order); a player alone on a side is a team of one and is
counted as a player only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from scorekeeper.store.summaries import BOOK_KINDS, LINE_GROUPS, GameSummary, SideSummary


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


@dataclass(slots=True)
class Tally:
    """One player's (or team's) numbers over the games counted."""

    name: str
    games: int = 0
    wins: int = 0
    deals: int = 0
    deal_points: int = 0
    best_deal: int | None = None
    game_points: int = 0
    went_out: int = 0
    red_threes_caught: int = 0
    books: list[int] = field(default_factory=lambda: [0] * len(BOOK_KINDS))
    lines: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LINE_GROUPS, 0))
    rules: Counter[str] = field(default_factory=Counter)
    tables: Counter[tuple[int, int]] = field(default_factory=Counter)
    results: list[tuple[datetime, int, bool]] = field(default_factory=list)
    """(when, game total, won) for each game counted, oldest first."""

    def add(self, game: GameSummary, side: SideSummary) -> None:
        # Called for every player of every side of every game counted: kept to plain steps.
        totals = side.deal_totals
        self.games += 1
        if side.won:
            self.wins += 1
        if totals:
            self.deals += len(totals)
            self.deal_points += sum(totals)
            best = max(totals)
            if self.best_deal is None or best > self.best_deal:
                self.best_deal = best
        self.game_points += side.total
        self.went_out += side.went_out
        self.red_threes_caught += side.red_threes_caught
        books = self.books
        for kind, count in enumerate(side.books):
            books[kind] += count
        lines = self.lines
        for key, points in side.lines:
            lines[key] += points
        self.rules[game.variant_name] += 1
        self.tables[(len(game.sides), game.players)] += 1
        self.results.append((game.created_at, side.total, side.won))

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


@dataclass(frozen=True, slots=True)
class Statistics:
    games: int
    """Finished games counted."""
    players: list[Tally]
    teams: list[Tally]
    rules: list[tuple[str, str]]
    """(id, name) of every rules the table played, for the filter."""


@dataclass(slots=True)
class Tallies:
    """A table's numbers by player id and by team (its players' ids, sorted), not yet named:
    what the statistics are made of, and what is stored of them (``kept``)."""

    games: int
    """Finished games counted."""
    players: dict[int, Tally]
    teams: dict[tuple[int, ...], Tally]
    rules: list[tuple[str, str]]


def tallies(
    games: Sequence[GameSummary],
    seats: dict[int, list[list[int]]],
    filters: Filters = Filters(),
) -> Tallies:
    """Each player's and team's numbers over the finished games ``filters`` keeps (``games``:
    newest first; ``seats``: the player ids on each side of each game)."""
    players: dict[int, Tally] = {}
    teams: dict[tuple[int, ...], Tally] = {}
    counted = 0
    for game in reversed(games):
        if not game.finished or not filters.keeps(game):
            continue
        counted += 1
        sides = seats.get(game.game_id, [])
        for index, side in enumerate(game.sides):
            seated = sides[index] if index < len(sides) else []
            for player_id in seated:
                tally = players.get(player_id)
                if tally is None:
                    tally = players[player_id] = Tally("")
                tally.add(game, side)
            if len(seated) > 1:
                key = tuple(sorted(seated))
                team = teams.get(key)
                if team is None:
                    team = teams[key] = Tally("")
                team.add(game, side)
    return Tallies(counted, players, teams, rules_played(games))


def named(found: Tallies, names: dict[int, str]) -> Statistics:
    """The standings of ``found``, each player and team named as ``names`` (each player's
    current name: renamed and merged players read as they are now)."""
    for player_id, tally in found.players.items():
        tally.name = names.get(player_id, "?")
    for key, team in found.teams.items():
        team.name = " & ".join(names.get(p, "?") for p in key)
    return Statistics(
        found.games,
        _standings(found.players.values()),
        _standings(found.teams.values()),
        found.rules,
    )


def statistics(
    games: Sequence[GameSummary],
    seats: dict[int, list[list[int]]],
    names: dict[int, str],
    filters: Filters = Filters(),
) -> Statistics:
    """Standings of the table's players and teams over the finished games ``filters`` keeps.

    ``games``: newest first; ``seats``: the player ids on each side of each game; ``names``:
    each player's current name (renamed and merged players read as they are now).
    """
    return named(tallies(games, seats, filters), names)


def _standings(tallies: Iterable[Tally]) -> list[Tally]:
    return sorted(tallies, key=lambda t: (-t.wins, -t.win_rate, -t.average_game, t.name))


def rules_played(games: Sequence[GameSummary]) -> list[tuple[str, str]]:
    played = {game.variant_id: game.variant_name for game in games}
    return sorted(played.items(), key=lambda item: item[1].casefold())


STORED_FORMAT = 1
"""The shape of stored tallies (``stored_data``): one more whenever it changes."""


def stored_data(found: Tallies) -> dict[str, Any]:
    """``found`` as JSON, to be stored (``store.table_statistics``) and read back by
    ``from_stored_data`` as it was: each tally's counters in the order they were first met.
    The games' dates are written once (``dates``), and each result names its date's place."""
    places: dict[datetime, int] = {}
    for tally in [*found.players.values(), *found.teams.values()]:
        for when, _total, _won in tally.results:
            places.setdefault(when, len(places))
    return {
        "games": found.games,
        "dates": [when.isoformat() for when in places],
        "players": [
            [player_id, _tally_data(tally, places)] for player_id, tally in found.players.items()
        ],
        "teams": [[list(key), _tally_data(tally, places)] for key, tally in found.teams.items()],
        "rules": [list(item) for item in found.rules],
    }


def from_stored_data(data: dict[str, Any]) -> Tallies:
    dates = [datetime.fromisoformat(when) for when in data["dates"]]
    return Tallies(
        data["games"],
        {player_id: _tally(raw, dates) for player_id, raw in data["players"]},
        {tuple(key): _tally(raw, dates) for key, raw in data["teams"]},
        [(variant_id, name) for variant_id, name in data["rules"]],
    )


def _tally_data(tally: Tally, places: dict[datetime, int]) -> list[Any]:
    return [
        tally.games,
        tally.wins,
        tally.deals,
        tally.deal_points,
        tally.best_deal,
        tally.game_points,
        tally.went_out,
        tally.red_threes_caught,
        tally.books,
        [tally.lines[key] for key in LINE_GROUPS],
        list(tally.rules.items()),
        [[sides, players, count] for (sides, players), count in tally.tables.items()],
        # One flat list (date's place, total, won, ...): a thousand games read back quicker.
        [item for when, total, won in tally.results for item in (places[when], total, won)],
    ]


def _tally(raw: list[Any], dates: list[datetime]) -> Tally:
    (games, wins, deals, deal_points, best, game_points, went_out, caught) = raw[:8]
    books, lines, rules, tables, results = raw[8:]
    return Tally(
        "",
        games=games,
        wins=wins,
        deals=deals,
        deal_points=deal_points,
        best_deal=best,
        game_points=game_points,
        went_out=went_out,
        red_threes_caught=caught,
        books=books,
        lines=dict(zip(LINE_GROUPS, lines, strict=True)),
        rules=Counter(dict(rules)),
        tables=Counter({(sides, players): count for sides, players, count in tables}),
        results=[(dates[place], total, won) for place, total, won in _triples(results)],
    )


def _triples(flat: list[Any]) -> Iterable[tuple[Any, Any, Any]]:
    items = iter(flat)
    return zip(items, items, items, strict=True)
