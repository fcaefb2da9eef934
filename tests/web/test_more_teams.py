"""Three and four teams of two, played by house rules: the new-game form seats the partners
apart, the deal form has a column a team, the scoreboard, the sheets, the history and the API
follow."""

from __future__ import annotations

import io
import json
import re
from dataclasses import asdict

import pytest
from flask import Flask
from flask.testing import FlaskClient
from house_helpers import form_values, html, make_house_rules, text
from pypdf import PdfReader
from test_api_games import bearer, make_table, put_deal
from test_history import standings, table_token

from scorekeeper.rules.entry import SideEntry
from scorekeeper.rules.house_rules import HouseRules

TEAMS = HouseRules(
    "Teams of two",
    "pagat",
    {
        "tables": [
            {"sides": 3, "players": 6, "decks": 7},
            {"sides": 4, "players": 8, "decks": 9},
        ]
    },
)
PEOPLE = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gil", "Hal")

# Ann & Bob go out: 1500 melded + 2 x 500 + 2 x 300 + 1500 + 2 red threes x 100 + 100 for
# going out - 25 left in the partner's hand = 4875. Cid & Dee: 600 + 500 + 100 - 85 = 1115.
# Eve & Fay: 350 + 300 - 100 (a red three held) - 140 = 410.
THREE_TEAM_DEAL = {
    "went_out": "0",
    "sides-0-meld_points": "1500",
    "sides-0-clean_books": "2",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "25",
    "sides-1-meld_points": "600",
    "sides-1-clean_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-cards_left_points": "85",
    "sides-2-meld_points": "350",
    "sides-2-dirty_books": "1",
    "sides-2-red_threes_held": "1",
    "sides-2-cards_left_points": "140",
}
THREE_TEAM_TOTALS = (4875, 1115, 410)


def import_teams(client: FlaskClient) -> None:
    response = client.post("/house/import", data={"text": json.dumps(TEAMS.to_json())})
    assert response.status_code == 303, text(response)


def start_teams_game(client: FlaskClient, sides: int, variant: str = "house-teams-of-two") -> str:
    """A game of `sides` teams of two started through the form; its scoreboard's address."""
    data = {"variant": variant, "table": f"{sides}x{2 * sides}", "start": "1"}
    for side in range(sides):
        for seat in range(2):
            data[f"player_names-{side * 3 + seat}"] = PEOPLE[2 * side + seat]
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].removesuffix("/deals/1")


def totals(client: FlaskClient, game: str) -> tuple[int, ...]:
    page = html(client.get(game))
    foot = page.split('<th scope="row">Total</th>', 1)[1].split("</tr>", 1)[0]
    return tuple(int(n) for n in re.findall(r'<td class="num[^"]*">(-?\d+)</td>', foot))


def test_the_new_game_form_offers_three_and_four_teams_of_two_for_such_house_rules(client):
    import_teams(client)

    page = html(client.get("/games/new?variant=house-teams-of-two"))

    assert 'value="house-teams-of-two" data-tables="3x6 4x8"' in page
    assert '<option value="3x6" selected>3 teams of 2</option>' in page
    assert '<option value="4x8">4 teams of 2</option>' in page
    assert '<option value="2x4" disabled>2 teams of 2</option>' in page
    # a pair of name fields for each of the three teams, none for a fourth
    assert '<fieldset class="seats" data-side="2">' in page
    assert '<fieldset class="seats" data-side="3" hidden>' in page
    assert '<div class="field seat" data-side="2" data-seat="1">' in page
    assert '<div class="field seat" data-side="2" data-seat="2" hidden>' in page


def test_a_deal_of_three_teams_of_two_is_scored_for_each_team(client):
    import_teams(client)
    game = start_teams_game(client, 3)
    form = text(client.get(f"{game}/deals/1"))
    assert "Dealer Ann, of Ann & Bob Plays first Cid, of Cid & Dee" in form.replace("&amp;", "&")
    assert "Eve & Fay went out" in form.replace("&amp;", "&")

    response = client.post(f"{game}/deals/1", data=THREE_TEAM_DEAL)

    assert response.status_code == 303, text(response)
    assert totals(client, game) == THREE_TEAM_TOTALS
    board = text(client.get(game)).replace("&amp;", "&")
    assert "3 teams of 2, 7 decks" in board
    # the deal passes to the left: Cid deals deal 2 and Eve, of the third team, plays first
    assert "Next: deal 2 Dealer Cid, of Cid & Dee Plays first Eve, of Eve & Fay" in board


def test_a_team_that_goes_out_has_a_partner_still_holding_cards(client):
    import_teams(client)
    game = start_teams_game(client, 3)

    response = client.post(
        f"{game}/deals/1", data={**THREE_TEAM_DEAL, "sides-0-cards_left_points": "0"}
    )

    assert response.status_code == 422
    assert "a partner plays on until then and still holds at least" in text(response)


def test_a_four_team_games_sheet_prints_each_teams_deal_and_total(client):
    import_teams(client)
    game = start_teams_game(client, 4)
    deal = {
        **THREE_TEAM_DEAL,
        "sides-3-meld_points": "200",
        "sides-3-red_threes_down": "1",
        "sides-3-cards_left_points": "90",
    }
    assert client.post(f"{game}/deals/1", data=deal).status_code == 303
    # Gil & Hal: 200 + 100 - 90 = 210
    assert totals(client, game) == (*THREE_TEAM_TOTALS, 210)

    response = client.get(f"{game}/sheet.pdf")

    assert response.status_code == 200
    pages = PdfReader(io.BytesIO(response.data)).pages
    assert len(pages) == 1
    sheet = pages[0].extract_text()
    for name in ("Ann & Bob", "Cid & Dee", "Eve & Fay", "Gil & Hal"):
        assert name in sheet
    for total in ("4,875", "1,115", "410", "210"):
        assert total in sheet


def test_a_blank_sheet_for_four_teams_has_a_column_a_team(client):
    import_teams(client)

    response = client.get("/sheets/house-teams-of-two.pdf?sides=4&names=A,B,C,D")

    assert response.status_code == 200, response.data[:300]
    sheet = PdfReader(io.BytesIO(response.data)).pages[0].extract_text()
    assert "A B C D" in sheet.replace("\n", " ")


def test_the_deal_goes_round_six_players_and_the_history_counts_each_team(app, client):
    import_teams(client)
    game = start_teams_game(client, 3)
    for number in range(1, 4):
        assert client.post(f"{game}/deals/{number}", data=THREE_TEAM_DEAL).status_code == 303
    # partners sit apart (Ann Cid Eve Bob Dee Fay): the fourth deal is Bob's, Dee plays first
    board = text(client.get(game)).replace("&amp;", "&")
    assert "Next: deal 4 Dealer Bob, of Ann & Bob Plays first Dee, of Cid & Dee" in board
    assert client.post(f"{game}/deals/4", data=THREE_TEAM_DEAL).status_code == 303
    assert totals(client, game) == tuple(4 * total for total in THREE_TEAM_TOTALS)

    page = html(client.get(f"/t/{table_token(client, app)}/stats"))

    rows = {**standings(page, "standings"), **standings(page, "team-standings")}
    # games, won, win rate, average deal, best deal, average game
    assert rows["Ann"] == ["1", "1", "100%", "4,875", "4,875", "19,500"]
    assert rows["Fay"] == ["1", "0", "0%", "410", "410", "1,640"]
    assert rows["Cid & Dee"] == ["1", "0", "0%", "1,115", "1,115", "4,460"]
    assert rows["Eve & Fay"] == ["1", "0", "0%", "410", "410", "1,640"]
    assert "1 finished game counted." in page


def test_the_api_starts_a_game_of_three_teams_of_two(app: Flask, client: FlaskClient):
    table = make_table(client)
    import_teams(client)
    body = {
        "variant": "house-teams-of-two",
        "players": 6,
        "sides": [
            {"name": "Reds", "players": ["Ann", "Bob"]},
            {"name": "Greens", "players": ["Cid", "Dee"]},
            {"name": "Blues", "players": ["Eve", "Fay"]},
        ],
    }

    response = app.test_client().post(
        f"/api/v1/tables/{table}/games", json=body, headers=bearer(table)
    )

    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    assert [side["players"] for side in game["sides"]] == [
        ["Ann", "Bob"],
        ["Cid", "Dee"],
        ["Eve", "Fay"],
    ]
    assert game["next_deal"] == {
        "number": 1,
        "dealing": "one-dealer",
        "dealer": {"side": 0, "side_name": "Reds", "player": "Ann"},
        "first": {"side": 1, "side_name": "Greens", "player": "Cid"},
    }

    deal = {
        "sides": [
            asdict(
                SideEntry(
                    meld_points=1500,
                    clean_books=2,
                    dirty_books=2,
                    wild_books=1,
                    red_threes_down=2,
                    cards_left_points=25,
                    went_out=True,
                )
            ),
            asdict(
                SideEntry(meld_points=600, clean_books=1, red_threes_down=1, cards_left_points=85)
            ),
            asdict(
                SideEntry(meld_points=350, dirty_books=1, red_threes_held=1, cards_left_points=140)
            ),
        ]
    }
    saved = put_deal(app.test_client(), game, 1, deal)

    assert saved.status_code in (200, 201), saved.get_json()
    assert [side["total"] for side in saved.get_json()["sides"]] == list(THREE_TEAM_TOTALS)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "Players and decks: 10 players in 5 sides is not a table this app lays out; house "
            "rules keep to the tables of the built-in variants, or three or four teams of two.",
        ),
        ("fr", "ou à trois ou quatre équipes de deux."),
        ("de", "oder bei drei oder vier Teams zu zweit."),
    ],
)
def test_house_rules_for_five_teams_of_two_are_refused_naming_the_tables_laid_out(
    client, language, words
):
    rules = HouseRules(
        "Five teams", "pagat", {"tables": [{"sides": 5, "players": 10, "decks": 11}]}
    )

    response = client.post(
        "/house/import",
        data={"text": json.dumps(rules.to_json())},
        headers={"Accept-Language": language},
    )

    assert response.status_code == 422
    assert words in text(response).replace("&#39;", "'")


def test_the_house_rules_form_adds_three_teams_of_two_with_their_decks(client):
    form = html(client.get("/house/new?base=pagat"))
    assert 'name="decks__3x6" value=""' in form
    assert "4 teams of 2 (leave empty if not played)" in form

    slug = make_house_rules(client, name="Our three teams", decks__3x6=7)

    assert slug == "our-three-teams"
    page = html(client.get("/games/new?variant=house-our-three-teams"))
    assert 'value="house-our-three-teams" data-tables="2x4 2x6 2x2 3x3 4x4 5x5 6x6 3x6"' in page
    game = start_teams_game(client, 3, "house-our-three-teams")
    assert client.post(f"{game}/deals/1", data=THREE_TEAM_DEAL).status_code == 303
    assert totals(client, game) == THREE_TEAM_TOTALS
    edit = html(client.get("/house/our-three-teams/edit"))
    assert 'name="decks__7" value="7"' in edit
    assert 'name="decks__4x8" value=""' in edit


def test_too_few_decks_for_three_teams_of_two_are_refused_on_the_house_rules_form(client):
    values = form_values(html(client.get("/house/new?base=pagat")))

    response = client.post("/house/new", data={**values, "name": "Short", "decks__3x6": "2"})

    assert response.status_code == 422
    assert (
        "dealing 6 players a hand of 13 and a foot of 13 takes 156 cards, which leaves no "
        "stock from 2 × 54 = 108 cards." in text(response)
    )
