"""Each game's stored summary: written with every change to the game, in its transaction, and
read by the statistics page, which then scores no game."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import select, update
from test_games import DEAL_1, DEAL_1_TOTALS, game_path, html, post_deal, start, stored_version
from test_history import new_game, newest_game_id, play, table_token

from scorekeeper.extensions import db
from scorekeeper.history.pages import forget_kept
from scorekeeper.store import deal_writes
from scorekeeper.store.game_summary import SUMMARY_FORMAT
from scorekeeper.store.games import Game, StoredSummary
from scorekeeper.store.players import Player
from scorekeeper.store.summaries import from_stored, rebuilt_summaries, summarize
from scorekeeper.store.summary_writes import read_states


def stored(app: Flask, game_id: int) -> tuple[int, int, list]:
    """The stored summary's version and format, and what it holds."""
    with app.app_context():
        row = db.session.get(StoredSummary, game_id)
        assert row is not None, "no summary stored"
        return row.version, row.format, row.summary


def assert_current(app: Flask, game_id: int) -> list:
    """The stored summary is at the game's version and holds what the rules core makes of the
    game's deals now; returns what it holds."""
    version, format_, data = stored(app, game_id)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert version == game.version
        assert format_ == SUMMARY_FORMAT
        assert from_stored(game, game.id, version, data) == summarize(game)
    return data


def without_tokens(page: str) -> str:
    """The page without its CSRF tokens, which are signed anew for every page."""
    return re.sub(r'(csrf[^>]*?(?:value|content)=")[^"]*', r"\1", page)


def totals(data: list) -> list[int]:
    return [side[1] for side in sides(data)]


def sides(data: list) -> list[list]:
    """The sides of a stored summary (see ``game_summary.summary_data``)."""
    return data[5]


def deal_totals(data: list, side: int) -> list[int]:
    return sides(data)[side][5]


def test_a_new_game_is_stored_with_its_summary(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)

    data = assert_current(app, game_id)

    assert stored(app, game_id)[0] == 1
    assert (data[1], data[3]) == (0, False)  # deals entered, finished
    assert [side[0] for side in sides(data)] == ["Ann & Bob", "Cy & Di"]


def test_deals_saved_edited_deleted_and_undone_write_the_summary(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    assert post_deal(client, game_id, 1, DEAL_1).status_code == 303
    assert totals(assert_current(app, game_id)) == list(DEAL_1_TOTALS)

    assert post_deal(client, game_id, 2, DEAL_1).status_code == 303
    data = assert_current(app, game_id)
    assert data[1] == 2
    assert deal_totals(data, 0) == [DEAL_1_TOTALS[0]] * 2

    undone = client.post(
        f"{game_path(game_id)}/deals/2/undo", data={"version": stored_version(client, game_id)}
    )
    assert undone.status_code == 303
    assert assert_current(app, game_id)[1] == 1

    edited = {**DEAL_1, 0: {**DEAL_1[0], "meld_points": 1310}}
    assert post_deal(client, game_id, 1, edited).status_code == 303
    data = assert_current(app, game_id)
    assert deal_totals(data, 0) == [DEAL_1_TOTALS[0] + 100]

    deleted = client.post(
        f"{game_path(game_id)}/deals/1/delete",
        data={"version": stored_version(client, game_id, 1)},
    )
    assert deleted.status_code == 303
    data = assert_current(app, game_id)
    assert data[1] == 0
    assert totals(data) == [0, 0]


def test_a_deleted_game_takes_its_summary_with_it(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)

    response = client.post(
        f"{game_path(game_id)}/delete", data={"version": stored_version(client, game_id)}
    )

    assert response.status_code == 303
    with app.app_context():
        assert db.session.get(StoredSummary, game_id) is None


@pytest.mark.postgresql
def test_a_save_that_meets_a_change_made_since_its_read_stores_what_is_stored_then(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's one-statement save makes the summary from deals read before it: when the
    game moved on in between, the statement writes nothing, and the save is made statement by
    statement, its deals read under the game's lock. (SQLite reads the deals under the game's
    lock: nothing comes between.)"""
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)
    reading = read_states
    reads: list[int] = []

    def read_before_another_change(connection, game_ids):
        states = reading(connection, game_ids)
        reads.append(len(reads))
        if len(reads) > 1:
            return states  # read again under the game's lock
        for state in states.values():
            state.version -= 1  # as if read before a change that came in between
            state.entries.clear()  # ... and before deal 1 was saved
        return states

    monkeypatch.setattr(deal_writes, "read_states", read_before_another_change)

    assert post_deal(client, game_id, 2, DEAL_1).status_code == 303

    monkeypatch.undo()
    data = assert_current(app, game_id)
    assert data[1] == 2


def test_merged_players_move_the_summaries_on_with_their_games(
    app: Flask, client: FlaskClient
) -> None:
    forget_kept()
    new_game(client, "Ann", "Bob", "Cy", "Dee")
    first = newest_game_id(app)
    play(app, first, PAGAT_OUT, PAGAT_CAUGHT)
    new_game(client, "Anne", "Bob", "Cy", "Dee")
    second = newest_game_id(app)
    play(app, second, PAGAT_CAUGHT, PAGAT_OUT)
    token = table_token(client, app)
    before = [stored(app, first)[0], stored(app, second)[0]]
    with app.app_context():
        ids = {p.name: p.id for p in db.session.scalars(select(Player))}

    response = client.post(
        f"/t/{token}/players/merge", data={"typo": str(ids["Anne"]), "kept": str(ids["Ann"])}
    )

    assert response.status_code == 303, html(response)
    with app.app_context():
        assert "Anne" not in set(db.session.scalars(select(Player.name)))
    assert stored(app, first)[0] == before[0]
    assert stored(app, second)[0] == before[1] + 1
    assert_current(app, first)
    assert_current(app, second)


def test_the_statistics_read_the_stored_summaries_and_make_again_only_those_not_current(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    forget_kept()
    new_game(client, "Ann", "Bob", "Cy", "Dee")
    first = newest_game_id(app)
    play(app, first, PAGAT_OUT, PAGAT_CAUGHT)
    new_game(client, "Ann", "Cy", "Bob", "Dee")
    second = newest_game_id(app)
    play(app, second, PAGAT_CAUGHT, PAGAT_OUT)
    token = table_token(client, app)
    scored: list[int] = []
    real = summarize

    def counted(game):
        scored.append(game.id)
        return real(game)

    monkeypatch.setattr("scorekeeper.store.summaries.summarize", counted)
    made = rebuilt_summaries.count

    page = html(client.get(f"/t/{token}/stats"))

    assert scored == []
    assert rebuilt_summaries.count == made
    assert "2 finished games counted." in page

    forget_kept()
    with app.app_context():
        db.session.execute(
            update(StoredSummary)
            .where(StoredSummary.game_id == first)
            .values(version=StoredSummary.version - 1, summary=["not", "read"])
        )
        db.session.execute(StoredSummary.__table__.delete().where(StoredSummary.game_id == second))
        db.session.commit()

    again = html(client.get(f"/t/{token}/stats"))

    assert scored == [], "the table's statistics are read, kept by every change"
    assert without_tokens(again) == without_tokens(page)
    filtered = html(client.get(f"/t/{token}/stats?from=2000-01-01"))
    assert sorted(scored) == sorted([first, second])
    assert rebuilt_summaries.count == made + 2
    assert "2 finished games counted." in filtered
    forget_kept()
    html(client.get(f"/t/{token}/stats?from=2000-01-02"))
    assert rebuilt_summaries.count == made + 4, "made again on every read, never trusted"
    scored.clear()
    html(client.get(f"/t/{token}/stats?rules=pagat"))
    assert scored == [], "kept in memory by game and version within the process"
