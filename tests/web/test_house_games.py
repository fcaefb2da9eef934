"""House rules in games, sheets and the rules pages, exactly like a built-in variant.

The games are reached through the addresses the app hands out (redirects and links), so these
tests follow the games wherever their pages live.
"""

import re

from flask.testing import FlaskClient
from house_helpers import edit_house_rules, html, make_house_rules, text

# Our table: partnership rules with a wild book worth 2000, going out worth 200, three clean
# books to go out in every deal, and each red three at -300 whether laid down or held.
OUR_TABLE = {
    "book_bonus__wild": 2000,
    "going_out_bonus": 200,
    "red_three__down": -300,
    "red_three__held": -300,
    **{f"going_out__{deal}__clean": 3 for deal in range(1, 5)},
}

DEAL = {
    "went_out": "0",
    "sides-0-meld_points": "1210",
    "sides-0-clean_books": "3",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "600",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "120",
}
# 1210 + 3 x 500 + 2 x 300 + 2000 - 2 x 300 + 200 - 15, and 600 + 500 + 300 - 2 x 300 - 120
DEAL_TOTALS = (4895, 680)


def start_game(client: FlaskClient, variant: str, table: str = "2x4") -> str:
    """Start a game; the address of the game (its scoreboard)."""
    response = client.post(
        "/games/new",
        data={
            "variant": variant,
            "table": table,
            "name": "",
            "start": "1",
            "side_names-0": "Us",
            "side_names-1": "Them",
        },
    )
    assert response.status_code == 303, text(response)
    location = response.headers["Location"]
    assert location.endswith("/deals/1")
    return location.removesuffix("/deals/1")


def post_deal(client: FlaskClient, game: str, number: int, data: dict[str, str]) -> None:
    response = client.post(f"{game}/deals/{number}", data=data)
    assert response.status_code == 303, text(response)


def totals(client: FlaskClient, game: str) -> tuple[int, ...]:
    page = html(client.get(game))
    foot = page.split('<th scope="row">Total</th>', 1)[1].split("</tr>", 1)[0]
    return tuple(int(n) for n in re.findall(r'<td class="num[^"]*">(-?\d+)</td>', foot))


def test_the_new_game_form_offers_house_rules_beside_the_built_in_variants(client):
    make_house_rules(client, name="Our table", summary="Wild books at 2000.", **OUR_TABLE)

    page = html(client.get("/games/new"))

    assert 'value="pagat"' in page
    assert 'value="house-our-table" data-tables="2x4 2x6 2x2 3x3 4x4 5x5 6x6"' in page
    assert "Wild books at 2000." in page


def test_a_game_of_house_rules_is_scored_by_them(client):
    make_house_rules(client, **OUR_TABLE)
    game = start_game(client, "house-our-table")

    post_deal(client, game, 1, DEAL)

    assert totals(client, game) == DEAL_TOTALS
    assert "Our table" in text(client.get(game))


def test_the_deal_form_follows_the_house_rules(client):
    make_house_rules(
        client,
        base="gamerules",
        name="Black threes",
        book_bonus__wild="",
        book_bonus__black_three=250,
        **{f"going_out__{deal}__wild": 0 for deal in range(1, 5)},
    )
    game = start_game(client, "house-black-threes")

    form = html(client.get(f"{game}/deals/1"))

    assert 'name="sides-0-black_three_books"' in form
    assert 'name="sides-0-wild_books"' not in form


def test_the_going_out_books_of_the_house_rules_are_checked(client):
    make_house_rules(client, **OUR_TABLE)
    game = start_game(client, "house-our-table")

    response = client.post(f"{game}/deals/1", data={**DEAL, "sides-0-clean_books": "2"})

    assert response.status_code == 422
    assert "needs at least 3" in text(response)


def test_a_finished_game_keeps_its_score_after_its_variant_is_edited(client):
    make_house_rules(client, **OUR_TABLE)
    game = start_game(client, "house-our-table")
    for number in range(1, 5):
        post_deal(client, game, number, DEAL)
    finished = totals(client, game)
    assert finished == (4 * 4895, 4 * 680)
    sheet_before = text(client.get(f"{game}/sheet.html"))
    assert "× 2,000" in sheet_before

    response = edit_house_rules(
        client,
        "our-table",
        book_bonus__wild=3000,
        going_out_bonus=500,
        red_three__down=100,
        red_three__held=-100,
    )
    assert response.status_code == 303

    assert totals(client, game) == finished
    assert text(client.get(f"{game}/sheet.html")) == sheet_before
    # a new game plays the edited rules: 1000 more for the wild book, 300 more for going
    # out, and the red threes at +100 / -100
    fresh = start_game(client, "house-our-table")
    post_deal(client, fresh, 1, DEAL)
    assert totals(client, fresh) == (4895 + 1000 + 300 + 800, 680 + 400 + 200)

    # and once the rules are deleted, the old game still opens with its score
    assert client.post("/house/our-table/delete").status_code == 303
    assert totals(client, game) == finished


def test_a_blank_sheet_of_house_rules_shows_the_house_values(client):
    make_house_rules(client, **OUR_TABLE)

    sheet = text(client.get("/sheets/house-our-table.html"))

    assert "Our table" in sheet
    assert "Wild books × 2,000" in sheet
    assert "Going out +200" in sheet
    assert "Red threes -300" in sheet
    assert client.get("/sheets/house-our-table.pdf").status_code == 200


def test_the_rules_pages_show_a_column_for_the_house_rules(client):
    make_house_rules(client, **OUR_TABLE)

    compare = text(client.get("/rules/compare"))
    page = client.get("/rules/house-our-table")

    assert "Our table" in compare
    assert "2000" in compare.replace(",", "").replace("\u202f", "").replace("\xa0", "")
    assert page.status_code == 200


def test_the_meld_checker_and_the_demo_games_take_house_rules(client):
    make_house_rules(
        client,
        name="Loose wilds",
        wild_limit__per_wild=1,
        wild_limit__extra=1,
        book_bonus__wild=2000,
    )
    # four kings and three twos: too many wilds in the partnership game, not in these rules
    meld = {"deal": "2", "rank": "K", "naturals": "4", "twos": "3", "jokers": "0"}

    assert "Not a legal meld" in text(
        client.get("/meld-checker", query_string={**meld, "variant": "pagat"})
    )
    house = text(client.get("/meld-checker", query_string={**meld, "variant": "house-loose-wilds"}))
    assert "Legal meld" in house and "Not a legal meld" not in house
    api = client.post(
        "/api/v1/check-meld",
        json={"variant": "house-loose-wilds", "deal": 2, "rank": "K", "naturals": 4, "twos": 3},
    )
    assert api.status_code == 200 and api.get_json()["legal"] is True

    response = client.post("/demo", data={"variant": "house-loose-wilds", "seed": "5"})
    assert response.status_code == 303
    game = response.headers["Location"]
    assert "Loose wilds" in text(client.get(game))
    assert len(totals(client, game)) == 2
