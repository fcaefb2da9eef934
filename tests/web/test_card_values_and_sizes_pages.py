"""Card values and packet sizes of published rule sets through the pages and the API: the
house-rules editor sets nines, eights and black threes apart and the hand and foot deal by
deal, the deal form counts cards at those values and says each deal's exact cut, the sheet
prints them, and the score API takes them inline."""

from html import unescape

from flask.testing import FlaskClient
from house_helpers import form_values, html, make_house_rules, text
from test_house_games import post_deal, start_game, totals

ROTH = {
    "card_points__nine": 5,
    "card_points__eight": 5,
    "card_points__black_three": 0,
}
"""The Roth family's values: fours to nines 5, tens to kings 10, a black three nothing."""
GROWING = {
    **{f"hand_size_by_deal__{deal}": 9 + 2 * deal for deal in range(1, 5)},
    **{f"foot_size_by_deal__{deal}": 9 + 2 * deal for deal in range(1, 5)},
}
"""A hand and a foot of 11, 13, 15 and 17 cards."""


def test_the_editor_saves_card_values_and_sizes_and_the_rules_page_shows_them(
    client: FlaskClient,
) -> None:
    slug = make_house_rules(client, base="simpson", name="Roth", **ROTH, **GROWING)

    exported = client.get(f"/house/{slug}/export").get_json()
    rules = text(client.get(f"/rules/house-{slug}"))

    assert exported["changes"] == {
        "card_points.nine": 5,
        "card_points.eight": 5,
        "card_points.black_three": 0,
        "hand_size_by_deal": [11, 13, 15, 17],
        "foot_size_by_deal": [11, 13, 15, 17],
    }
    assert "9 (each) 5" in rules and "8 (each) 5" in rules
    assert "K–10 (each) 10" in rules
    assert "exactly 22 / 26 / 30 / 34 cards" in rules
    assert "two packets of 11 / 13 / 15 / 17 and 11 / 13 / 15 / 17 cards" in rules


def test_the_editor_refuses_card_values_and_sizes_naming_the_field(client: FlaskClient) -> None:
    page = html(client.get("/house/new?base=pagat"))
    assert 'name="card_points__nine"' in page and 'name="hand_size_by_deal__8"' in page

    values = form_values(page) | {
        "name": "Odd",
        "card_points__nine": "3",
        "card_points__black_three": "-5",
        "hand_size_by_deal__2": "31",
    }
    response = client.post("/house/new", data=values)
    said = text(response)

    assert response.status_code == 422
    assert "Points of a nine must be a multiple of 5, as every score is (entered 3)." in said
    assert "Points of a black three left in hand or foot cannot be below 0 (entered -5)." in said
    assert (
        "Cards in the hand, deal by deal must be a list of at most 12 whole numbers from 1 to "
        "30, one for each deal, or an empty list." in said
    )


def test_the_deal_form_counts_nines_and_eights_apart_and_scores_the_deal(
    client: FlaskClient,
) -> None:
    slug = make_house_rules(client, base="simpson", name="Roth", **ROTH)
    game = start_game(client, f"house-{slug}", table="2x2")

    form = text(client.get(f"{game}/deals/1"))
    post_deal(
        client,
        game,
        1,
        {
            "went_out": "0",
            "sides-0-meld_points": "",
            "sides-0-meld_high": "7",
            "sides-0-meld_nine": "7",
            "sides-0-meld_low": "1",
            "sides-0-clean_books": "1",
            "sides-0-dirty_books": "1",
            "sides-1-meld_points": "90",
            "sides-1-clean_books": "0",
            "sides-1-cards_left_points": "",
            "sides-1-left_black_three": "2",
            "sides-1-left_eight": "1",
        },
    )

    assert "Nines 5 each" in form and "Eights 5 each" in form
    assert "K to 10 10 each" in form
    assert "Black threes 0 each" in form
    # 7 x 10 + 7 x 5 + 5 = 110 melded, 300 + 100 books, 100 for going out; 2 x 0 + 5 left
    assert totals(client, game) == (110 + 300 + 100 + 100, 90 - 5)


def test_the_deal_form_says_the_exact_cut_of_each_deal(client: FlaskClient) -> None:
    slug = make_house_rules(client, base="simpson", name="Growing", **GROWING)
    game = start_game(client, f"house-{slug}", table="2x2")

    assert "In this deal the exact cut is 22 cards." in text(client.get(f"{game}/deals/1"))
    assert "In this deal the exact cut is 30 cards." in text(client.get(f"{game}/deals/3"))
    plain = start_game(client, "simpson", table="2x2")
    assert "exact cut is" not in text(client.get(f"{plain}/deals/1"))


def test_each_deal_labels_the_exact_cut_with_its_own_number(client: FlaskClient) -> None:
    slug = make_house_rules(client, base="simpson", name="Growing", **GROWING)
    game = start_game(client, f"house-{slug}", table="2x2")

    first, third = html(client.get(f"{game}/deals/1")), html(client.get(f"{game}/deals/3"))
    sheet = text(client.get(f"{game}/sheet.html"))
    rules = text(client.get(f"/rules/house-{slug}"))
    exported = client.get(f"{game}/export.csv").get_data(as_text=True)

    assert '<label for="sides-0-exact_22">Players who cut exactly 22</label>' in first
    assert '<label for="sides-0-exact_22">Players who cut exactly 30</label>' in third
    assert "exactly 22<" not in third
    assert "Cut exactly 22 +100 each" in sheet and "Cut exactly 34 +100 each" in sheet
    assert (
        "Exact cut +100 for each player who cuts exactly the cards of the deal&#39;s hand and "
        "foot (22 / 26 / 30 / 34 by deal)." in sheet
    )
    assert "cuts exactly 22 cards" not in sheet
    assert "Exact cut" in rules and "Cut exactly 22" not in rules
    assert "Players with an exact cut" in exported.splitlines()[0]


def test_a_sheet_names_the_one_exact_cut_where_every_deal_cuts_the_same(
    client: FlaskClient,
) -> None:
    game = start_game(client, "simpson", table="2x2")

    sheet = text(client.get(f"{game}/sheet.html"))

    assert "Exact cut +100 for each player who cuts exactly 22 cards." in sheet


def test_the_rules_page_says_one_stock_pile_where_the_cards_are_cut_from_one(
    client: FlaskClient,
) -> None:
    one = make_house_rules(client, base="simpson", name="One pile", stock_piles=1)
    two = make_house_rules(client, base="simpson", name="Two piles")

    single = unescape(text(client.get(f"/rules/house-{one}")))
    double = unescape(text(client.get(f"/rules/house-{two}")))

    assert "shuffled together into a single stock pile. Each player lifts roughly 22 cards" in (
        single
    )
    assert "1 stock piles" not in single
    assert "the discard pile starts beside it." in single and "between the piles" not in single
    assert "spread into 2 stock piles. Each player lifts roughly 22 cards" in double


def test_the_game_sheet_prints_the_card_values(client: FlaskClient) -> None:
    slug = make_house_rules(client, base="simpson", name="Roth", **ROTH)
    game = start_game(client, f"house-{slug}", table="2x2")

    sheet = text(client.get(f"{game}/sheet.html"))

    assert "K–10: 10 · 9: 5 · 8: 5 · 7–4: 5 · black 3: 0" in sheet


def score(client: FlaskClient, changes: dict[str, object], *sides: dict[str, object]):
    variant = {"name": "Roth", "based_on": "simpson", "changes": changes}
    body = {"variant": variant, "deal": 3, "players": 2, "sides": list(sides)}
    return client.post("/api/v1/score", json=body)


ROTH_CHANGES = {
    "card_points.nine": 5,
    "card_points.eight": 5,
    "card_points.black_three": 0,
    "hand_size_by_deal": [11, 13, 15, 17],
    "foot_size_by_deal": [11, 13, 15, 17],
}
OUT = {"meld_points": 1290, "clean_books": 1, "dirty_books": 1, "went_out": True, "exact_22": 1}


def test_the_score_api_takes_the_new_values_inline(client: FlaskClient) -> None:
    response = score(client, ROTH_CHANGES, OUT, {"cards_left_points": 5})

    assert response.status_code == 200, response.get_json()
    out, other = response.get_json()["sides"]
    # melded, a clean and a dirty book, going out, and an exact cut of deal 3 (30 cards)
    assert out["total"] == 1290 + 300 + 100 + 100 + 100 == 1890
    assert out["breakdown"]["exact_22"] == 100
    assert other["total"] == -5


def test_the_score_api_refuses_more_points_than_the_decks_hold_under_the_new_values(
    client: FlaskClient,
) -> None:
    response = score(client, ROTH_CHANGES, OUT, {"cards_left_points": 335})

    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert error == {
        "side": None,
        "field": "meld_points",
        "message": "All sides together have 1625 card points melded and left over, more than "
        "all 3 decks hold (1620).",
    }


def test_the_score_api_names_a_refused_value(client: FlaskClient) -> None:
    response = score(client, {"card_points.eight": 0}, OUT, {"cards_left_points": 5})

    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": None,
            "field": "variant.card_points.eight",
            "message": "Points of an eight must be worth at least 5: every card counts "
            "(entered 0).",
        }
    ]


def test_the_comparison_sets_the_new_values_beside_the_base(client: FlaskClient) -> None:
    slug = make_house_rules(client, base="simpson", name="Roth", **ROTH, **GROWING)

    compared = text(client.get(f"/rules/compare?v=simpson&v=house-{slug}"))

    assert "Points of a nine as a king 5" in compared
    assert "Points of an eight as a king 5" in compared
    assert "Points of a black three left in hand or foot −5 0" in compared
    assert "Cards in the hand, deal by deal — 11 / 13 / 15 / 17" in compared


def test_the_openapi_document_describes_the_new_values(client: FlaskClient) -> None:
    changes = client.get("/api/v1/openapi.json").get_json()
    found = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("card_points.nine", "card_points.black_three", "hand_size_by_deal"):
                    found.setdefault(key, value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(changes)

    assert found["card_points.nine"]["oneOf"] == [
        {"type": "integer", "minimum": 5, "maximum": 100000, "multipleOf": 5},
        {"type": "null"},
    ]
    assert found["card_points.black_three"]["minimum"] == 0
    assert found["hand_size_by_deal"]["items"] == {"type": "integer", "minimum": 1, "maximum": 30}
    assert found["hand_size_by_deal"]["maxItems"] == 12
