"""The score-line spec drives every page: a special book of sevens, red threes laid down by a
side that did not go out, and going out concealed appear where the rules have them, and only
there, with the totals they score."""

import re
from html import unescape

from house_helpers import html, make_house_rules, text
from test_house_games import post_deal, start_game, totals
from test_sheets import get_pdf, pdf_pages

from scorekeeper.rules.score_lines import LINES
from scorekeeper.store.summaries import LINE_GROUPS

SEVENS = {
    "book_bonus__special_rank": "7",
    "book_bonus__special": 1000,
    "red_three__down_not_out": 50,
    "going_out_concealed_bonus": 200,
    # A side goes out concealed only where it need not wait for a partner's foot.
    "going_out_needs_partner_in_foot": False,
}

DEAL = {
    "went_out": "0",
    "went_out_concealed": "y",
    "sides-0-meld_points": "1210",
    "sides-0-clean_books": "2",
    "sides-0-special_books": "1",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "600",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_down": "2",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "120",
}
# 1210 + 2 x 500 + 1000 (the book of sevens) + 2 x 300 + 1500 + 2 x 100 + 100 + 200 (concealed)
# - 15; 600 + 500 + 300 + 2 x 50 (laid down, not out) - 100 (held) - 120
DEAL_TOTALS = (5795, 1280)


def test_a_deal_with_a_book_of_sevens_scores_its_bonus_and_shows_every_new_line(client):
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")

    form = html(client.get(f"{game}/deals/1"))
    assert '<label for="sides-0-special_books">Clean books of sevens</label>' in form
    assert 'name="went_out_concealed"' in form
    assert "+100 points each; +50 for a side that did not go out" in form

    post_deal(client, game, 1, DEAL)

    assert totals(client, game) == DEAL_TOTALS
    board = html(client.get(game))
    assert re.search(
        r'<th scope="row">Clean books of sevens</th><td>'
        r'<span class="times">1 book:</span> 1000</td><td>0</td>',
        board,
    )
    assert re.search(
        r'<th scope="row">Went out concealed</th><td>200</td>'
        r"<td>0</td>",
        board,
    )
    assert re.search(
        r'<th scope="row">Red threes laid down</th><td>'
        r'<span class="times">2 laid down:</span> 200</td><td>'
        r'<span class="times">2 laid down:</span> 100</td>',
        board,
    )


def test_the_preview_totals_count_the_new_lines(client):
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")

    answer = client.post(f"{game}/deals/1/preview", data=DEAL).get_json()

    assert answer["totals"] == list(DEAL_TOTALS)
    without = {key: value for key, value in DEAL.items() if key != "went_out_concealed"}
    answer = client.post(f"{game}/deals/1/preview", data=without).get_json()
    assert answer["totals"] == [DEAL_TOTALS[0] - 200, DEAL_TOTALS[1]]


def test_sheets_and_the_rules_page_show_the_book_of_sevens(client):
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")
    post_deal(client, game, 1, DEAL)

    (page,) = pdf_pages(get_pdf(client, "/sheets/house-sevens.pdf"))
    blank = " ".join(page.split())  # a long label may take two lines of its cell
    assert blank.count("Clean books of sevens × 1,000") == 4
    assert blank.count("Went out concealed +200") == 4
    assert "Red threes +100 (+50) / -100" in blank
    filled = text(client.get(f"{game}/sheet.html"))
    assert "Clean books of sevens × 1,000 1 book: 1,000 0" in filled
    rules = text(client.get("/rules/house-sevens"))
    assert "Clean books of sevens 1000 each" in rules
    assert "+200 more for going out with no meld on the table before" in rules


def test_the_partnership_game_shows_none_of_the_new_lines(client):
    game = start_game(client, "pagat")

    pages = [
        html(client.get(f"{game}/deals/1")),
        text(client.get("/sheets/pagat.html")),
        pdf_pages(get_pdf(client, "/sheets/pagat.pdf"))[0],
        text(client.get("/rules/pagat")),
    ]

    for page in pages:
        assert "sevens" not in page
        assert "concealed" not in page.lower().replace("concealed book", "")
        assert "special_books" not in page
        assert "did not go out" not in page


def test_the_csv_export_names_every_entered_field_from_the_spec(client):
    make_house_rules(client, name="Sevens", **SEVENS)
    game = start_game(client, "house-sevens")
    post_deal(client, game, 1, DEAL)

    rows = client.get(f"{game}/export.csv").get_data(as_text=True).lstrip("\ufeff").splitlines()

    header = rows[0].split(",")
    us = dict(zip(header, rows[1].split(","), strict=True))
    assert us["Clean books of the special rank"] == "1"
    assert us["Went out concealed"] == "1"
    assert us["Red-three books"] == "0"
    assert us["Deal total"] == str(DEAL_TOTALS[0])


def test_the_statistics_group_every_score_line() -> None:
    grouped = [key for keys in LINE_GROUPS.values() for key in keys]

    assert sorted(grouped) == sorted(line.key for line in LINES)
    assert LINE_GROUPS["books"][-2:] == ("special_books", "red_three_books")
    assert LINE_GROUPS["going_out"] == ("going_out", "going_out_concealed")


def test_the_rules_page_explains_each_new_rule_in_words(client):
    make_house_rules(
        client,
        name="Explained",
        book_bonus__special_rank="7",
        book_bonus__special=1000,
        book_bonus__red_three=800,
        red_three__down_not_out=50,
        going_out_concealed_bonus=200,
        going_out_bonus__2=200,
    )

    page = " ".join(unescape(text(client.get("/rules/house-explained"))).split())

    assert (
        "Book of sevens: seven or more sevens and never a wild card; a meld of sevens takes no "
        "two and no joker. Bonus: 1000 instead of the clean book's." in page
    )
    assert (
        "Red-three book: every seven red threes your side lays down make one book, worth 800"
        in page
    )
    assert "A side that did not go out scores +50 for each red three it laid down" in page
    assert "everything laid down in the turn you go out, adds +200." in page
    assert "Deal Going-out bonus 1 +100 2 +200 3 +100 4 +100" in page


def test_the_rules_page_of_the_partnership_game_names_none_of_the_new_rules(client):
    page = " ".join(unescape(text(client.get("/rules/pagat"))).split())

    assert "Book of sevens" not in page and "Red-three book" not in page
    assert "did not go out scores" not in page and "Going out concealed" not in page
