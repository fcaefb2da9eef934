"""A table's statistics stored with the table: made by the statistics page from the games'
stored summaries, read by a new process instead of them, and never read after a game changed."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import select, update
from test_history import new_game, newest_game_id, play, standings, table_token
from test_stored_summaries import without_tokens

from scorekeeper.extensions import db
from scorekeeper.history.pages import forget_kept
from scorekeeper.history.stats import from_stored_data, stored_data, tallies
from scorekeeper.store.games import Game, StoredSummary
from scorekeeper.store.summaries import table_seats, table_summaries
from scorekeeper.store.table_statistics import StoredStatistics


def two_games(app: Flask, client: FlaskClient) -> str:
    """Ann & Bob beat Cy & Dee, then Ann & Cy beat Bob & Dee; the table's edit token."""
    forget_kept()
    new_game(client, "Ann", "Bob", "Cy", "Dee")
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    new_game(client, "Ann", "Cy", "Bob", "Dee")
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    return table_token(client, app)


def stored_rows(app: Flask) -> list[tuple[int, str]]:
    with app.app_context():
        return [
            (row.table_id, row.digest) for row in db.session.scalars(select(StoredStatistics)).all()
        ]


def test_the_stored_statistics_read_back_as_they_were_made(app: Flask, client: FlaskClient) -> None:
    two_games(app, client)
    with app.app_context():
        table_id = db.session.scalar(select(Game.table_id).limit(1))
        made = tallies(table_summaries(table_id), table_seats(table_id))

        again = from_stored_data(stored_data(made))

    assert again == made
    assert again.games == 2
    assert [tally.wins for tally in again.players.values()] == [2, 1, 1, 0]
    assert sorted(again.teams) == [(1, 2), (1, 3), (2, 4), (3, 4)]


def test_a_new_process_reads_the_statistics_stored_with_the_table(
    app: Flask, client: FlaskClient, monkeypatch
) -> None:
    token = two_games(app, client)
    first = client.get(f"/t/{token}/stats").get_data(as_text=True)
    assert len(stored_rows(app)) == 1
    forget_kept()
    with app.app_context():  # summaries the page would read if it read them
        db.session.execute(update(StoredSummary).values(summary=["not", "read"]))
        db.session.commit()

    again = client.get(f"/t/{token}/stats").get_data(as_text=True)

    assert without_tokens(again) == without_tokens(first)
    assert standings(again, "standings")["Ann"][:2] == ["2", "2"]


def test_a_deal_saved_makes_the_stored_statistics_out_of_date(
    app: Flask, client: FlaskClient
) -> None:
    token = two_games(app, client)
    client.get(f"/t/{token}/stats")
    before = stored_rows(app)
    new_game(client, "Bob", "Dee", "Ann", "Cy")
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    forget_kept()

    page = client.get(f"/t/{token}/stats").get_data(as_text=True)

    assert "3 finished games counted." in page
    assert standings(page, "standings")["Dee"][:2] == ["3", "1"]
    after = stored_rows(app)
    assert len(after) == 1 and after[0][0] == before[0][0]
    assert after[0][1] != before[0][1], "stored again for the games as they are now"
