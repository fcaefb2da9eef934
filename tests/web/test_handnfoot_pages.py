"""House rules that play with the HANDnFOOT pack: the deal form, the score and the rules page
name and count the pack's own cards."""

import re

import pytest
from house_helpers import html, make_house_rules, text
from test_house_games import post_deal, start_game, totals
from test_rules_fidelity import pdf_text

from scorekeeper.rules.variants import get_variant

# Partnership rules with one pack for two teams of two.
PACK = {"deck": "handnfoot", "decks__0": 1}

# Us went out: a wild book of seven jesters, two clean books of lords, two dirty books of 12s
# (five 12s and two jesters each), counted on the card counter.
DEAL = {
    "went_out": "0",
    "sides-0-meld_two": "11",
    "sides-0-meld_ace": "14",
    "sides-0-meld_high": "10",
    "sides-0-clean_books": "2",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-cards_left_points": "5",
    "sides-1-meld_points": "300",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-cards_left_points": "120",
}
API_DEAL = {
    "deal": 1,
    "sides": [
        {
            "meld_points": 655,
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "went_out": True,
            "cards_left_points": 5,
        },
        {"meld_points": 300, "clean_books": 1, "dirty_books": 1, "cards_left_points": 120},
    ],
}
# 11 x 25 + 14 x 20 + 10 x 10 = 655 melded; + 2 x 500 + 2 x 300 + 1500 + 100 - 5.
# 300 + 500 + 300 - 120.
DEAL_TOTALS = (3850, 980)


def test_the_card_counter_names_the_pack_s_cards_and_counts_jesters_at_25(client):
    make_house_rules(client, **PACK)
    game = start_game(client, "house-our-table")

    form = text(client.get(f"{game}/deals/1"))

    assert "Jesters 25 each" in form
    assert "Lords 20 each" in form
    assert "12 to 7 10 each" in form and "6 to 1 5 each" in form
    assert "Villains 5 each" in form


def test_a_deal_with_a_pack_is_scored_from_the_card_counter(client):
    make_house_rules(client, **PACK)
    game = start_game(client, "house-our-table")

    post_deal(client, game, 1, DEAL)

    assert totals(client, game) == DEAL_TOTALS


def test_the_rules_page_names_the_cards_of_the_pack(client):
    make_house_rules(client, **PACK)

    page = text(client.get("/rules/house-our-table"))

    assert "HANDnFOOT packs of 262 cards" in page
    assert "lords: 20 a pack, a rank to meld, worth 20" in page
    assert "jesters: 20 a pack, wild, worth 25" in page
    assert "ladies: 10 a pack, played as red threes" in page
    assert "Any rank from lord down to 1 can be melded" in page


def test_the_pack_s_numbered_card_points_are_shown_as_defaults_to_change(client):
    make_house_rules(client, **PACK)

    page = html(client.get("/rules/house-our-table"))

    note = page.split("Numbered cards 7 to 12 score like high cards", 1)[1].split("</p>", 1)[0]
    assert 'class="badge-default"' in note and "a default your table may change" in note


def test_the_blank_sheet_prices_the_pack_s_cards_by_their_names(client):
    make_house_rules(client, **PACK)

    sheet = text(client.get("/sheets/house-our-table.html"))
    printed = re.sub(r"\s+", " ", " ".join(pdf_text(client, "/sheets/house-our-table.pdf")))

    for words in ("Joker: 50", "Jester: 25", "Lord: 20", "12–7 (each): 10", "6–1 (each): 5"):
        assert words in sheet
        assert words in printed


def test_the_card_values_table_of_the_rules_page_names_the_pack_s_cards(client):
    make_house_rules(client, **PACK)

    page = text(client.get("/rules/house-our-table"))

    assert "Jester 25" in page and "Lord 20" in page and "12–7 (each) 10" in page


@pytest.mark.parametrize(
    "inline",
    [
        {"name": "Tool rules", "based_on": "pagat", "changes": {"deck": "tarot"}},
        {**get_variant("pagat").to_dict(), "id": "tool-rules", "name": "Tool", "deck": "tarot"},
    ],
    ids=["changes", "whole"],
)
def test_the_score_api_names_an_unknown_deck(client, inline):
    response = client.post("/api/v1/score", json={**API_DEAL, "variant": inline})

    assert response.status_code == 422, response.get_json()
    assert [e["field"] for e in response.get_json()["errors"]] == ["variant.deck"]


def test_the_score_api_scores_an_inline_variant_played_with_packs(client):
    inline = {
        "name": "Pack rules",
        "based_on": "pagat",
        "changes": {"deck": "handnfoot", "tables": [{"sides": 2, "players": 4, "decks": 1}]},
    }

    response = client.post("/api/v1/score", json={**API_DEAL, "variant": inline})

    assert response.status_code == 200, response.get_json()
    assert [side["total"] for side in response.get_json()["sides"]] == list(DEAL_TOTALS)


PACK_VARIANT = {
    "name": "Pack rules",
    "based_on": "pagat",
    "changes": {"deck": "handnfoot", "tables": [{"sides": 2, "players": 4, "decks": 1}]},
}


def test_the_meld_checker_counts_a_meld_of_12s_with_jesters(client):
    response = client.post(
        "/api/v1/check-meld",
        json={"variant": PACK_VARIANT, "deal": 1, "rank": "12", "naturals": 5, "twos": 2},
    )

    data = response.get_json()
    assert response.status_code == 200, data
    assert (data["legal"], data["points"], data["is_book"]) == (True, 5 * 10 + 2 * 25, True)


def test_the_meld_checker_names_the_ranks_of_the_pack(client):
    response = client.post(
        "/api/v1/check-meld", json={"variant": PACK_VARIANT, "deal": 1, "rank": "K", "naturals": 3}
    )

    assert response.status_code == 422
    assert response.get_json()["errors"][0]["message"] == (
        "rank must be one of LD, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, VL, "
        "or null for an all-wild meld."
    )


def test_the_meld_checker_page_refuses_a_rank_the_pack_lacks_and_reads_its_villains(client):
    make_house_rules(client, **PACK)
    meld = {"variant": "house-our-table", "deal": "1", "naturals": "7"}

    kings = client.get("/meld-checker", query_string={**meld, "rank": "K"})
    tens = text(client.get("/meld-checker", query_string={**meld, "rank": "10"}))
    villains = text(client.get("/meld-checker", query_string={**meld, "rank": "VL"}))
    threes = text(client.get("/meld-checker", query_string={**meld, "rank": "3"}))
    page = html(client.get("/meld-checker", query_string={"variant": "house-our-table"}))

    assert kings.status_code == 422
    assert "The cards of these rules have no rank K." in text(kings)
    assert "70" in tens and "Not a legal meld" not in tens
    assert "Not a legal meld" in villains
    assert "35" in threes and "Not a legal meld" not in threes
    assert '<option selected value="12">12</option>' in page
    assert '<option value="VL">Black threes</option>' in page
    assert ">Jesters</label>" in page


def test_the_meld_checker_api_reads_villains_and_the_numbered_3_apart(client):
    def check(rank):
        body = {"variant": PACK_VARIANT, "deal": 1, "rank": rank, "naturals": 3}
        return client.post("/api/v1/check-meld", json=body).get_json()

    assert (check("3")["legal"], check("3")["kind"], check("3")["points"]) == (True, "clean", 15)
    assert check("VL")["legal"] is False


def test_the_deal_form_allows_the_ten_ladies_of_a_pack(client):
    make_house_rules(client, **PACK)
    game = start_game(client, "house-our-table")

    form = html(client.get(f"{game}/deals/1"))

    red = re.search(r'<input[^>]*name="sides-0-red_threes_down"[^>]*>', form).group(0)
    assert 'max="10"' in red
