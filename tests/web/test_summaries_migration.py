"""Migration 0011: every game stored before it gets its summary, made by the rules core."""

import json

from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry
from scorekeeper.rules.game import score_game
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.game_summary import SUMMARY_FORMAT

NOW = "2026-03-01 20:00:00"
PAGAT = get_variant("pagat")


def _game(connection, game_id: int, version: int, rules: str, *sides: str) -> None:
    connection.execute(
        text(
            "INSERT INTO game (id, table_id, name, variant_id, rules, players, created_at,"
            " updated_at, version, view_token, view_token_hash, edit_token_hash)"
            " VALUES (:id, NULL, '', 'pagat', :rules, 4, :now, :now, :version,"
            " :view, :vh, :eh)"
        ),
        {
            "id": game_id,
            "rules": rules,
            "now": NOW,
            "version": version,
            "view": f"v{game_id}",
            "vh": f"vh{game_id}",
            "eh": f"eh{game_id}",
        },
    )
    for position, name in enumerate(sides):
        connection.execute(
            text(
                "INSERT INTO game_side (id, game_id, position, name)"
                " VALUES (:id, :game, :pos, :name)"
            ),
            {"id": game_id * 10 + position, "game": game_id, "pos": position, "name": name},
        )


def _deal(connection, deal_id: int, game_id: int, number: int, *entries) -> None:
    connection.execute(
        text(
            "INSERT INTO deal (id, game_id, number, stock_ran_out, created_at, updated_at, version)"
            " VALUES (:id, :game, :number, :ran_out, :now, :now, 1)"
        ),
        {"id": deal_id, "game": game_id, "number": number, "ran_out": False, "now": NOW},
    )
    # The entry's fields that the table has at the revision the test stands at.
    present = {column["name"] for column in inspect(connection).get_columns("deal_side")}
    fields = [name for name in SIDE_FIELDS if name in present]
    columns = ", ".join(fields)
    values = ", ".join(f":{name}" for name in fields)
    for position, entry in enumerate(entries):
        connection.execute(
            text(
                f"INSERT INTO deal_side (id, deal_id, position, {columns})"
                f" VALUES (:id, :deal, :position, {values})"
            ),
            {
                "id": deal_id * 10 + position,
                "deal": deal_id,
                "position": position,
                **{name: getattr(entry, name) for name in fields},
            },
        )


def _json(value):
    """A JSON column read with plain SQL: text on SQLite, already read on PostgreSQL."""
    return value if isinstance(value, list) else json.loads(value)


def test_every_game_gets_its_summary_at_its_version_and_down_drops_them(empty_app) -> None:
    runner = empty_app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "0010"]).exit_code == 0
    rules = json.dumps(PAGAT.to_dict())
    with empty_app.app_context(), db.engine.begin() as connection:
        _game(connection, 1, 7, rules, "Us", "Them")
        for number in range(1, 5):
            _deal(connection, number, 1, number, PAGAT_OUT, PAGAT_CAUGHT)
        _game(connection, 2, 3, rules, "Ann & Bob", "Cy & Dee")
        _deal(connection, 5, 2, 1, PAGAT_CAUGHT, PAGAT_OUT)
        _game(connection, 3, 1, rules, "New", "Game")
        _game(connection, 4, 2, "{}", "Unreadable", "Rules")

    result = runner.invoke(args=["db", "upgrade"])

    assert result.exit_code == 0, result.output
    with empty_app.app_context(), db.engine.connect() as connection:
        rows = {
            game_id: (version, format_, _json(summary))
            for game_id, version, format_, summary in connection.execute(
                text(
                    "SELECT game_id, version, format, summary FROM game_summaries ORDER BY game_id"
                )
            )
        }
    assert sorted(rows) == [1, 2, 3], "no summary for rules the rules core cannot read"
    finished = score_game(
        PAGAT,
        ("Us", "Them"),
        [DealEntry(PAGAT, n, (PAGAT_OUT, PAGAT_CAUGHT), players=4) for n in range(1, 5)],
    )
    # [rules' name, deals, deals in the game, finished, line keys, sides]; each side
    # [name, total, won, went out, red threes caught, deal totals, books, line points]
    version, format_, summary = rows[1]
    assert (version, format_) == (7, SUMMARY_FORMAT)
    assert summary[:4] == [PAGAT.name, 4, 4, True]
    assert [side[1] for side in summary[5]] == list(finished.totals)
    assert [side[2] for side in summary[5]] == [True, False]
    assert summary[5][0][5] == [finished.deals[0].scores[0].total] * 4
    version, _format, summary = rows[2]
    assert version == 3
    assert summary[1:4] == [1, 4, False]
    assert [side[0] for side in summary[5]] == ["Ann & Bob", "Cy & Dee"]
    assert rows[3][0] == 1
    assert [side[1] for side in rows[3][2][5]] == [0, 0]

    down = runner.invoke(args=["db", "downgrade", "0010"])

    assert down.exit_code == 0, down.output
    with empty_app.app_context(), db.engine.connect() as connection:
        assert "game_summaries" not in inspect(connection).get_table_names()
        assert connection.execute(text("SELECT count(*) FROM game")).scalar() == 4
    again = runner.invoke(args=["db", "upgrade"])
    assert again.exit_code == 0, again.output
