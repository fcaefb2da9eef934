"""Games as CSV: one row per side per deal, every entered field, the deal and running totals.

Written as UTF-8 with a byte order mark, so that a spreadsheet opens names in any script
cleanly. A text cell that a spreadsheet would take for a formula (it starts with = + - @, a
tab or a carriage return) is written with a leading apostrophe, which shows it as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from flask import Response
from flask_babel import format_date
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.rules.entry import SIDE_FIELDS
from scorekeeper.rules.score_lines import ENTRY_FIELDS
from scorekeeper.store.game_service import games_newest_first
from scorekeeper.store.games import Game
from scorekeeper.store.people import seats_of, table_players
from scorekeeper.store.scores import game_score
from scorekeeper.store.summaries import LOAD_CHUNK, table_seats
from scorekeeper.variant_texts import variant_text

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
Cell = str | int


def as_text(value: str) -> str:
    """The text as a spreadsheet must show it: never as a formula."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _headers() -> list[Cell]:
    return [
        _("Deal"),
        _("Side"),
        _("Players"),
        *(ENTRY_FIELDS[name].label_for(None).render(_) for name in SIDE_FIELDS),
        _("Stock ran out"),
        _("Deal total"),
        _("Running total"),
    ]


def game_rows(game: Game, players: Sequence[Sequence[str]] = ()) -> Iterable[list[Cell]]:
    """The game's rows: deal by deal, side by side, scored by the rules core."""
    score = game_score(game)
    for result in score.deals:
        for index, (side, entry) in enumerate(zip(result.scores, result.entry.sides, strict=True)):
            seated = players[index] if index < len(players) else ()
            yield [
                result.number,
                as_text(score.side_names[index]),
                as_text(" & ".join(seated)),
                *(int(getattr(entry, name)) for name in SIDE_FIELDS),
                int(result.entry.stock_ran_out),
                side.total,
                result.running_totals[index],
            ]


def game_csv(game: Game) -> list[list[Cell]]:
    seated = [[player.name for player in side] for side in seats_of(game)]
    return [_headers(), *game_rows(game, seated)]


def table_rows(table_id: int) -> list[list[Cell]]:
    """Every deal of every game of the table, oldest game first, each row led by its game."""
    names = {player.id: player.name for player in table_players(table_id)}
    seats = table_seats(table_id)
    rows: list[list[Cell]] = [[_("Game"), _("Date"), _("Rules"), *_headers()]]
    ids = list(
        db.session.scalars(
            select(Game.id).where(Game.table_id == table_id).order_by(Game.created_at, Game.id)
        )
    )
    for start in range(0, len(ids), LOAD_CHUNK):
        for game in reversed(games_newest_first(Game.id.in_(ids[start : start + LOAD_CHUNK]))):
            seated = [[names[p] for p in side] for side in seats.get(game.id, [])]
            lead: list[Cell] = [
                game.id,
                str(format_date(game.created_at, "yyyy-MM-dd")),
                as_text(str(variant_text(str(game.rules.get("name", game.variant_id))))),
            ]
            rows.extend(lead + row for row in game_rows(game, seated))
    return rows


def csv_response(rows: Iterable[Sequence[Cell]], filename: str) -> Response:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    response = Response(out.getvalue().encode("utf-8-sig"), mimetype="text/csv")
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
