"""A game's filled sheet: GET /games/<id>/sheet.pdf, its preview and its print page."""

from __future__ import annotations

import io
import re
from datetime import datetime

import pytest
from flask import Blueprint, Flask, current_app, request, url_for
from game_helpers import store_deal
from pypdf import PdfReader
from test_sheets import keep_png, page_size

from scorekeeper.extensions import db
from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.variants import get_variant
from scorekeeper.sheets.views import bp as sheets_bp
from scorekeeper.store.game_service import start_game
from scorekeeper.store.games import Game
from scorekeeper.store.scores import game_score


def fmt(value: int) -> str:
    return f"{value:,}"


def pdf_text(data: bytes) -> str:
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(pages) == 1
    return pages[0].extract_text()


def deal_block(text: str, deal: int) -> str:
    start = text.index(f"Deal {deal}\n")
    end = text.find(f"Deal {deal + 1}\n", start)
    return text[start:] if end == -1 else text[start:end]


def pagat_deal(number: int) -> DealEntry:
    """Deal `number` of a two-team pagat game: the first team goes out every deal."""
    return DealEntry(
        get_variant("pagat"),
        number,
        (
            SideEntry(
                meld_points=1210 + number,
                clean_books=2,
                dirty_books=2,
                wild_books=1,
                red_threes_down=2,
                went_out=True,
            ),
            SideEntry(
                meld_points=600 + number,
                clean_books=1,
                dirty_books=1,
                red_threes_down=1,
                red_threes_held=1,
                cards_left_points=120,
            ),
        ),
        players=4,
    )


def make_game(app: Flask, deals: int, names=("North & South", "East & West")) -> int:
    with app.app_context():
        variant = get_variant("pagat")
        game = start_game(variant, variant.table_for(2, 4), list(names), "Club night")
        game.created_at = datetime(2025, 3, 14, 20, 30)
        db.session.commit()
        for number in range(1, deals + 1):
            store_deal(game, pagat_deal(number))
        db.session.commit()
        return game.id


def sheet_url(app: Flask, endpoint: str, game_id: int, **query: str) -> str:
    """The address of a game's sheet page, built the way the app builds it."""
    with app.test_request_context():
        return url_for(f"sheets.{endpoint}", game_id=game_id, **query)


def expected_score(app: Flask, game_id: int):
    with app.app_context():
        return game_score(db.session.get(Game, game_id))


def test_a_finished_game_prints_every_number_total_and_the_winner(app, client) -> None:
    game_id = make_game(app, deals=4)
    score = expected_score(app, game_id)

    response = client.get(sheet_url(app, "game_pdf", game_id))

    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert set(response.headers["Cache-Control"].split(", ")) == {"private", "no-cache"}
    text = pdf_text(response.data)
    assert "Club night" in text and "Partnership (pagat.com)" in text
    assert "Date: March 14, 2025" in text
    assert "Winner: North & South with 18,450" in text
    for result in score.deals:
        block = deal_block(text, result.number)
        totals = " ".join(fmt(s.total) for s in result.scores)
        running = " ".join(fmt(t) for t in result.running_totals)
        assert f"Deal total {totals}" in block
        assert f"Running total {running}" in block
        assert f"Melded cards + {fmt(1210 + result.number)} {fmt(600 + result.number)}" in block
        assert "Clean books × 500 2 books: 1,000 1 book: 500" in block
        assert "Wild books × 1,500 1 book: 1,500 0" in block
        assert "Red threes +100 / -100 2 laid down: 200 1 laid down, 1 held: 0" in block
        assert "Cards left − 0 -120" in block
    assert [fmt(t) for t in score.totals] == ["18,450", "5,130"]


def test_a_game_part_way_through_prints_the_deals_so_far(app, client) -> None:
    game_id = make_game(app, deals=2)
    score = expected_score(app, game_id)

    text = pdf_text(client.get(sheet_url(app, "game_pdf", game_id, size="a4")).data)

    assert "In progress: 2 of 4 deals entered" in text
    assert "Winner" not in text
    assert f"Running total {fmt(score.totals[0])} {fmt(score.totals[1])}" in deal_block(text, 2)
    for number in (3, 4):
        block = deal_block(text, number)
        assert re.search(r"Deal total\s*\nRunning total", block)
        assert not re.search(r"Running total \S", block)


def test_a_game_with_no_deals_prints_a_blank_sheet_with_its_names(app, client) -> None:
    game_id = make_game(app, deals=0, names=("Ann", "<i>Bob</i>"))

    text = pdf_text(client.get(sheet_url(app, "game_pdf", game_id)).data)

    assert re.search(r"Sides\s+Ann <i>Bob</i>", text)
    assert "0 of 4 deals entered" in text


def test_the_winner_is_marked_in_the_side_names(app, client) -> None:
    game_id = make_game(app, deals=4)

    page = client.get(sheet_url(app, "game_html", game_id)).get_data(as_text=True)

    assert re.search(r'class="side game-start winner">\s*<div class="side-name"><span', page)
    assert "&amp; South" in page


@pytest.mark.parametrize("endpoint", ["game_pdf", "game_html", "game_print"])
def test_a_game_that_does_not_exist_has_no_sheet(app, client, endpoint) -> None:
    game_id = make_game(app, deals=1)
    game_address, _, page = sheet_url(app, endpoint, game_id).rpartition("/")
    unknown = game_address.rsplit("/", 1)[0] + "/999"

    response = client.get(f"{unknown}/{page}")

    assert response.status_code == 404
    assert response.mimetype == "text/html"


@pytest.mark.parametrize(("endpoint", "size"), [("game_pdf", "foo"), ("game_print", "legal")])
def test_an_unknown_paper_size_gets_a_clear_error_page(app, client, endpoint, size) -> None:
    game_id = make_game(app, deals=1)

    response = client.get(sheet_url(app, endpoint, game_id, size=size))

    assert response.status_code == 400
    assert f"The paper size must be letter or a4, not “{size}”." in response.get_data(as_text=True)


def test_the_game_print_page_previews_the_sheet(app, client) -> None:
    game_id = make_game(app, deals=3)

    page = client.get(sheet_url(app, "game_print", game_id, size="a4")).get_data(as_text=True)

    assert f'src="{sheet_url(app, "game_html", game_id, size="a4")}"' in page
    assert 'name="size" value="a4" checked' in page
    with app.test_request_context():
        assert f'href="{url_for("games.scoreboard", game_id=game_id)}"' in page


@pytest.mark.parametrize(("download", "endpoint"), [("pdf", "game_pdf"), ("html", "game_html")])
def test_the_game_sheet_downloads_honour_the_paper_chosen(app, client, download, endpoint) -> None:
    game_id = make_game(app, deals=2)

    response = client.get(sheet_url(app, "game_print", game_id, size="a4", download=download))

    assert response.status_code == 303
    assert response.headers["Location"] == sheet_url(app, endpoint, game_id, size="a4")

    sheet = client.get(response.headers["Location"])
    assert sheet.status_code == 200
    if download == "pdf":
        width, height = page_size(sheet.data)
        assert (round(width), round(height)) == (595, 842)  # A4 in points


def test_the_scoreboard_links_to_the_print_page(app, client) -> None:
    game_id = make_game(app, deals=1)
    with app.test_request_context():
        scoreboard = url_for("games.scoreboard", game_id=game_id)

    page = client.get(scoreboard).get_data(as_text=True)

    assert f'href="{sheet_url(app, "game_print", game_id)}"' in page
    assert sheet_url(app, "game_print", game_id) == scoreboard + "/sheet"
    assert "Print sheet" in page


def test_a_games_sheet_lives_under_the_games_address_and_its_url_processors() -> None:
    games = Blueprint("games", __name__)

    @games.url_value_preprocessor
    def pull(endpoint, values):
        if values and "token" in values:
            values["game_id"] = int(values.pop("token").removeprefix("t"))

    @games.url_defaults
    def push(endpoint, values):
        if "game_id" in values and current_app.url_map.is_endpoint_expecting(endpoint, "token"):
            values["token"] = f"t{values.pop('game_id')}"

    games.add_url_rule("/g/<token>", "scoreboard", lambda game_id: str(game_id))
    app = Flask(__name__)
    app.register_blueprint(games)
    app.register_blueprint(sheets_bp)

    rules = {
        r.endpoint: r.rule for r in app.url_map.iter_rules() if r.endpoint.startswith("sheets.g")
    }
    assert rules == {
        "sheets.game_print": "/g/<token>/sheet",
        "sheets.game_html": "/g/<token>/sheet.html",
        "sheets.game_pdf": "/g/<token>/sheet.pdf",
    }
    with app.test_request_context():
        assert url_for("sheets.game_pdf", game_id=7) == "/g/t7/sheet.pdf"
    adapter = app.url_map.bind("localhost")
    assert adapter.match("/g/t7/sheet.pdf") == ("sheets.game_pdf", {"token": "t7"})
    with app.test_request_context("/g/t7/sheet.pdf"):
        app.preprocess_request()
        assert request.view_args == {"game_id": 7}


def test_the_sheet_uses_the_rules_frozen_in_the_game(app, client) -> None:
    game_id = make_game(app, deals=1)
    with app.app_context():
        game = db.session.get(Game, game_id)
        rules = dict(game.rules)
        rules["book_bonus"] = {**rules["book_bonus"], "clean": 700}
        game.rules = rules
        db.session.commit()

    text = pdf_text(client.get(sheet_url(app, "game_pdf", game_id)).data)

    assert "Clean books × 700 2 books: 1,400 1 book: 700" in text
    assert "clean 700 · dirty 300" in text


def test_a_filled_sheet_renders_to_png_for_a_person_to_check(
    app, client, artifacts_dir, tmp_path
) -> None:
    game_id = make_game(app, deals=3)
    data = client.get(sheet_url(app, "game_pdf", game_id)).data

    png = keep_png(data, "sheet-game-part-way", artifacts_dir, tmp_path)

    assert png.stat().st_size > 10_000


def test_an_unchanged_game_sends_the_same_pdf_and_a_browser_can_keep_it(app, client) -> None:
    game_id = make_game(app, deals=4)
    first = client.get(sheet_url(app, "game_pdf", game_id))

    again = client.get(sheet_url(app, "game_pdf", game_id))
    kept = client.get(
        sheet_url(app, "game_pdf", game_id), headers={"If-None-Match": first.headers["ETag"]}
    )

    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert kept.status_code == 304


def test_a_changed_game_gets_a_new_pdf(app, client) -> None:
    game_id = make_game(app, deals=3)
    before = client.get(sheet_url(app, "game_pdf", game_id))
    with app.app_context():
        store_deal(db.session.get(Game, game_id), pagat_deal(4))
        db.session.commit()

    after = client.get(
        sheet_url(app, "game_pdf", game_id), headers={"If-None-Match": before.headers["ETag"]}
    )

    assert after.status_code == 200
    assert after.headers["ETag"] != before.headers["ETag"]
    assert "Winner: North & South" in pdf_text(after.data)


def test_long_side_names_keep_a_seven_side_sheet_on_one_page(app, client) -> None:
    variant = get_variant("gamerules")
    names = [f"{n} The Very Long Team Name Of Players" for n in range(1, 8)]
    with app.app_context():
        game = start_game(variant, variant.table_for(7), names, "Long names")
        db.session.commit()
        game_id = game.id

    for size in ("letter", "a4"):
        text = pdf_text(client.get(sheet_url(app, "game_pdf", game_id, size=size)).data)
        assert "Running total" in text
