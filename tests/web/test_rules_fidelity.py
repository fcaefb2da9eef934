"""The rules' table sizes, red threes and concealed opening as the pages, forms and sheets show
them."""

from __future__ import annotations

import io
import re

from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.sheets import views as sheet_views


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def section(html: str, section_id: str) -> str:
    match = re.search(rf'<section[^>]* id="{section_id}".*?</section>', html, re.S)
    assert match, section_id
    return text(match.group())


def new_game(client: FlaskClient, variant: str, table: str) -> str:
    data = {"variant": variant, "table": table, "start": "1"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def pdf_text(client: FlaskClient, url: str) -> list[str]:
    sheet_views.blank_pdfs.clear()
    response = client.get(url)
    assert response.status_code == 200, response.data[:300]
    return [p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages]


# --- table sizes ----------------------------------------------------------------------------


def test_the_new_game_form_offers_twelve_players_for_simpson_and_six_alone_for_pagat(
    client: FlaskClient,
) -> None:
    html = page(client, "/games/new")
    assert '<option value="12x12"' in html and ">12 players</option>" in html
    simpson = re.search(r'value="simpson" data-tables="([^"]+)"', html).group(1).split()
    assert simpson == [f"{n}x{n}" for n in range(2, 13)]
    pagat = re.search(r'value="pagat" data-tables="([^"]+)"', html).group(1).split()
    assert pagat == ["2x4", "2x6", "2x2", "3x3", "4x4", "5x5", "6x6"]


def test_a_twelve_player_simpson_game_has_twelve_sides_and_no_red_threes_laid_down(
    client: FlaskClient,
) -> None:
    deal_url = new_game(client, "simpson", "12x12")
    html = page(client, deal_url)
    assert 'name="sides-11-meld_points"' in html
    assert 'name="sides-12-meld_points"' not in html
    assert 'name="sides-0-red_threes_held"' in html
    assert "red_threes_down" not in html
    assert "Red threes laid down" not in html


def test_six_players_each_for_themselves_start_a_pagat_game(client: FlaskClient) -> None:
    html = page(client, new_game(client, "pagat", "6x6"))
    assert 'name="sides-5-red_threes_down"' in html
    assert 'name="sides-6-meld_points"' not in html


def test_the_rules_pages_list_the_tables_from_the_sources(client: FlaskClient) -> None:
    for variant_id in ("pagat", "saskatchewan"):
        setup = section(page(client, f"/rules/{variant_id}"), "setup")
        assert (
            "4 players in 2 teams of 2, 5 decks 6 players in 2 teams of 3, 7 decks 2 to 6 "
            "players, each for themselves, with 1 more deck than players"
        ) in setup
    for variant_id in ("simpson", "brouillette-high"):
        setup = section(page(client, f"/rules/{variant_id}"), "setup")
        assert "2 to 12 players, each for themselves, with 1 more deck than players" in setup


def test_a_twelve_side_simpson_sheet_is_one_page(client: FlaskClient) -> None:
    (sheet,) = pdf_text(client, "/sheets/simpson.pdf?sides=12")
    assert re.search(r"Sides\s+1 2 3 4 5 6 7 8 9 10 11 12", sheet)


# --- red threes in the simpson family ---------------------------------------------------------


def test_simpson_rules_pages_say_red_threes_only_cost(client: FlaskClient) -> None:
    for variant_id in ("simpson", "brouillette-low", "brouillette-partners-high"):
        html = page(client, f"/rules/{variant_id}")
        red = section(html, "red-threes")
        assert "A red three is never melded and never laid down: it brings your side" in red
        assert "picked up included, costs −500." in red
        threes = section(html, "threes")
        assert "bonus cards" not in threes
        assert "Red threes only ever cost points" in threes
        assert "laid face up" not in section(html, "turn")


def test_pagat_rules_page_still_lays_red_threes_down(client: FlaskClient) -> None:
    html = page(client, "/rules/pagat")
    assert "Red threes are bonus cards laid out beside your melds" in section(html, "threes")


def test_the_comparison_says_red_threes_are_never_laid_down(client: FlaskClient) -> None:
    chosen = "v=simpson&v=brouillette-low&v=brouillette-partners-high"
    html = text(page(client, f"/rules/compare?{chosen}"))
    row = re.search(
        r"Each red three laid down (.*?) Each red three laid down by a side that did not", html
    ).group(1)
    assert row.count("never laid down") == 3


def test_a_simpson_sheet_has_only_the_red_threes_still_held(client: FlaskClient) -> None:
    (sheet,) = pdf_text(client, "/sheets/simpson.pdf?sides=2")
    assert sheet.count("Red threes still held") == 4
    assert "Never laid down: a red three is got rid of by discarding it" in sheet


# --- saskatchewan's deal 4 ------------------------------------------------------------------


def test_the_saskatchewan_page_says_the_source_reads_both_ways(client: FlaskClient) -> None:
    first_meld = section(page(client, "/rules/saskatchewan"), "first-meld")
    assert "Here the concealed book takes the place of the minimum" in first_meld
    assert "The source can also be read as asking for both" in first_meld


def test_the_saskatchewan_sheet_asks_for_a_concealed_book_instead_of_150(
    client: FlaskClient,
) -> None:
    (sheet,) = pdf_text(client, "/sheets/saskatchewan.pdf?sides=2")
    assert "a concealed book instead of 150" in re.sub(r"\s+", " ", sheet)


# --- the first card of the discard pile ------------------------------------------------------


def test_the_comparison_words_the_first_discard_rows(client: FlaskClient) -> None:
    html = text(page(client, "/rules/compare?v=pagat&v=gamerules&v=simpson"))
    assert "frozenset" not in html and "first discard" not in html
    assert "A card from the stock starts the discard pile yes yes no" in html
    assert (
        "Buried if turned up to start the pile a red three or a wild card a three or a joker —"
    ) in html


def test_the_gamerules_page_buries_any_three_or_a_joker_turned_up_first(
    client: FlaskClient,
) -> None:
    setup = section(page(client, "/rules/gamerules"), "setup")
    assert "if that card is a three or a joker, it is buried in the stock" in setup
    differences = section(page(client, "/rules/gamerules"), "differences")
    assert "Buried if turned up to start the pile a three or a joker" in differences
    client.set_cookie("lang", "fr")
    setup = section(page(client, "/rules/pagat"), "setup")
    assert "si c&#39;est un trois rouge ou un passe-partout, on l&#39;enfouit" in setup


def test_saskatchewan_deal_four_asks_for_a_concealed_book_not_150_points(
    client: FlaskClient,
) -> None:
    deal_url = new_game(client, "saskatchewan", "2x4")
    facts = section(page(client, deal_url.replace("/deals/1", "/deals/4")), "deal-facts")
    assert "This deal opens with a concealed book." in facts
    assert "150" not in facts
    facts = section(page(client, deal_url.replace("/deals/1", "/deals/3")), "deal-facts")
    assert "First meld: at least 120 points in one go." in facts
    assert "concealed" not in facts


def test_solo_games_speak_of_no_team_in_italian_and_japanese_threes(client: FlaskClient) -> None:
    client.set_cookie("lang", "it")
    html = page(client, "/rules/simpson")
    assert "a fine smazzata conta 5 contro chi lo tiene." in section(html, "threes")
    assert "non ti porta nulla." in section(html, "red-threes")
    assert "squadra" not in section(html, "threes") + section(html, "red-threes")
    client.set_cookie("lang", "ja")
    threes = section(page(client, "/rules/brouillette-high"), "threes")
    assert "1枚につき持ち主(パートナー戦ではそのチーム)の5点のマイナスです。" in threes


def test_the_comparison_prices_no_black_three_book_where_there_is_none(
    client: FlaskClient,
) -> None:
    html = text(page(client, "/rules/compare?v=pagat&v=brouillette-low"))
    assert "Points of a black three in a black-three book — −5 " in html
