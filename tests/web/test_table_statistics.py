"""A table's statistics stored with the table and changed in the transaction of every change to
its games (``store.table_statistics``): the page reads one row, which always holds what the
games hold (checked against the numbers made again from the games after every change), on
SQLite and PostgreSQL, also when two games of one table are saved at once."""

from __future__ import annotations

import io
import re
from functools import partial

from flask import Flask
from flask.testing import FlaskClient
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT, form_values
from sqlalchemy import delete, select, update
from test_history import new_game, newest_game_id, play, standings, table_token
from test_player_races import ROUNDS
from test_races import race
from test_stored_summaries import without_tokens

from scorekeeper.extensions import db
from scorekeeper.history.pages import forget_kept
from scorekeeper.history.stats import STORED_FORMAT, from_stored_data, stored_data, tallies
from scorekeeper.store.games import Deal, Game, StoredSummary
from scorekeeper.store.kept_pages import KeptStatsPage
from scorekeeper.store.players import Player
from scorekeeper.store.summaries import table_seats, table_summaries
from scorekeeper.store.table_statistics import (
    StoredStatistics,
    made_from_games,
    stored_statistics,
)
from scorekeeper.store.tables import CardTable

OUT_CAUGHT = form_values(PAGAT_OUT, PAGAT_CAUGHT)
CAUGHT_OUT = form_values(PAGAT_CAUGHT, PAGAT_OUT, went_out=1)
"""A pagat deal: the side that went out scores 4,595, the side caught 1,280."""


def two_games(app: Flask, client: FlaskClient) -> str:
    """Ann & Bob beat Cy & Dee, then Ann & Cy beat Bob & Dee; the table's edit token."""
    forget_kept()
    new_game(client, "Ann", "Bob", "Cy", "Dee")
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    new_game(client, "Ann", "Cy", "Bob", "Dee")
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    return table_token(client, app)


def table_id(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(CardTable.id).order_by(CardTable.id.desc()))


def assert_current(app: Flask) -> None:
    """The stored numbers of the table are those of its games as they are now."""
    with app.app_context():
        table = table_id(app)
        stored = stored_statistics(table)
        made = made_from_games(db.session.connection(), table)
        db.session.remove()
    if stored is None:  # made by the first game finished
        assert made.games == 0 and not made.players
        return
    made.played_rules = {}  # read from the games by the page, not stored
    assert stored == made


def started(client: FlaskClient, *players: str) -> str:
    """A game started through the form with its four players; its edit path."""
    response = new_game(client, *players)
    assert response.status_code == 303
    match = re.fullmatch(r"(/g/[A-Za-z0-9_-]+)/deals/1", response.headers["Location"])
    assert match
    return match.group(1)


def deal_version(app: Flask, game_id: int, number: int) -> int:
    with app.app_context():
        version = db.session.scalar(
            select(Deal.version).where(Deal.game_id == game_id, Deal.number == number)
        )
        db.session.remove()
    return version or 0


def game_version(app: Flask, game_id: int) -> int:
    with app.app_context():
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))
        db.session.remove()
    return version


def save(client: FlaskClient, app: Flask, path: str, game_id: int, number: int, deal) -> int:
    data = {"version": str(deal_version(app, game_id, number)), **deal}
    return client.post(f"{path}/deals/{number}", data=data).status_code


def page_rows(client: FlaskClient, token: str) -> dict[str, list[str]]:
    forget_kept()  # as a new process: the stored row is read
    page = client.get(f"/t/{token}/stats").get_data(as_text=True)
    if 'id="standings"' not in page:
        return {}  # no finished game
    return {**standings(page, "standings"), **standings(page, "team-standings")}


def test_the_stored_statistics_read_back_as_they_were_made(app: Flask, client: FlaskClient) -> None:
    two_games(app, client)
    with app.app_context():
        table = db.session.scalar(select(Game.table_id).limit(1))
        made = tallies(table_summaries(table), table_seats(table))

        again = from_stored_data(stored_data(made))

    assert made.rules == [("pagat", "Partnership (pagat.com)")]
    made.played_rules = {}  # read from the games by the page, not stored
    assert again == made
    assert again.games == 2
    assert [tally.wins for tally in again.players.values()] == [2, 1, 1, 0]
    assert sorted(again.teams) == [(1, 2), (1, 3), (2, 4), (3, 4)]
    assert [tally.best_deal for tally in again.players.values()] == [4595, 4595, 4595, 1280]


def test_a_new_process_reads_the_statistics_stored_with_the_table(
    app: Flask, client: FlaskClient
) -> None:
    token = two_games(app, client)
    first = client.get(f"/t/{token}/stats").get_data(as_text=True)
    forget_kept()
    with app.app_context():  # summaries the page would read if it read them (the first game's
        # gives the name of the rules played, for the filter); no page kept as drawn
        db.session.execute(delete(KeptStatsPage))
        first_game = db.session.scalar(select(Game.id).order_by(Game.id))
        db.session.execute(
            update(StoredSummary)
            .where(StoredSummary.game_id != first_game)
            .values(summary=["not", "read"])
        )
        db.session.commit()

    again = client.get(f"/t/{token}/stats").get_data(as_text=True)

    assert without_tokens(again) == without_tokens(first)
    assert standings(again, "standings")["Ann"][:2] == ["2", "2"]


def test_every_change_to_a_game_changes_the_stored_statistics_with_it(
    app: Flask, client: FlaskClient
) -> None:
    """Saved, edited, deleted, undone, the game deleted: each through its page, then the
    statistics page of a new process shows the numbers at once (games, won, win rate, average
    deal, best deal, average game)."""
    path = started(client, "Ann", "Bob", "Cy", "Dee")
    game_id = newest_game_id(app)
    token = table_token(client, app)
    for number in (1, 2, 3):
        assert save(client, app, path, game_id, number, OUT_CAUGHT) == 303
    assert_current(app)
    assert page_rows(client, token) == {}, "a game still being played counts nothing"

    assert save(client, app, path, game_id, 4, OUT_CAUGHT) == 303  # the game is over
    assert_current(app)
    rows = page_rows(client, token)
    assert rows["Ann"] == ["1", "1", "100%", "4,595", "4,595", "18,380"]
    assert rows["Cy"] == ["1", "0", "0%", "1,280", "1,280", "5,120"]
    assert rows["Ann & Bob"] == ["1", "1", "100%", "4,595", "4,595", "18,380"]

    assert save(client, app, path, game_id, 4, CAUGHT_OUT) == 303  # deal 4 corrected
    assert_current(app)
    rows = page_rows(client, token)
    assert rows["Ann"][:2] == ["1", "1"]
    assert rows["Ann"][4:] == ["4,595", "15,065"]  # 3 x 4,595 + 1,280
    assert rows["Cy"][4:] == ["4,595", "8,435"]  # 3 x 1,280 + 4,595

    deleted = client.post(
        f"{path}/deals/4/delete", data={"version": str(deal_version(app, game_id, 4))}
    )
    assert deleted.status_code == 303
    assert_current(app)
    assert page_rows(client, token) == {}

    assert save(client, app, path, game_id, 4, OUT_CAUGHT) == 303
    assert page_rows(client, token)["Dee"] == ["1", "0", "0%", "1,280", "1,280", "5,120"]
    undone = client.post(f"{path}/deals/4/undo", data={"version": str(game_version(app, game_id))})
    assert undone.status_code == 303
    assert_current(app)
    assert page_rows(client, token) == {}

    assert save(client, app, path, game_id, 4, OUT_CAUGHT) == 303
    other = started(client, "Ann", "Cy", "Bob", "Dee")
    other_id = newest_game_id(app)
    for number in (1, 2, 3, 4):
        assert save(client, app, other, other_id, number, CAUGHT_OUT) == 303
    assert_current(app)
    assert page_rows(client, token)["Bob"] == ["2", "2", "100%", "4,595", "4,595", "18,380"]

    gone = client.post(f"{path}/delete", data={"version": str(game_version(app, game_id))})
    assert gone.status_code == 303
    assert_current(app)
    rows = page_rows(client, token)
    assert rows["Bob"] == ["1", "1", "100%", "4,595", "4,595", "18,380"]
    assert rows["Ann"] == ["1", "0", "0%", "1,280", "1,280", "5,120"]
    assert "Ann & Bob" not in rows


def test_a_merge_counts_the_typo_s_games_for_the_player_kept(
    app: Flask, client: FlaskClient
) -> None:
    token = two_games(app, client)
    new_game(client, "Anne", "Bob", "Cy", "Dee")
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    with app.app_context():
        stored = db.session.execute(select(StoredStatistics.table_id, StoredStatistics.format))
        assert [tuple(row) for row in stored] == [(table_id(app), STORED_FORMAT)]
        players = {p.name: p.id for p in db.session.scalars(select(Player))}
    assert page_rows(client, token)["Anne"][:2] == ["1", "1"]

    client.post(f"/t/{token}/players/merge", data={"typo": players["Anne"], "kept": players["Ann"]})

    assert_current(app)
    rows = page_rows(client, token)
    assert "Anne" not in rows
    assert rows["Ann"][:2] == ["3", "3"]
    assert rows["Ann & Bob"][:2] == ["2", "2"]


def test_two_games_of_one_table_saved_at_once_both_count(app: Flask, client: FlaskClient) -> None:
    """Each round, two phones save the last deal of two games of the table at the same moment:
    both games count, and the stored numbers are those of the games."""
    with app.app_context():
        rounds = ROUNDS[db.engine.dialect.name] // 5
    token = None
    for round_ in range(rounds):
        paths = []
        for players in (("Ann", "Bob", "Cy", "Dee"), ("Eve", "Fay", "Gus", "Hal")):
            path = started(client, *players)
            game_id = newest_game_id(app)
            for number in (1, 2, 3):
                assert save(client, app, path, game_id, number, OUT_CAUGHT) == 303
            paths.append((path, game_id))
        token = token or table_token(client, app)
        phones = [app.test_client(), app.test_client()]
        for phone in phones:
            phone.set_cookie(
                app.config["SESSION_COOKIE_NAME"],
                client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value,
            )
        statuses = race(
            *(
                partial(save, phone, app, path, game_id, 4, OUT_CAUGHT)
                for phone, (path, game_id) in zip(phones, paths, strict=True)
            )
        )
        assert statuses == [303, 303], f"round {round_}"
        assert_current(app)
        rows = page_rows(client, token)
        assert rows["Ann"][:2] == [str(round_ + 1)] * 2, f"round {round_}"
        assert rows["Hal"][:2] == [str(round_ + 1), "0"], f"round {round_}"


def test_a_finished_game_imported_into_the_table_counts_at_once(
    app: Flask, client: FlaskClient
) -> None:
    path = started(client, "Ann", "Bob", "Cy", "Dee")
    game_id = newest_game_id(app)
    token = table_token(client, app)
    for number in (1, 2, 3, 4):
        assert save(client, app, path, game_id, number, OUT_CAUGHT) == 303
    exported = client.get(f"{path}/export.json")
    assert exported.status_code == 200

    imported = client.post(
        "/games/import",
        data={"file": (io.BytesIO(exported.get_data()), "game.json")},
        content_type="multipart/form-data",
    )

    assert imported.status_code == 303
    assert_current(app)
    forget_kept()
    page = client.get(f"/t/{token}/stats").get_data(as_text=True)
    assert "2 finished games counted." in page
    assert standings(page, "team-standings")["Ann & Bob"][:2] == ["1", "1"]


def test_the_migration_makes_every_table_s_statistics_from_its_games(empty_app: Flask) -> None:
    runner = empty_app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    client = empty_app.test_client()
    two_games(empty_app, client)
    down = runner.invoke(args=["db", "downgrade", "0016"])  # the rows of 0012: none stored
    assert down.exit_code == 0, down.output

    up = runner.invoke(args=["db", "upgrade"])

    assert up.exit_code == 0, up.output
    assert_current(empty_app)
    with empty_app.app_context():
        found = stored_statistics(table_id(empty_app))
    assert found is not None and found.games == 2
    assert sorted(tally.wins for tally in found.players.values()) == [0, 1, 1, 2]
