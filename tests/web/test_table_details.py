"""The details a table sees around its games: the table's default name and paper in the
reader's language, numbers in the reader's format, who deals by name, and the operator's
commands telling tables apart."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import save, start_game
from sqlalchemy import select
from test_history import table_token
from test_sheets import page_size

from scorekeeper.extensions import db
from scorekeeper.store.tables import CardTable


def _table_names(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(CardTable.name).order_by(CardTable.id)))


@pytest.mark.parametrize(
    ("language", "name"),
    [("fr", "Notre table"), ("ja", "私たちのテーブル"), ("de", "Unser Tisch"), ("en", "Our table")],
)
def test_the_table_made_for_a_first_game_is_named_in_the_players_language(
    app: Flask, client: FlaskClient, language: str, name: str
) -> None:
    client.set_cookie("lang", language)

    start_game(app, client)

    assert _table_names(app) == [name]


@pytest.mark.parametrize(
    ("accept", "name"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.5", "Notre table"),
        ("ja-JP", "私たちのテーブル"),
        ("ja", "私たちのテーブル"),
    ],
)
def test_the_table_is_named_in_the_browsers_language(
    app: Flask, client: FlaskClient, accept: str, name: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept

    start_game(app, client)

    assert _table_names(app) == [name]


def test_a_table_under_its_default_name_is_called_so_in_each_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    links = start_game(app, client)

    client.set_cookie("lang", "fr")
    home = client.get("/").get_data(as_text=True)
    scoreboard = client.get(links.edit_path).get_data(as_text=True)
    client.set_cookie("lang", "ja")
    japanese = client.get("/").get_data(as_text=True)

    assert ">Notre table</a>" in home and ">Notre table</a>" in scoreboard
    assert ">私たちのテーブル</a>" in japanese
    assert "Our table" not in home + japanese
    assert _table_names(app) == ["Our table"], "the stored name is left as it was made"


def test_a_table_named_by_its_players_keeps_its_name_in_every_language(
    app: Flask, client: FlaskClient
) -> None:
    client.post("/tables/new", data={"name": "Tuesday club"})
    client.set_cookie("lang", "ja")

    assert ">Tuesday club</a>" in client.get("/").get_data(as_text=True)


# --- the paper a sheet is printed on ----------------------------------------------------------

LETTER = (8.5 * 72, 11 * 72)
A4 = (210 / 25.4 * 72, 297 / 25.4 * 72)


def _size(data: bytes) -> tuple[float, float]:
    width, height = page_size(data)
    return round(width), round(height)


@pytest.mark.parametrize(
    ("accept", "paper"),
    [
        ("en-US,en;q=0.9", LETTER),
        ("fr-CA,fr;q=0.9", LETTER),
        ("en-GB,en;q=0.9", A4),
        ("fr-FR,fr;q=0.9", A4),
        ("de", A4),
        ("ja", A4),
        ("en", LETTER),
    ],
)
def test_a_game_sheet_and_the_season_summary_print_on_the_readers_paper(
    app: Flask, client: FlaskClient, accept: str, paper: tuple[float, float]
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303

    sheet = client.get(f"{links.edit_path}/sheet.pdf")
    season = client.get(f"/t/{table_token(client, app)}/season.pdf")

    assert sheet.status_code == 200 and season.status_code == 200
    expected = (round(paper[0]), round(paper[1]))
    assert _size(sheet.data) == expected
    assert _size(season.data) == expected


def test_a_chosen_paper_size_still_wins_over_the_readers(app: Flask, client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr-FR"
    links = start_game(app, client)

    sheet = client.get(f"{links.edit_path}/sheet.pdf?size=letter")

    assert _size(sheet.data) == (round(LETTER[0]), round(LETTER[1]))


# --- numbers and names on the scoreboard and the deal page --------------------------------------


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Us leads with 4,595 points."),
        ("fr", "En tête avec 4\u202f595 points : Us."),
        ("de", "Us führt mit 4.595 Punkten."),
    ],
)
def test_the_leaders_points_are_written_in_the_readers_number_format(
    app: Flask, client: FlaskClient, language: str, sentence: str
) -> None:
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303
    client.set_cookie("lang", language)

    page = client.get(links.edit_path).get_data(as_text=True)

    assert sentence in page


def _dealer(client: FlaskClient, path: str, number: int) -> str:
    page = client.get(f"{path}/deals/{number}").get_data(as_text=True)
    return re.search(r"<dt>Dealer</dt><dd>([^<]*)</dd>", page).group(1)


def test_the_partner_who_deals_is_named_when_the_partners_are(
    app: Flask, client: FlaskClient
) -> None:
    named = start_game(
        app,
        client,
        **{"player_names-0": "Ann", "player_names-1": "Bob"},
        **{"player_names-3": "Cy", "player_names-4": "Di"},
    )
    unnamed = start_game(app, client, name="Saturday")

    dealers = [_dealer(client, named.edit_path, number) for number in (1, 2, 3, 4)]

    assert dealers == ["Ann, of Us", "Cy, of Them", "Bob, of Us", "Di, of Them"]
    assert _dealer(client, unnamed.edit_path, 1) == "a player of Us"


def test_a_points_each_hint_agrees_with_whatever_it_counts_in_french(
    app: Flask, client: FlaskClient
) -> None:
    links = start_game(app, client)
    client.set_cookie("lang", "fr")

    page = client.get(f"{links.edit_path}/deals/1").get_data(as_text=True)

    assert "points chacune" not in page
    assert "+100 points l’unité" in page


# --- the operator's commands ------------------------------------------------------------------


def test_the_list_of_tables_tells_tables_of_one_name_apart(app: Flask) -> None:
    ann, bob = app.test_client(), app.test_client()
    start_game(app, ann, **{"player_names-0": "Ann", "player_names-1": "Bob"})
    start_game(app, bob, **{"side_names-0": "Eve", "side_names-1": "Fay"})

    listed = app.test_cli_runner().invoke(args=["tables", "list"]).output.splitlines()

    assert listed[0] == "id\tmade\tlast change\tgames\trules\tname\tplayers"
    moment = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    assert re.fullmatch(rf"1\t{moment}\t{moment}\t1\t0\t'Our table'\tAnn, Bob", listed[1])
    assert re.fullmatch(rf"2\t{moment}\t{moment}\t1\t0\t'Our table'\tEve, Fay", listed[2])


def test_a_new_edit_link_is_printed_as_the_whole_address_the_phones_open(
    app: Flask, client: FlaskClient
) -> None:
    start_game(app, client)
    app.config["PUBLIC_URL"] = "https://scores.example:8443"
    runner = app.test_cli_runner()

    table = runner.invoke(args=["tables", "edit-link", "1"]).output.strip()
    game = runner.invoke(args=["games", "edit-link", "1"]).output.strip()

    assert re.fullmatch(r"https://scores\.example:8443/t/[A-Za-z0-9_-]{43}", table)
    assert re.fullmatch(r"https://scores\.example:8443/g/[A-Za-z0-9_-]{43}", game)
    assert client.get(table.removeprefix("https://scores.example:8443")).status_code == 200
