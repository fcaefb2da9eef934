"""A table's statistics per player and per team, summed from its games' summaries.

The numbers themselves (``Tally``, ``Tallies``) are made and stored by the store
(``store.tallies``, ``store.table_statistics``), which changes them with every change to a game;
here they are named and put in order for the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper.store.game_summary import GameSummary
from scorekeeper.store.tallies import (
    ALL_GAMES,
    STORED_FORMAT,
    Filters,
    Tallies,
    Tally,
    from_stored_data,
    rules_played,
    stored_data,
    tallies,
)

__all__ = [
    "STORED_FORMAT",
    "Filters",
    "Statistics",
    "Tallies",
    "Tally",
    "from_stored_data",
    "named",
    "rules_played",
    "statistics",
    "stored_data",
    "tallies",
]


@dataclass(frozen=True, slots=True)
class Statistics:
    games: int
    """Finished games counted."""
    players: list[Tally]
    teams: list[Tally]
    rules: list[tuple[str, str]]
    """(id, name) of every rules the table played, for the filter."""


def named(
    found: Tallies, names: dict[int, str], rules: list[tuple[str, str]] | None = None
) -> Statistics:
    """The standings of ``found``, each player and team named as ``names`` (each player's
    current name: renamed and merged players read as they are now), with the ``rules``
    played (by default those ``found`` counted)."""
    for player_id, tally in found.players.items():
        tally.name = names.get(player_id, "?")
    for key, team in found.teams.items():
        team.name = " & ".join(names.get(p, "?") for p in key)
    return Statistics(
        found.games,
        _standings(found.players.values()),
        _standings(found.teams.values()),
        found.rules if rules is None else rules,
    )


def statistics(
    games: Sequence[GameSummary],
    seats: dict[int, list[list[int]]],
    names: dict[int, str],
    filters: Filters = ALL_GAMES,
) -> Statistics:
    """Standings of the table's players and teams over the finished games ``filters`` keeps.

    ``games``: newest first; ``seats``: the player ids on each side of each game; ``names``:
    each player's current name (renamed and merged players read as they are now).
    """
    return named(tallies(games, seats, filters), names)


def _standings(tallies: Iterable[Tally]) -> list[Tally]:
    return sorted(tallies, key=lambda t: (-t.wins, -t.win_rate, -t.average_game, t.name))
