"""Migration 0008: the sides of earlier games become the players of their card tables."""

from sqlalchemy import text

from scorekeeper.extensions import db

NOW = "2026-03-01 20:00:00"


def _game(connection, game_id: int, table_id: int | None, players: int, *sides: str) -> None:
    connection.execute(
        text(
            "INSERT INTO game (id, table_id, name, variant_id, rules, players, created_at,"
            " updated_at, version, view_token, view_token_hash, edit_token_hash)"
            " VALUES (:id, :table, '', 'pagat', '{}', :players, :now, :now, 1,"
            " :view, :vh, :eh)"
        ),
        {
            "id": game_id,
            "table": table_id,
            "players": players,
            "now": NOW,
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


def test_earlier_sides_become_players_where_their_names_tell_them(empty_app) -> None:
    runner = empty_app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "0007"]).exit_code == 0
    with empty_app.app_context(), db.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO card_table (id, name, created_at, updated_at, view_token,"
                " view_token_hash, edit_token_hash) VALUES (1, 'Ours', :now, :now, 't', 'th', 'te')"
            ),
            {"now": NOW},
        )
        _game(connection, 1, 1, 4, "Ann & Bob", "Cy and Dee")
        _game(connection, 2, 1, 4, " ann / cy ", "Team 2")
        _game(connection, 3, 1, 3, "Bob", "Joueur 2", "Eve")
        _game(connection, 4, None, 2, "Zed", "Yan")
        _game(connection, 5, 1, 4, "The Sharks", "Bob + Dee")
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with empty_app.app_context(), db.engine.connect() as connection:
        players = (
            connection.execute(text("SELECT name FROM player WHERE table_id = 1 ORDER BY key"))
            .scalars()
            .all()
        )
        seats = connection.execute(
            text(
                "SELECT game_side.game_id, game_side.position, seat.position, player.name"
                " FROM seat JOIN game_side ON game_side.id = seat.side_id"
                " JOIN player ON player.id = seat.player_id ORDER BY 1, 2, 3"
            )
        ).all()
    assert players == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    assert [tuple(row) for row in seats] == [
        (1, 0, 0, "Ann"),
        (1, 0, 1, "Bob"),
        (1, 1, 0, "Cy"),
        (1, 1, 1, "Dee"),
        (2, 0, 0, "Ann"),
        (2, 0, 1, "Cy"),
        (3, 0, 0, "Bob"),
        (3, 2, 0, "Eve"),
        (5, 1, 0, "Bob"),
        (5, 1, 1, "Dee"),
    ]
    down = runner.invoke(args=["db", "downgrade", "0007"])
    assert down.exit_code == 0, down.output
