"""The HANDnFOOT pack's ladies added to clean books: house rules that choose the pack bring
100 a lady, and the deal form, the preview, the scoreboard, the sheets, the rules page and the
score API show and count them; the partnership game with standard decks shows none of it."""

import re

from house_helpers import html, make_house_rules, text
from test_house_games import post_deal, start_game, totals
from test_sheets import get_pdf, pdf_pages

PACK = {"deck": "handnfoot", "decks__0": 1}
LABEL = "Red threes added to clean books"

# Us went out: 655 melded (a wild book of jesters, clean books of lords, dirty books of 12s)
# with two ladies on its clean books; Them laid a lady down and holds another.
DEAL = {
    "went_out": "0",
    "sides-0-meld_points": "655",
    "sides-0-clean_books": "2",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-ladies_in_books": "2",
    "sides-0-cards_left_points": "5",
    "sides-1-meld_points": "300",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "120",
}
# 655 + 2 x 500 + 2 x 300 + 1500 + 2 x 100 (ladies) + 100 - 5; 300 + 500 + 300 + 100 - 100 - 120
DEAL_TOTALS = (4050, 980)
API_DEAL = {
    "deal": 1,
    "players": 4,
    "sides": [
        {
            "meld_points": 655,
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "ladies_in_books": 2,
            "went_out": True,
            "cards_left_points": 5,
        },
        {
            "meld_points": 300,
            "clean_books": 1,
            "dirty_books": 1,
            "red_threes_down": 1,
            "red_threes_held": 1,
            "cards_left_points": 120,
        },
    ],
}
PACK_RULES = {
    "name": "Pack",
    "based_on": "pagat",
    "changes": {"deck": "handnfoot", "tables": [{"sides": 2, "players": 4, "decks": 1}]},
}


def test_a_deal_with_ladies_in_books_is_entered_previewed_and_scored(client):
    make_house_rules(client, **PACK)
    game = start_game(client, "house-our-table")

    form = html(client.get(f"{game}/deals/1"))
    assert f'<label for="sides-0-ladies_in_books">{LABEL}</label>' in form
    field = re.search(r'<input[^>]*name="sides-0-ladies_in_books"[^>]*>', form)
    assert field and 'max="10"' in field.group(0)  # the pack's ten ladies
    assert client.post(f"{game}/deals/1/preview", data=DEAL).get_json()["totals"] == list(
        DEAL_TOTALS
    )

    post_deal(client, game, 1, DEAL)

    assert totals(client, game) == DEAL_TOTALS
    board = html(client.get(game))
    assert re.search(rf'<th scope="row">{LABEL}</th><td>200</td><td>0</td>', board)


def test_a_table_s_own_lady_bonus_is_scored(client):
    make_house_rules(client, **PACK, book_bonus__lady=250)
    game = start_game(client, "house-our-table")

    post_deal(client, game, 1, DEAL)

    assert totals(client, game) == (DEAL_TOTALS[0] + 300, DEAL_TOTALS[1])


def test_ladies_without_a_clean_book_are_refused_on_the_deal_form(client):
    make_house_rules(client, **PACK)
    game = start_game(client, "house-our-table")

    response = client.post(
        f"{game}/deals/1", data={**DEAL, "sides-1-clean_books": "0", "sides-1-ladies_in_books": "1"}
    )

    assert response.status_code == 422
    assert (
        "Them: 1 red threes added to clean books, but the side has no clean book to add them to."
        in text(response)
    )


def test_sheets_and_the_rules_page_show_the_ladies_line_and_its_default(client):
    make_house_rules(client, **PACK)

    (page,) = pdf_pages(get_pdf(client, "/sheets/house-our-table.pdf"))
    blank = " ".join(page.split())
    assert blank.count(f"{LABEL} +100 each") == 4
    rules = html(client.get("/rules/house-our-table"))
    assert f"{LABEL} 100 each" in text(client.get("/rules/house-our-table"))
    note = rules.split("A lady added to a clean book earns 100", 1)[1].split("</p>", 1)[0]
    assert 'class="badge-default"' in note


def test_the_partnership_game_shows_no_ladies_line(client):
    game = start_game(client, "pagat")

    pages = [
        html(client.get(f"{game}/deals/1")),
        text(client.get("/sheets/pagat.html")),
        pdf_pages(get_pdf(client, "/sheets/pagat.pdf"))[0],
        text(client.get("/rules/pagat")),
    ]

    for page in pages:
        assert "ladies_in_books" not in page
        assert "added to clean books" not in " ".join(page.split())


def test_the_score_api_takes_ladies_in_books_and_refuses_them_by_name(client):
    response = client.post("/api/v1/score", json={**API_DEAL, "variant": PACK_RULES})

    assert response.status_code == 200, response.get_json()
    out, caught = response.get_json()["sides"]
    assert (out["total"], caught["total"]) == DEAL_TOTALS
    assert out["breakdown"]["ladies_in_books"] == 200

    refused = client.post("/api/v1/score", json={**API_DEAL, "variant": "pagat"})
    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [
        {
            "side": 0,
            "field": "ladies_in_books",
            "message": "Side 1: Partnership (pagat.com) has no bonus for red threes added to "
            "clean books, so none can be scored.",
        }
    ]


def test_the_openapi_document_describes_ladies_in_books_and_the_lady_bonus(client):
    document = client.get("/api/v1/openapi.json").get_json()
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("ladies_in_books", "lady"):
                    found.append((key, value))
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(document)

    assert ("ladies_in_books", {"type": "integer", "minimum": 0}) in found
    assert any(
        key == "lady" and "red three added to a clean book" in str(value) for key, value in found
    )


def test_a_whole_variant_written_before_the_lady_bonus_is_still_read(client):
    whole = client.get("/api/v1/variants").get_json()["variants"][0]
    del whole["book_bonus"]["lady"]
    whole["id"] = "older-copy"

    response = client.post(
        "/api/v1/score",
        json={
            **API_DEAL,
            "variant": whole,
            "sides": [
                {**API_DEAL["sides"][0], "ladies_in_books": 0},
                API_DEAL["sides"][1],
            ],
        },
    )

    assert response.status_code == 200, response.get_json()
    required = _book_bonus_required(client.get("/api/v1/openapi.json").get_json())
    assert required and all("clean" in parts and "lady" not in parts for parts in required)


def _book_bonus_required(node):
    """The required parts of every book_bonus object the document describes."""
    found = []
    if isinstance(node, dict):
        bonus = node.get("properties", {}).get("book_bonus") if "properties" in node else None
        if isinstance(bonus, dict) and "required" in bonus:
            found.append(bonus["required"])
        for value in node.values():
            found += _book_bonus_required(value)
    elif isinstance(node, list):
        for item in node:
            found += _book_bonus_required(item)
    return found
