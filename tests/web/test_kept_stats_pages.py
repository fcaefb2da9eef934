"""A table's statistics page, its numbers drawn once and kept in the database
(``store.kept_pages``): a worker that starts reads them as another drew them; a change to a
game, a player renamed or another language is another page; a failure of the database only
means drawing them again; on SQLite and PostgreSQL."""

from __future__ import annotations

import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import store_deal
from pypdf import PdfReader
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import delete, func, select
from sqlalchemy.exc import OperationalError
from test_history import new_game, newest_game_id, play, standings, table_token
from test_stored_summaries import without_tokens

from scorekeeper.extensions import db
from scorekeeper.history import pages
from scorekeeper.history.pages import forget_kept
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.variants import get_variant
from scorekeeper.store import kept_pages
from scorekeeper.store.games import Game
from scorekeeper.store.kept_pages import MOST_KEPT_A_TABLE, KeptStatsPage
from scorekeeper.store.players import Player
from scorekeeper.store.tables import CardTable

PAGAT = get_variant("pagat")


def a_table_of_two_games(app: Flask, client: FlaskClient, first: str = "Ann") -> str:
    """Two games won by ``first``'s team; the table's edit token."""
    forget_kept()
    for partner in ("Bob", "Cy"):
        assert new_game(client, first, partner, "Dee", "Eve").status_code == 303
        play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    return table_token(client, app)


def stats_page(client: FlaskClient, token: str, **headers: str) -> str:
    """The table's statistics page, its response closed once read, as a server closes it once
    sent (the numbers are kept then)."""
    with client.get(f"/t/{token}/stats", headers=headers) as response:
        assert response.status_code == 200
        return response.get_data(as_text=True)


def kept_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(KeptStatsPage)) or 0


def never_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any drawing of the numbers fails the test: the page must be read as kept."""

    def refused(*_args: object) -> None:
        raise AssertionError("the numbers were drawn again")

    monkeypatch.setattr(pages, "stored_statistics", refused)
    monkeypatch.setattr(pages, "results_charts", refused)


def test_a_worker_that_starts_reads_the_numbers_another_drew(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = a_table_of_two_games(app, client, first="<b>Ann</b>")
    with client.get(f"/t/{token}/stats") as sent:
        drawn = sent.get_data(as_text=True)
        assert kept_count(app) == 0  # kept once the page is sent: the reader does not wait
    assert kept_count(app) == 1

    forget_kept()  # a worker that has just started
    never_drawn(monkeypatch)
    response = client.get(f"/t/{token}/stats")

    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert without_tokens(page) == without_tokens(drawn)
    assert standings(page, "standings")["<b>Ann</b>"][:2] == ["2", "2"]
    assert "&lt;b&gt;Ann&lt;/b&gt;" in page and "<b>Ann</b>" not in page
    assert "2 finished games counted." in page
    assert '<option value="pagat">Partnership (pagat.com)</option>' in page


def test_a_changed_game_a_renamed_player_or_another_language_is_drawn_again(
    app: Flask, client: FlaskClient
) -> None:
    token = a_table_of_two_games(app, client)
    stats_page(client, token)

    assert new_game(client, "Ann", "Dee", "Bob", "Eve").status_code == 303
    play(app, newest_game_id(app), PAGAT_CAUGHT, PAGAT_OUT)  # Bob & Eve win this one
    forget_kept()
    page = stats_page(client, token)
    assert "3 finished games counted." in page
    assert standings(page, "standings")["Ann"][:2] == ["3", "2"]

    with app.app_context():
        bob = db.session.scalar(select(Player).where(Player.name == "Bob"))
        assert bob is not None
        bob.name = "Robert"
        db.session.commit()
    forget_kept()
    renamed = standings(stats_page(client, token), "standings")
    assert "Bob" not in renamed and renamed["Robert"][:2] == ["2", "2"]

    forget_kept()
    french = stats_page(client, token, **{"Accept-Language": "fr"})
    assert "3 parties terminées comptées." in french
    english = stats_page(client, token)
    assert "3 finished games counted." in english
    assert kept_count(app) == 4


def test_a_table_keeps_only_its_newest_pages_and_takes_them_when_deleted(
    app: Flask, client: FlaskClient
) -> None:
    token = a_table_of_two_games(app, client)
    for game in range(MOST_KEPT_A_TABLE + 2):
        assert new_game(client, "Ann", "Bob", "Dee", "Eve").status_code == 303
        play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
        page = stats_page(client, token)
        assert f"{game + 3} finished games counted." in page
    assert kept_count(app) == MOST_KEPT_A_TABLE

    with app.app_context():
        db.session.execute(delete(CardTable))
        db.session.commit()
    assert kept_count(app) == 0


def test_a_database_that_cannot_read_or_keep_the_page_only_means_drawing_it(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = a_table_of_two_games(app, client)

    def failing(*_args: object) -> None:
        raise OperationalError("SELECT", {}, Exception("the database is away"))

    monkeypatch.setattr(kept_pages, "kept_stats_page", failing)
    monkeypatch.setattr(kept_pages, "keep_stats_page", failing)
    for _ in range(2):
        forget_kept()
        assert standings(stats_page(client, token), "standings")["Ann"][:2] == ["2", "2"]
    assert kept_count(app) == 0


def test_the_season_summary_never_takes_the_kept_page_for_the_numbers(
    app: Flask, client: FlaskClient
) -> None:
    token = a_table_of_two_games(app, client)
    stats_page(client, token)
    forget_kept()
    stats_page(client, token)  # read as kept: no standings in this worker's memory

    response = client.get(f"/t/{token}/season.pdf")

    assert response.status_code == 200
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    assert "Ann 2 2 100% 4,595 4,595 18,380" in text


def test_the_rules_played_are_read_again_for_a_new_game_not_for_a_deal_saved(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's rules are frozen with it: a deal saved changes the table's games' versions,
    not the rules the table played; a new game may add rules."""
    token = a_table_of_two_games(app, client)
    assert new_game(client, "Ann", "Dee", "Bob", "Eve").status_code == 303
    going = newest_game_id(app)
    store_one_deal(app, going, 1)
    reads: list[int] = []
    read = pages.played_rules

    def counted(table_id: int) -> list[tuple[str, str]]:
        reads.append(table_id)
        return read(table_id)

    monkeypatch.setattr(pages, "played_rules", counted)
    assert "2 finished games counted." in stats_page(client, token)
    assert len(reads) == 1

    store_one_deal(app, going, 2)
    assert "2 finished games counted." in stats_page(client, token)
    assert len(reads) == 1

    assert new_game(client, "Ann", "Dee", "Bob", "Eve", variant="gamerules").status_code == 303
    page = stats_page(client, token)
    assert len(reads) == 2
    assert '<option value="pagat">Partnership (pagat.com)</option>' in page
    assert 'value="gamerules"' in page


def store_one_deal(app: Flask, game_id: int, number: int) -> None:
    with app.app_context():
        game = db.session.get(Game, game_id)
        store_deal(game, DealEntry(PAGAT, number, (PAGAT_OUT, PAGAT_CAUGHT), players=4))
        db.session.commit()
