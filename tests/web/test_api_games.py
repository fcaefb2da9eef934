"""A game kept through the API only: started at a card table, its deals added, changed, deleted
and undone, its scoreboard read; each write authorised by an edit link sent as a Bearer token,
each answer carrying the game's version as its ETag, and every error problem details."""

from __future__ import annotations

import re
import threading
from dataclasses import asdict

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT, form_values

from scorekeeper.capabilities import TOKEN_LENGTH
from scorekeeper.rules.entry import SideEntry

PROBLEM_JSON = "application/problem+json"
TOKEN = rf"[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}"

SECOND_OUT = SideEntry(
    meld_points=950,
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    cards_left_points=10,
    went_out=True,
)
SECOND_CAUGHT = SideEntry(meld_points=450, clean_books=1, cards_left_points=60)


def side_json(side: SideEntry) -> dict[str, object]:
    """A side's entry as the API takes it: every field, as the rules core's entry holds it."""
    return asdict(side)


def deal_json(*sides: SideEntry, **more: object) -> dict[str, object]:
    return {"sides": [side_json(side) for side in sides], **more}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_table(client: FlaskClient, name: str = "Club") -> str:
    """A card table made through its page, as a phone does; its edit token."""
    response = client.post("/tables/new", data={"name": name})
    assert response.status_code == 303
    match = re.search(rf"/t/({TOKEN})", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


NEW_GAME = {
    "variant": "pagat",
    "players": 4,
    "name": "Friday",
    "sides": [
        {"name": "Us", "players": ["Ann", "Bob"]},
        {"name": "Them", "players": ["Cy", "Di"]},
    ],
}


def start(api: FlaskClient, table: str, body: dict | None = None, **headers: str):
    return api.post(
        f"/api/v1/tables/{table}/games", json=body or NEW_GAME, headers={**bearer(table), **headers}
    )


@pytest.fixture
def table(client: FlaskClient) -> str:
    return make_table(client)


@pytest.fixture
def api(app: Flask) -> FlaskClient:
    """A client with no session: all it holds are the tokens it sends."""
    return app.test_client()


@pytest.fixture
def started(api: FlaskClient, table: str) -> dict:
    response = start(api, table)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def view_token(game: dict) -> str:
    return game["links"]["scoreboard"].split("/")[-2]


def put_deal(api, game, number, body, token=None, **headers):
    token = token or game["links"]["edit_token"]
    return api.put(
        f"/api/v1/games/{view_token(game)}/deals/{number}",
        json=body,
        headers={**bearer(token), **headers},
    )


# --- a whole game --------------------------------------------------------------------------


def test_a_whole_game_kept_through_the_api_has_the_totals_the_pages_give(
    app: Flask, api: FlaskClient, client: FlaskClient, table: str
):
    made = start(api, table)
    assert made.status_code == 201
    game = made.get_json()
    assert made.headers["Location"] == game["links"]["scoreboard"]
    assert [side["name"] for side in game["sides"]] == ["Us", "Them"]
    assert [side["players"] for side in game["sides"]] == [["Ann", "Bob"], ["Cy", "Di"]]
    assert game["next_deal"] == {
        "number": 1,
        "dealing": "one-dealer",
        "dealer": {"side": 0, "side_name": "Us", "player": "Ann"},
        "first": {"side": 1, "side_name": "Them", "player": "Cy"},
    }
    edit = game["links"]["edit_token"]
    view = view_token(game)

    deals = [
        (PAGAT_OUT, PAGAT_CAUGHT),
        (SECOND_CAUGHT, SECOND_OUT),
        (PAGAT_OUT, PAGAT_CAUGHT),
        (SECOND_CAUGHT, SECOND_OUT),
    ]
    for number, sides in enumerate(deals, start=1):
        saved = put_deal(api, game, number, deal_json(*sides), token=table if number % 2 else edit)
        assert saved.status_code == 201, saved.get_json()
        assert saved.headers["ETag"] == f'"g{game_id(saved)}-v{number + 1}"'

    # Deal 3 changed, deal 4 deleted, then entered again and undone, then entered once more.
    changed = put_deal(api, game, 3, deal_json(SECOND_OUT, SECOND_CAUGHT, stock_ran_out=False))
    assert changed.status_code == 200
    gone = api.delete(f"/api/v1/games/{view}/deals/4", headers=bearer(edit))
    assert gone.status_code == 200 and [d["number"] for d in gone.get_json()["deals"]] == [1, 2, 3]
    assert put_deal(api, game, 4, deal_json(PAGAT_OUT, PAGAT_CAUGHT)).status_code == 201
    undone = api.post(f"/api/v1/games/{view}/undo", headers=bearer(edit))
    assert undone.status_code == 200
    assert undone.get_json()["undone"]["number"] == 4
    assert undone.get_json()["undone"]["sides"][0]["entry"] == side_json(PAGAT_OUT)
    assert [d["number"] for d in undone.get_json()["deals"]] == [1, 2, 3]
    assert put_deal(api, game, 4, deal_json(*deals[3])).status_code == 201

    board = api.get(f"/api/v1/games/{view}/scoreboard").get_json()
    assert board["finished"] is True and board["next_deal"] is None
    totals = [side["total"] for side in board["sides"]]

    # The same deals through the deal form, as phones enter them.
    from game_helpers import start_game

    links = start_game(app, client, "Same")
    for number, sides in enumerate([deals[0], deals[1], (SECOND_OUT, SECOND_CAUGHT), deals[3]], 1):
        out = next(i for i, side in enumerate(sides) if side.went_out)
        data = {**form_values(*sides, went_out=out), "version": "0"}
        assert client.post(f"{links.edit_path}/deals/{number}", data=data).status_code == 303
    paged = client.get(f"/api/v1/games/{links.view}/scoreboard").get_json()
    assert [side["total"] for side in paged["sides"]] == totals
    assert board["leaders"] == paged["leaders"] == board["winners"]
    page = client.get(links.view_path).get_data(as_text=True)
    for total in totals:
        assert f"{total:,}" in page or str(total) in page


def game_id(response) -> int:
    return int(re.match(r'"g(\d+)-', response.headers["ETag"]).group(1))


def test_an_impossible_deal_is_422_naming_side_field_and_rule(api: FlaskClient, started: dict):
    # Pagat lays red threes down: a side still playing with no cards left is refused.
    caught = SideEntry(meld_points=600, clean_books=1, dirty_books=1, cards_left_points=0)
    refused = put_deal(api, started, 1, deal_json(PAGAT_OUT, caught))
    assert refused.status_code == 422
    (error,) = refused.get_json()["field_errors"]
    assert error["side"] == 1 and error["field"] == "cards_left_points"
    assert error["code"] == "did-not-go-out-so-each-of-its-players-still-holds-at-least-one"
    board = api.get(f"/api/v1/games/{view_token(started)}/scoreboard").get_json()
    assert board["deals"] == [] and board["version"] == 1


def test_a_deal_with_warnings_is_422_until_accepted(api: FlaskClient, table: str):
    each_alone = {"variant": "simpson", "sides": [{"name": "Ann"}, {"name": "Bob"}]}
    made = start(api, table, each_alone)
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    holding = SideEntry(meld_points=100, red_threes_held=1)
    first = put_deal(api, game, 1, deal_json(out, holding))
    assert first.status_code == 422
    assert "accept_warnings" in first.get_json()["detail"]
    (warning,) = first.get_json()["field_errors"]
    assert warning["field"] == "cards_left_points" and warning["side"] == 1
    accepted = put_deal(api, game, 1, deal_json(out, holding, accept_warnings=True))
    assert accepted.status_code == 201
    assert accepted.get_json()["totals"] == [900, 100 - 500]


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"variant": "canasta"}, "variant", "unknown-variant"),
        (
            {"players": 5},
            "players",
            "is-not-played-at-that-table-choose-one-of-the-tables-it-allows",
        ),
        (
            {"sides": [{"name": "Us"}, {"name": "us"}]},
            "sides",
            "give-each-side-a-different-name",
        ),
        (
            {"sides": [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": ["ANN"]}]},
            "sides",
            "give-each-player-a-different-name",
        ),
        (
            {"sides": [{"name": "Us", "players": ["A", "B", "C"]}, {"name": "Them"}]},
            "sides[0].players",
            "a-side-of-this-table-has-player-s-not",
        ),
        ({"sides": [{"name": "Us\u0007"}, {"name": "Them"}]}, "sides[0].name", None),
        ({"colour": "red"}, "colour", "unknown-field"),
    ],
)
def test_a_new_game_is_checked_as_the_new_game_page_checks_it(
    api: FlaskClient, table: str, change: dict, field: str, code: str | None
):
    response = start(api, table, {**NEW_GAME, **change})
    assert response.status_code == 422
    errors = response.get_json()["field_errors"]
    assert field in [error["field"] for error in errors]
    if code is not None:
        assert code in [error["code"] for error in errors]


# --- authorisation -------------------------------------------------------------------------


def test_no_token_is_401_and_nothing_changes(api: FlaskClient, started: dict):
    view = view_token(started)
    response = api.put(f"/api/v1/games/{view}/deals/1", json=deal_json(PAGAT_OUT, PAGAT_CAUGHT))
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert response.content_type == PROBLEM_JSON
    assert api.get(f"/api/v1/games/{view}/scoreboard").get_json()["deals"] == []
    assert api.post(f"/api/v1/tables/{view}/games", json=NEW_GAME).status_code == 404


def test_a_strangers_token_is_404(api: FlaskClient, client: FlaskClient, started: dict):
    other_table = make_table(client, "Elsewhere")
    other = start(api, other_table).get_json()
    view = view_token(started)
    for token in (other["links"]["edit_token"], other_table, "x" * TOKEN_LENGTH):
        response = put_deal(api, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT), token=token)
        assert response.status_code == 404
        assert api.post(f"/api/v1/games/{view}/undo", headers=bearer(token)).status_code == 404
    # A table's edit link starts games at that table only.
    elsewhere = api.post(
        f"/api/v1/tables/{other_table}/games",
        json=NEW_GAME,
        headers=bearer(other["links"]["edit_token"]),
    )
    assert elsewhere.status_code == 404
    assert api.get(f"/api/v1/games/{view}/scoreboard").get_json()["deals"] == []


def test_a_view_token_reads_but_is_403_on_writes(api: FlaskClient, started: dict):
    """403, not 404: the view token opens the game already, so the refusal hides nothing (the
    pages answer a view link on an edit page the same)."""
    view = view_token(started)
    response = put_deal(api, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT), token=view)
    assert response.status_code == 403
    assert "cannot change it" in response.get_json()["detail"]
    assert api.delete(f"/api/v1/games/{view}/deals/1", headers=bearer(view)).status_code == 403
    assert api.get(f"/api/v1/games/{view}/scoreboard").status_code == 200


# --- versions ------------------------------------------------------------------------------


def test_two_clients_racing_on_one_deal_get_one_200_and_one_412(app: Flask, started: dict):
    first, second = app.test_client(), app.test_client()
    assert put_deal(first, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT)).status_code == 201
    read = first.get(f"/api/v1/games/{view_token(started)}/deals/1")
    etag = read.headers["ETag"]
    assert read.get_json()["version"] == 1  # the deal was saved on the game's version 1

    answers: list[int] = []
    barrier = threading.Barrier(2)

    def change(client: FlaskClient, side: SideEntry) -> None:
        barrier.wait()
        body = deal_json(PAGAT_OUT, side)
        answers.append(put_deal(client, started, 1, body, **{"If-Match": etag}).status_code)

    edits = [
        SideEntry(
            meld_points=700,
            clean_books=1,
            dirty_books=1,
            cards_left_points=120,
            red_threes_down=1,
            red_threes_held=1,
        ),
        SideEntry(
            meld_points=800,
            clean_books=1,
            dirty_books=1,
            cards_left_points=120,
            red_threes_down=1,
            red_threes_held=1,
        ),
    ]
    threads = [
        threading.Thread(target=change, args=pair)
        for pair in zip((first, second), edits, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 412]

    stale = put_deal(first, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT), **{"If-Match": etag})
    assert stale.status_code == 412
    body = stale.get_json()
    assert body["current_version"] == 3 and body["etag"] == stale.headers["ETag"]
    assert stale.content_type == PROBLEM_JSON
    fresh = put_deal(
        first, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT), **{"If-Match": body["etag"]}
    )
    assert fresh.status_code == 200 and fresh.headers["ETag"] == f'"g{game_id(fresh)}-v4"'


def test_if_match_holds_the_whole_game_and_a_write_without_it_is_made(
    api: FlaskClient, started: dict
):
    etag = api.get(f"/api/v1/games/{view_token(started)}/scoreboard").headers["ETag"]
    assert put_deal(api, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT)).status_code == 201
    # Deal 2 was not touched, but the game moved on since the ETag.
    refused = put_deal(api, started, 2, deal_json(PAGAT_OUT, PAGAT_CAUGHT), **{"If-Match": etag})
    assert refused.status_code == 412
    assert put_deal(api, started, 2, deal_json(PAGAT_OUT, PAGAT_CAUGHT)).status_code == 201


def test_a_view_links_answers_are_revalidated_and_an_edit_links_not_stored(
    api: FlaskClient, started: dict
):
    view = view_token(started)
    first = api.get(f"/api/v1/games/{view}/scoreboard")
    assert set(first.headers["Cache-Control"].split(", ")) == {"private", "no-cache"}
    since = {"If-None-Match": first.headers["ETag"]}
    again = api.get(f"/api/v1/games/{view}/scoreboard", headers=since)
    assert again.status_code == 304
    put_deal(api, started, 1, deal_json(PAGAT_OUT, PAGAT_CAUGHT))
    changed = api.get(f"/api/v1/games/{view}/scoreboard", headers=since)
    assert changed.status_code == 200 and len(changed.get_json()["deals"]) == 1
    edit = started["links"]["edit_token"]
    assert api.get(f"/api/v1/games/{edit}/scoreboard").headers["Cache-Control"] == "no-store"


# --- paging --------------------------------------------------------------------------------


def test_the_list_of_games_comes_a_page_at_a_time(client: FlaskClient, table: str):
    for number in range(5):
        assert start(client, table, {**NEW_GAME, "name": f"Game {number}"}).status_code == 201
    seen = []
    address = "/api/v1/games?limit=2"
    while address:
        response = client.get(address)
        page = response.get_json()
        assert len(page["games"]) <= 2 and page["format"]
        seen += [game["name"] for game in page["games"]]
        link = response.headers.get("Link")
        match = re.fullmatch(r'<http://[^/]+(/api/v1/games\?[^>]+)>; rel="next"', link or "")
        assert (match is None) == (link is None)
        address = match.group(1) if match else None
    assert seen == [f"Game {n}" for n in reversed(range(5))]
    too_many = client.get("/api/v1/games", query_string={"limit": 101})
    assert too_many.status_code == 422
    assert too_many.get_json()["field_errors"][0]["field"] == "limit"
    bad = client.get("/api/v1/games", query_string={"cursor": "nonsense!"})
    assert bad.status_code == 422 and bad.get_json()["field_errors"][0]["field"] == "cursor"


# --- problems in the caller's language -----------------------------------------------------


def test_a_404_and_a_422_are_problem_details_in_french(api: FlaskClient, started: dict):
    french = {"Accept-Language": "fr"}
    missing = api.get("/api/v1/games/" + "x" * TOKEN_LENGTH + "/scoreboard", headers=french)
    assert missing.status_code == 404
    assert missing.content_type == PROBLEM_JSON
    body = missing.get_json()
    assert body["type"] == "about:blank" and body["status"] == 404
    assert body["title"] == "Page introuvable"
    assert body["field_errors"][0]["code"] == "not-found"

    two = SideEntry(
        meld_points=600, clean_books=1, dirty_books=1, cards_left_points=120, went_out=True
    )
    refused = put_deal(api, started, 1, deal_json(PAGAT_OUT, two), **french)
    assert refused.status_code == 422 and refused.content_type == PROBLEM_JSON
    body = refused.get_json()
    (error,) = body["field_errors"]
    assert error["field"] == "went_out"
    assert error["code"] == "only-one-side-can-go-out-in-a-deal-are-marked"
    assert error["message"].startswith("Un seul camp peut sortir")
    assert body["errors"] == [{k: v for k, v in error.items() if k != "code"}]
    score = api.post("/api/v1/score", json={"variant": "nope"}, headers=french)
    assert score.status_code == 422 and score.content_type == PROBLEM_JSON
    codes = {error["code"] for error in score.get_json()["field_errors"]}
    assert codes >= {"unknown-variant", "is-required"}
