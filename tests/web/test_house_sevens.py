"""House rules with a book of sevens, where the table reads and types its numbers: the quick
reference has the book, the deal form says how clean books count it, and the rank list offers
only the chosen deck's ranks."""

import re

from flask.testing import FlaskClient
from handbook_helpers import page, section
from handbook_helpers import text as page_text
from house_helpers import html, make_house_rules, text
from test_house_games import start_game
from test_house_scoring_games import SEVENS


def test_the_quick_reference_has_the_book_of_sevens_and_the_red_three_book(
    client: FlaskClient,
) -> None:
    slug = make_house_rules(client, name="Sevens", **SEVENS)

    quick = page_text(section(page(client, f"/rules/house-{slug}"), "quick-reference"))

    assert "Clean book of sevens 1000" in quick
    assert "Red-three book 1000" in quick


def test_the_deal_form_says_clean_books_leave_the_books_of_sevens_out(
    client: FlaskClient,
) -> None:
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")

    form = text(client.get(f"{game}/deals/1"))

    assert (
        "Books of sevens are not counted here but on their own line; for going out, they "
        "count as clean books." in form
    )
    assert "Books of sevens count as clean books." in form


def test_a_plain_variant_says_nothing_of_books_of_sevens(client: FlaskClient) -> None:
    game = start_game(client, "pagat")

    assert "Books of" not in text(client.get(f"{game}/deals/1"))


def _rank_options(page_html: str) -> list[str]:
    select = re.search(
        r'<select id="book_bonus__special_rank"[^>]*>(.*?)</select>', page_html, re.S
    ).group(1)
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_rank_list_offers_only_the_ranks_of_the_chosen_deck(client: FlaskClient) -> None:
    standard = _rank_options(html(client.get("/house/new?base=pagat")))
    slug = make_house_rules(client, name="Pack", deck="handnfoot", decks__0=1)
    pack = _rank_options(html(client.get(f"/house/{slug}/edit")))

    assert standard == ["none", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
    assert {"LD", "12", "11", "1"} <= set(pack)
    assert not {"K", "Q", "J"} & set(pack)
