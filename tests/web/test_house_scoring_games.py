"""A game under house rules with special books, red-three books, red threes worth less to a
side that did not go out and a bonus for going out concealed: entered, scored, printed, charted
and played by the demo bots without a page failing."""

from house_helpers import make_house_rules, text
from test_house_games import post_deal, start_game, totals

SEVENS = {
    "book_bonus__special_rank": "7",
    "book_bonus__special": 1000,
    "book_bonus__red_three": 1000,
    "red_three__down_not_out": 50,
    "going_out_concealed_bonus": 100,
}
DEAL = {
    "went_out": "0",
    "sides-0-meld_points": "1300",
    "sides-0-clean_books": "1",
    "sides-0-special_books": "1",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "600",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_three_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-cards_left_points": "120",
}
# 1300 + 500 + 1000 + 600 + 1500 + 2 x 100 + 100 - 15, and 600 + 500 + 300 + 1000 + 50 - 120
DEAL_TOTALS = (5185, 2330)


def test_a_game_with_special_and_red_three_books_is_entered_scored_and_shown(client):
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")

    form = text(client.get(f"{game}/deals/1"))
    post_deal(client, game, 1, DEAL)

    assert "Clean books of sevens" in form and "Red-three books" in form
    assert totals(client, game) == DEAL_TOTALS
    board = text(client.get(game))
    assert "Clean books of sevens" in board and "Red-three books" in board
    assert client.get(f"{game}/sheet.html").status_code == 200
    assert client.get(f"{game}/sheet.pdf").status_code == 200
    assert client.get("/sheets/house-sevens.html").status_code == 200
    assert client.get("/rules/house-sevens").status_code == 200


def test_too_many_special_books_are_refused_on_the_deal_form(client):
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")

    response = client.post(f"{game}/deals/1", data={**DEAL, "sides-1-special_books": "2"})

    assert response.status_code == 422
    assert (
        "Together, the sides have 3 special books (Us 1, Them 2), but 5 decks hold 20 cards "
        "of rank 7: at most 2 books." in text(response)
    )


def test_the_demo_bots_play_a_game_of_the_house_rules(client):
    make_house_rules(client, name="Sevens", **SEVENS)

    response = client.post("/demo", data={"variant": "house-sevens", "seed": "3"})

    assert response.status_code == 303
    game = response.headers["Location"]
    assert "Sevens" in text(client.get(game))
    assert len(totals(client, game)) == 2
