"""Ready-made rules on the pages: listed on the house-rules page with their sources, made into
house rules a table can change, offered by the new-game form and scored there."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape

import pytest
from flask import Flask
from house_helpers import form_values, html, text
from test_hostile_text import pdf_text

from scorekeeper.extensions import db
from scorekeeper.rules import gallery
from scorekeeper.rules.gallery import (
    BERTA,
    CHRISTOPHERSANZ,
    DEARIE,
    GALLERY,
    ROTH,
    TANGLEWOOD_VEGAS,
    TONATIHUAI,
)
from scorekeeper.store.games import Game
from scorekeeper.store.house import HouseVariant


def stored(app: Flask) -> list[HouseVariant]:
    with app.app_context():
        return list(db.session.scalars(db.select(HouseVariant).order_by(HouseVariant.id)))


def test_the_house_rules_page_lists_each_ready_made_rule_set_with_its_source(client):
    page = html(client.get("/house/"))

    assert "Ready-made rules" in page
    for entry in GALLERY:
        assert f'<button type="submit" name="published" value="{entry.slug}"' in page
        assert f'<a href="{entry.address}" rel="noopener noreferrer">{entry.address}</a>' in page
    words = text(client.get("/house/"))
    assert "Source: tonatihuai2026, Hand and Foot Score Calculator" in words
    assert "Source: Michelle Berta, Hand and Foot Score Keeper" in words
    assert "a red three laid down earns 100, or 50 for a side that did not go out" in words


def test_use_these_rules_opens_the_new_rules_form_filled_from_them(client):
    page = html(client.get("/house/new?published=canasta-scorer-tonatihuai2026"))

    values = form_values(page)
    assert values["name"] == "Hand and Foot Score Calculator rules"
    assert values["red_three__down_not_out"] == "50"
    assert values["red_three__held"] == "-500"
    assert values["book_bonus__wild"] == ""
    assert values["going_out__3__clean"] == "0"
    assert "Based on Partnership (pagat.com)." in text(client.get("/house/new?base=pagat"))


@pytest.mark.parametrize("entry", GALLERY, ids=lambda entry: entry.slug)
def test_saving_the_form_makes_house_rules_with_the_entry_parameters(app, client, entry):
    address = f"/house/new?published={entry.slug}"
    values = form_values(html(client.get(address)))

    response = client.post(address, data=values)

    assert response.status_code == 303, text(response)
    [row] = stored(app)
    assert response.headers["Location"] == f"/house/{row.slug}"
    assert (row.name, row.based_on, row.changes) == (entry.name, "pagat", dict(entry.changes))
    assert client.get(f"/house/{row.slug}/edit").status_code == 200


def test_the_house_rules_made_from_an_entry_change_like_any_other(app, client):
    address = "/house/new?published=score-keeper-michelle-berta"
    values = form_values(html(client.get(address)))
    slug = client.post(address, data=values).headers["Location"].removeprefix("/house/")
    values = form_values(html(client.get(f"/house/{slug}/edit")))
    values["first_meld__4"] = "150"

    response = client.post(f"/house/{slug}/edit", data=values)

    assert response.status_code == 303, text(response)
    [row] = stored(app)
    assert row.changes == {"first_meld.2": 50, "first_meld.3": 50, "wild_limit.extra": 1}


BERTA_SOURCE = {
    "author": "Michelle Berta",
    "title": BERTA.title,
    "address": BERTA.address,
}


def test_house_rules_made_from_an_entry_name_their_source_through_edits_and_files(app, client):
    address = "/house/new?published=score-keeper-michelle-berta"
    form = text(client.get(address))
    values = form_values(html(client.get(address)))
    slug = client.post(address, data=values).headers["Location"].removeprefix("/house/")
    values = form_values(html(client.get(f"/house/{slug}/edit")))
    values["first_meld__4"] = "200"
    assert client.post(f"/house/{slug}/edit", data=values).status_code == 303

    shown = html(client.get(f"/house/{slug}"))
    rules = text(client.get(f"/rules/house-{slug}"))
    exported = client.get(f"/house/{slug}/export").get_json()
    [row] = stored(app)

    said = f"Made from {BERTA.title}, by Michelle Berta"
    assert said in form
    assert said in text(client.get(f"/house/{slug}/edit"))
    assert said in shown
    assert f'<a href="{BERTA.address}" rel="noopener noreferrer">{BERTA.address}</a>' in shown
    assert (
        f"Source: House rules made from {BERTA.title}, by Michelle Berta ({BERTA.address}); "
        "based on Partnership (pagat.com) (pagat)." in rules
    )
    assert row.source == BERTA_SOURCE and row.version == 2
    assert exported["source"] == BERTA_SOURCE
    assert exported["changes"]["first_meld.4"] == 200

    with app.app_context():
        db.session.delete(db.session.get(HouseVariant, row.id))
        db.session.commit()
    imported = client.post("/house/import", data={"text": json.dumps(exported)})
    assert imported.status_code == 303, text(imported)
    [again] = stored(app)
    assert again.source == BERTA_SOURCE
    assert said in text(client.get(imported.headers["Location"]))


def test_rules_a_table_made_itself_name_no_source(app, client):
    values = form_values(html(client.get("/house/new?base=pagat")))
    slug = client.post("/house/new?base=pagat", data=values).headers["Location"]

    [row] = stored(app)
    assert row.source is None
    assert "Made from" not in text(client.get(slug))
    assert "source" not in client.get(f"{slug}/export").get_json()


def test_a_rules_file_source_is_shown_as_text_and_refused_when_malformed(app, client):
    hostile = {
        "author": "<i>Someone</i>",
        "title": "A & B",
        "address": 'javascript:alert("x")',
    }
    rules = {"name": "Odd", "based_on": "pagat", "changes": {}, "source": hostile}
    imported = client.post("/house/import", data={"text": json.dumps(rules)})
    page = html(client.get(imported.headers["Location"]))
    rules_page = html(client.get("/rules/house-odd"))

    assert "<i>Someone" not in page and "<i>Someone" not in rules_page
    assert "Made from A &amp; B, by &lt;i&gt;Someone&lt;/i&gt;" in page
    assert "javascript:" not in page.split('href="')[-1][:12] and 'href="javascript' not in page
    assert "&lt;i&gt;Someone&lt;/i&gt;" in rules_page

    bad = {**rules, "name": "Bad", "source": {"author": 5, "title": "T", "page": "x"}}
    refused = client.post("/house/import", data={"text": json.dumps(bad)})
    said = text(refused)
    assert refused.status_code == 422
    assert 'Unknown field "page".' in unescape(said)
    assert "source.author must be text." in said
    assert "source.address is required." in said
    assert [row.name for row in stored(app)] == ["Odd"]


# The tables an entry offers where its source names them (elsewhere pagat's).
OFFERED_TABLES = {
    CHRISTOPHERSANZ.slug: "2x4",
    DEARIE.slug: "2x4 2x2 3x3 3x6",
    ROTH.slug: "2x4 2x6",
    TANGLEWOOD_VEGAS.slug: "2x4 2x6",
}


def test_the_new_game_form_offers_the_ready_made_rules(client):
    page = html(client.get("/games/new"))

    assert 'value="pagat"' in page
    for entry in GALLERY:
        tables = OFFERED_TABLES.get(entry.slug, "2x4 2x6 2x2 3x3 4x4 5x5 6x6")
        assert f'value="{entry.key}" data-tables="{tables}"' in page
    assert "Michelle Berta&#39;s score keeper rules" in page


def start(client, variant: str) -> str:
    response = client.post(
        "/games/new",
        data={
            "variant": variant,
            "table": "2x4",
            "name": "",
            "start": "1",
            "side_names-0": "Us",
            "side_names-1": "Them",
        },
    )
    assert response.status_code == 303, text(response)
    return response.headers["Location"].removesuffix("/deals/1")


def totals(client, game: str) -> tuple[int, ...]:
    page = html(client.get(game))
    foot = page.split('<th scope="row">Total</th>', 1)[1].split("</tr>", 1)[0]
    return tuple(int(n) for n in re.findall(r'<td class="num[^"]*">(-?\d+)</td>', foot))


# Deal 1 of the canasta scorer's game (tests/unit/rules/test_gallery.py):
# 1250 + 2 x 500 + 300 + 2 x 100 + 100 - 35 = 2815, and 640 + 500 + 50 - 500 - 145 = 545.
DEAL_1 = {
    "went_out": "0",
    "sides-0-meld_points": "1250",
    "sides-0-clean_books": "2",
    "sides-0-dirty_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "35",
    "sides-1-meld_points": "640",
    "sides-1-clean_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "145",
}


def test_a_game_started_with_ready_made_rules_scores_a_deal_by_them(app, client):
    game = start(client, TONATIHUAI.key)

    response = client.post(f"{game}/deals/1", data=DEAL_1)

    assert response.status_code == 303, text(response)
    assert totals(client, game) == (2815, 545)
    with app.app_context():
        played = db.session.scalars(db.select(Game)).one()
        assert played.variant_id == "house-" + TONATIHUAI.slug
        assert played.rules["red_three"] == {"down": 100, "held": -500, "down_not_out": 50}
    [row] = stored(app)
    assert dict(row.changes) == dict(TONATIHUAI.changes)


# Deal 1 of the Vegas game (tests/unit/rules/test_gallery.py): 1050 + 3 x 500 + 3 x 300 +
# 100 + 100 - 15 = 3635, and 420 + 500 + 300 - 500 - 355 = 365 (a black three held among the
# cards left).
VEGAS_DEAL_1 = {
    "went_out": "0",
    "sides-0-meld_points": "1050",
    "sides-0-clean_books": "3",
    "sides-0-dirty_books": "3",
    "sides-0-exact_22": "1",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "420",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "355",
}


def test_a_vegas_game_scores_a_deal_by_its_rules(client):
    game = start(client, TANGLEWOOD_VEGAS.key)

    refused = client.post(f"{game}/deals/1", data={**VEGAS_DEAL_1, "sides-0-clean_books": "2"})
    assert refused.status_code == 422, text(refused)
    response = client.post(f"{game}/deals/1", data=VEGAS_DEAL_1)

    assert response.status_code == 303, text(response)
    assert totals(client, game) == (3635, 365)


def test_a_second_game_with_the_same_ready_made_rules_keeps_one_copy_of_them(app, client):
    start(client, TONATIHUAI.key)
    start(client, TONATIHUAI.key)

    assert [row.slug for row in stored(app)] == [TONATIHUAI.slug]


def test_ready_made_rules_are_written_as_text(client, monkeypatch):
    hostile = replace(
        TONATIHUAI,
        name="<b>Bold</b> rules",
        summary='Summary <script>alert("x")</script>',
        author="<i>Someone</i>",
        title="A & B",
        address='https://example.com/"><script>',
    )
    monkeypatch.setattr(gallery, "GALLERY", (hostile,))

    for address in ("/house/", "/games/new"):
        page = html(client.get(address))
        assert "<script>" not in page and "<b>Bold" not in page and "<i>Someone" not in page
        assert "&lt;b&gt;Bold&lt;/b&gt; rules" in page
    house = html(client.get("/house/"))
    assert "Source: &lt;i&gt;Someone&lt;/i&gt;, A &amp; B" in house
    assert 'href="https://example.com/&#34;&gt;&lt;script&gt;"' in house


@pytest.mark.parametrize(
    ("language", "button", "summary_words"),
    [
        ("fr", "Utiliser ces règles", "un trois rouge posé rapporte 100, ou 50"),
        ("it", "Usa queste regole", "un tre rosso calato vale 100, o 50"),
        ("de", "Diese Regeln nutzen", "eine ausgelegte rote Drei bringt 100, oder 50"),
        ("ja", "このルールを使う", "場に出した赤の3は100点"),
    ],
)
def test_the_ready_made_rules_are_worded_in_the_reader_language(
    client, language, button, summary_words
):
    words = text(client.get("/house/", headers={"Accept-Language": language}))

    assert button in words
    assert summary_words in words
    assert "tonatihuai2026" in words and "Hand and Foot Score Calculator (hand-and-" in words


def test_a_game_started_in_french_keeps_the_rules_named_in_french(app, client):
    response = client.post(
        "/games/new",
        headers={"Accept-Language": "fr"},
        data={"variant": BERTA.key, "table": "2x4", "start": "1"},
    )

    assert response.status_code == 303, text(response)
    [row] = stored(app)
    assert row.name == "Règles du compteur de points de Michelle Berta"
    assert row.summary.startswith("Le jeu en équipes avec une ouverture de 50 à chaque donne")


def test_the_house_rules_page_lists_the_score_sheet_dearie_and_roth_rules(client):
    words = text(client.get("/house/"))

    assert "Source: Christophersanz-cyber, Hand &amp; Foot Score (hand-and-foot-score)" in words
    assert "Hand and foot grow from 11 to 17 cards over the four deals" in words
    assert (
        "Source: Hand and Foot Calculator (handandfootcalculator.com), Instructions: the "
        "default settings" in words
    )
    assert "a book of red threes earns 1700" in words
    assert "Source: Michael Chan, Hand and Foot (Roth family rules)" in words
    assert "fours to nines are worth 5 and black threes nothing" in words


def test_the_roth_family_rules_fill_the_form_with_one_deck_a_player_and_the_first_meld_by_score(
    client,
):
    values = form_values(html(client.get(f"/house/new?published={ROTH.slug}")))

    assert values["name"] == "Roth family rules"
    assert values["card_points__black_three"] == "0"
    assert values["card_points__nine"] == "5"
    assert values["going_out__4__clean"] == "5"
    assert values["going_out__4__dirty"] == "4"


def test_a_game_started_with_dearies_rules_has_five_deals(app, client):
    game = start(client, DEARIE.key)

    with app.app_context():
        played = db.session.scalars(db.select(Game)).one()
        assert played.variant_id == "house-" + DEARIE.slug
        assert played.rules["first_meld"] == [50, 90, 120, 150, 0]
        assert played.rules["book_first_meld_deals"] == [5]
    assert client.get(f"{game}/deals/5").status_code == 200


@pytest.mark.parametrize(
    ("language", "names", "summary_words"),
    [
        ("fr", ("Règles de Dearie", "Règles de la famille Roth"), "les trois noirs rien"),
        ("it", ("Regole di Dearie", "Regole della famiglia Roth"), "i tre neri nulla"),
        ("de", ("Dearies Regeln", "Regeln der Familie Roth"), "schwarze Dreien nichts"),
        ("ja", ("Dearie のルール", "Roth 家のルール"), "黒の3は0点です"),
    ],
)
def test_the_dearie_and_roth_rules_are_worded_in_the_reader_language(
    client, language, names, summary_words
):
    words = text(client.get("/house/", headers={"Accept-Language": language}))

    assert all(name in words for name in names)
    assert summary_words in words


# Deal 1 of the Roth game (tests/unit/rules/test_gallery.py), the second team having given back
# two pickups of the discard pile: 1150 + 5 x 500 + 4 x 300 + 100 + 2 x 100 - 15 = 5135, and
# 400 + 2 x 500 + 300 - 500 + 100 - 2 x 100 - 60 = 1040.
ROTH_DEAL_1 = {
    "went_out": "0",
    "sides-0-meld_points": "1150",
    "sides-0-clean_books": "5",
    "sides-0-dirty_books": "4",
    "sides-0-exact_22": "2",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "400",
    "sides-1-clean_books": "2",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-exact_22": "1",
    "sides-1-failed_pickups": "2",
    "sides-1-cards_left_points": "60",
}


def test_a_roth_game_counts_the_pickups_given_back_on_the_form_the_board_and_the_sheet(app, client):
    game = start(client, ROTH.key)
    form = html(client.get(f"{game}/deals/1"))
    assert 'name="sides-1-failed_pickups"' in form and "Failed pickups" in form

    response = client.post(f"{game}/deals/1", data=ROTH_DEAL_1)

    assert response.status_code == 303, text(response)
    assert totals(client, game) == (5135, 1040)
    assert "2 pickups" in text(client.get(game))
    sheet = pdf_text(client.get(f"{game}/sheet.pdf").data)
    assert "Failed pickups -100 each 0 2 pickups: -200" in sheet.replace("\n", " ")
    rules = text(client.get(f"/rules/house-{ROTH.slug}"))
    assert "−100 for each pickup of the discard pile a player had to give back" in rules


def test_the_score_api_refuses_pickups_given_back_where_the_rules_have_no_penalty(client):
    sides = [
        {"meld_points": 1150, "clean_books": 5, "dirty_books": 4, "cards_left_points": 15},
        {"meld_points": 400, "clean_books": 2, "dirty_books": 1, "failed_pickups": 2},
    ]
    sides[0]["went_out"] = True
    sides[1]["cards_left_points"] = 60

    def score(variant):
        return client.post("/api/v1/score", json={"variant": variant, "deal": 1, "sides": sides})

    roth = score(ROTH.house_rules().to_json())
    vegas = score(TANGLEWOOD_VEGAS.house_rules().to_json())

    assert roth.status_code == 200, roth.get_data(as_text=True)
    # 400 + 2 x 500 + 300 + 0 (no one cut exactly) - 2 x 100 - 60 = 1440
    assert [side["total"] for side in roth.get_json()["sides"]] == [4935, 1440]
    assert vegas.status_code == 422
    assert "has no penalty for a failed pickup of the discard pile" in vegas.get_data(as_text=True)


@pytest.mark.parametrize("deals", ["13", "0", "twelve"])
def test_too_many_deals_in_rules_made_from_an_entry_are_refused_by_name(app, client, deals):
    """The Roth family rules have twelve deals, more than their base: a number of deals out of
    bounds is refused on the form, not compared deal by deal."""
    address = f"/house/new?published={ROTH.slug}"
    values = form_values(html(client.get(address)))

    response = client.post(address, data={**values, "deals": deals})

    assert response.status_code == 422
    words = text(response)
    if deals == "twelve":
        assert "Deals in a game Base: 4 A deal added takes" in words
        assert "until you change them. Enter a whole number, like 500 or -100." in words
    else:
        assert f"Deals in a game must be from 1 to 12 (entered {deals})." in words
    assert stored(app) == []
