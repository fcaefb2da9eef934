"""Export and import of games: a round trip gives back the same games; a bad file imports
nothing and says why."""

from __future__ import annotations

import copy
import dataclasses
import io
import json

import pytest
from game_helpers import DEAL, store_deal
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.game_service import start_game
from scorekeeper.store.games import Deal, DealSide, Game, GameSide

OUT, OTHER = PAGAT_OUT, PAGAT_CAUGHT


def make_games(app, client) -> None:
    """Two games: one with three deals (one edited twice), one of six players with none; the
    client opens each by its view link, so that its browser holds them."""
    with app.app_context():
        pagat = get_variant("pagat")
        game = start_game(pagat, pagat.table_for(2, 4), ["Ann & Bob", "Cy & Di"], "Friday")
        for number in (1, 2, 3):
            store_deal(game, DealEntry(pagat, number, (OUT, OTHER), players=4))
        db.session.commit()
        edited = dataclasses.replace(OTHER, cards_left_points=200)
        store_deal(game, DealEntry(pagat, 2, (OUT, edited), players=4))
        db.session.commit()
        simpson = get_variant("simpson")
        start_game(simpson, simpson.table_for(3), ["Eve", "Fay", "Gus"], "")
        db.session.commit()
        view_tokens = list(db.session.scalars(select(Game.view_token)))
    for token in view_tokens:
        assert client.get(f"/g/{token}").status_code == 200


def export(client, path: str = "/api/v1/games") -> dict:
    response = client.get(path)
    assert response.status_code == 200
    return response.get_json()


def counts(app) -> tuple[int, ...]:
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Game, GameSide, Deal, DealSide)
        )


def without_time(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "exported_at"}


def test_export_then_import_gives_back_exactly_the_same_games(app, client):
    make_games(app, client)
    first = export(client)
    assert [game["name"] for game in first["games"]] == ["", "Friday"]
    with app.app_context():
        for game in db.session.scalars(select(Game)):
            db.session.delete(game)
        db.session.commit()
    assert counts(app) == (0, 0, 0, 0)

    response = client.post("/api/v1/games", json=first)

    assert response.status_code == 201, response.get_json()
    assert len(response.get_json()["games"]) == 2
    assert without_time(export(client)) == without_time(first)


def test_an_imported_game_gets_new_links_that_work(app, client):
    make_games(app, client)
    document = export(client)

    made = client.post("/api/v1/games", json=document).get_json()["games"]

    friday = next(game for game in made if game["name"] == "Friday")
    view_path = friday["view_url"].split("localhost", 1)[1]
    edit_path = friday["edit_url"].split("localhost", 1)[1]
    assert client.get(view_path).status_code == 200
    assert app.test_client().get(f"{edit_path}/deals/4").status_code == 200
    assert app.test_client().get(f"{view_path}/deals/4").status_code == 403


def test_a_deal_of_an_imported_game_entered_again_takes_a_version_it_never_had(app, client):
    """A file may give a deal a version above its game's: the game takes the deal's, so that a
    deal deleted and entered again is at a version above any it had in the file."""
    make_games(app, client)
    document = export(client)
    friday = next(game for game in document["games"] if game["name"] == "Friday")
    friday["version"] = 1
    friday["deals"][1]["version"] = 40
    made = client.post("/api/v1/games", json=document).get_json()["games"]
    edit_path = next(g for g in made if g["name"] == "Friday")["edit_url"].split("localhost")[1]

    deleted = client.post(f"{edit_path}/deals/2/delete", data={"version": "40"})
    entered = client.post(f"{edit_path}/deals/2", data={**DEAL, "version": "0"})

    assert (deleted.status_code, entered.status_code) == (303, 303)
    with app.app_context():
        game_id = db.session.scalar(select(func.max(Game.id)).where(Game.name == "Friday"))
        version = db.session.scalar(
            select(Deal.version).where(Deal.game_id == game_id, Deal.number == 2)
        )
    assert version > 40


def test_one_game_exports_by_either_link(app, client):
    make_games(app, client)
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.name == "Friday")).one()
        view = game.view_token

    document = export(client, f"/api/v1/games/{view}")
    page = client.get(f"/g/{view}/export.json")

    assert [g["name"] for g in document["games"]] == ["Friday"]
    assert page.status_code == 200 and "attachment" in page.headers["Content-Disposition"]
    assert without_time(page.get_json()) == without_time(document)
    assert "token" not in json.dumps(document)


def test_export_holds_no_link(app, client):
    make_games(app, client)
    text = client.get("/games/export.json").get_data(as_text=True)

    with app.app_context():
        for game in db.session.scalars(select(Game)):
            assert game.view_token not in text
            assert game.edit_token_hash not in text


def test_the_import_page_imports_a_file_and_gives_the_keeper_the_edit_links(app, client):
    make_games(app, client)
    document = export(client)
    keeper = app.test_client()

    response = keeper.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "games.json")},
        content_type="multipart/form-data",
    )

    assert response.status_code == 303
    assert counts(app)[0] == 4
    page = keeper.get("/").get_data(as_text=True)
    assert "2 games imported." in page


def _change(document: dict, path: tuple, value: object) -> dict:
    changed = copy.deepcopy(document)
    target = changed
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return changed


DELETE = object()

HOSTILE = [
    (("games", 1, "deals", 0, "sides", 0, "meld_points"), -5, "cannot be below 0"),
    (("games", 1, "deals", 0, "sides", 0, "meld_points"), 10**12, "must be from"),
    (("games", 1, "deals", 0, "sides", 0, "meld_points"), "1210", "must be a whole number"),
    (("games", 1, "deals", 0, "sides", 0, "meld_points"), 1210.5, "must be a whole number"),
    (("games", 1, "deals", 0, "sides", 0, "went_out"), 1, "must be true or false"),
    (("games", 1, "deals", 0, "sides", 1, "went_out"), True, "Only one side can go out"),
    (("games", 1, "deals", 0, "sides", 0, "evil"), 1, "unknown field"),
    (("games", 1, "deals", 0, "number"), 9, "must be from 1 to 4"),
    (("games", 1, "deals", 1, "number"), 1, "only once"),
    (("games", 1, "deals", 0, "version"), 0, "must be from 1"),
    (("games", 1, "deals", 0, "created_at"), "yesterday", "date and time"),
    (("games", 1, "deals", 0, "created_at"), "2026-11-23T12:00:00+05:00", "date and time"),
    (("games", 1, "deals", 0, "sides"), [], "must list 2 entries"),
    (("games", 1, "name"), "x" * 500, "at most"),
    (("games", 1, "name"), "bell\x07", "control characters"),
    (("games", 1, "name"), "nul\x00", "control characters"),
    (("games", 1, "name"), "half \ud800 of a pair", "control characters"),
    (("games", 1, "sides", 0), "Ann\x00", "control characters"),
    (("games", 1, "sides", 0), " \t\n", "must not be empty"),
    (("games", 1, "rules", "summary"), "nul\x00", "summary cannot hold control characters"),
    (("games", 1, "version"), 2**31, "must be from 1 to 1073741823"),
    (("games", 1, "deals", 0, "version"), 2**31 - 1, "must be from 1 to 1073741823"),
    (("games", 1, "sides", 0), "", "must not be empty"),
    (("games", 1, "sides", 1), "ANN & BOB", "different name"),
    (("games", 1, "sides"), ["Solo"], "has no table"),
    (("games", 1, "players"), 7, "has no table"),
    (("games", 1, "variant"), "simpson", "id of its rules"),
    (("games", 1, "rules", "book_bonus", "clean"), "500", "must be a whole number"),
    (("games", 1, "rules", "going_out_bonus"), 10**9, "must be from"),
    (("games", 1, "rules", "first_meld"), [50, 90], "one value per deal, as many as first_meld"),
    (("games", 1, "rules", "first_meld"), [50] * 9, "one value per deal, as many as first_meld"),
    (("games", 1, "rules", "surprise"), True, "rules of a variant"),
    (("games", 1, "rules"), DELETE, "rules is missing"),
    (("games", 1, "deals"), [{}] * 5, "at most 4"),
    (("games",), [], "at least one game"),
    (("games",), "all", "at least one game"),
    (("format_version",), 2, "not a games export"),
    (("exported_at",), None, "date and time"),
    (("extra",), 1, "unknown field"),
]


@pytest.mark.parametrize(("path", "value", "message"), HOSTILE)
def test_a_hostile_file_is_refused_with_a_message_and_imports_nothing(
    app, client, path, value, message
):
    make_games(app, client)
    before = counts(app)
    document = _change(export(client), path, value)

    response = client.post("/api/v1/games", json=document)

    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert any(message in error["message"] for error in errors), errors
    assert counts(app) == before


@pytest.mark.parametrize(
    "raw",
    [b"", b"not json", b"\xff\xfe", b"[" * 50_000, b'{"games": NaN}', b"null", b"[]"],
)
def test_a_file_that_is_not_an_export_is_refused_on_the_page(app, client, raw):
    before = counts(app)

    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(raw), "games.json")},
        content_type="multipart/form-data",
    )

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Nothing was imported." in page
    assert counts(app) == before


def test_a_file_that_breaks_in_its_last_game_imports_none_of_the_others(app, client):
    make_games(app, client)
    document = export(client)
    document["games"].append(copy.deepcopy(document["games"][1]))
    document["games"][-1]["deals"][0]["sides"][0]["clean_books"] = -1
    before = counts(app)

    response = client.post("/api/v1/games", json=document)

    assert response.status_code == 422
    assert "game 3" in response.get_json()["errors"][0]["message"]
    assert counts(app) == before


def test_a_refusal_is_shown_in_the_language_of_the_page(app, client):
    document = {"format": "x"}
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "games.json")},
        content_type="multipart/form-data",
        headers={"Accept-Language": "fr"},
    )

    assert response.status_code == 422
    assert '<html lang="fr">' in response.get_data(as_text=True)
