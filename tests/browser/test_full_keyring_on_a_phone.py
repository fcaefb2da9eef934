"""A phone holding all a browser keeps (12 card tables, 40 games) still gets its session cookie
from every answer: Chromium drops a cookie past 4,096 bytes, and with it the numbers an Undo
gives back to the deal's form."""

import re

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper.extensions import db
from scorekeeper.keyring import REMEMBERED_GAMES, REMEMBERED_TABLES
from scorekeeper.store.table_service import new_table

ANN = "Ann & Bob"
EDIT_PATH = re.compile(r"/g/[A-Za-z0-9_-]{43}")


def tables_made_elsewhere(app: Flask, count: int) -> list[str]:
    """The edit links of ``count`` card tables made on another phone."""
    with app.test_request_context(method="POST"):
        tokens = [new_table(f"Table {number}")[1] for number in range(count)]
        db.session.commit()
    return [f"/t/{token}" for token in tokens]


def games_started_elsewhere(app: Flask, count: int) -> list[str]:
    """The edit links of ``count`` games started on another phone, through the new-game form."""
    other_phone = app.test_client()
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        paths = []
        for number in range(count):
            answer = other_phone.post(
                "/games/new",
                data={
                    "variant": "pagat",
                    "table": "2x4",
                    "name": f"Game {number}",
                    "start": "1",
                    "side_names-0": ANN,
                    "side_names-1": "Cy & Di",
                },
            )
            assert answer.status_code == 303
            found = EDIT_PATH.match(answer.headers["Location"])
            assert found is not None
            paths.append(found.group(0))
    finally:
        app.config["WTF_CSRF_ENABLED"] = True
    return paths


def session_cookie(page: Page) -> str:
    (value,) = [c["value"] for c in page.context.cookies() if c["name"] == "session"]
    return value


@pytest.mark.browser
def test_undo_gives_the_numbers_back_to_a_phone_holding_12_tables_and_40_games(
    page: Page, migrated_app: Flask, migrated_server: str
) -> None:
    tables = tables_made_elsewhere(migrated_app, REMEMBERED_TABLES)
    games = games_started_elsewhere(migrated_app, REMEMBERED_GAMES)
    for path in tables + games:  # opened on this phone, as a shared link is
        assert page.request.get(migrated_server + path).status == 200
    page.goto(migrated_server + "/")
    expect(page.locator(f'a[href="{games[0]}"]').first).to_be_visible()
    expect(page.locator(f'a[href="{games[-1]}"]').first).to_be_visible()

    page.goto(f"{migrated_server}{games[-1]}/deals/1")
    page.get_by_label(f"{ANN} went out").check()
    for side, name, value in [
        (0, "meld_points", "1210"),
        (0, "red_threes_down", "2"),
        (0, "cards_left_points", "15"),
        (1, "meld_points", "600"),
        (1, "clean_books", "1"),
        (1, "dirty_books", "1"),
        (1, "red_threes_down", "1"),
        (1, "red_threes_held", "1"),
        (1, "cards_left_points", "120"),
    ]:
        page.locator(f'input[name="sides-{side}-{name}"]').fill(value)
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".flash-success")).to_have_text("Deal 1 saved.")
    saved_cookie = session_cookie(page)

    page.get_by_role("button", name="Undo").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    expect(page.locator(".flash-success")).to_have_text(
        "Deal 1 was taken back: its numbers are in the form, to correct and save."
    )
    expect(page.locator('input[name="sides-0-meld_points"]')).to_have_value("1210")
    expect(page.locator('input[name="sides-1-cards_left_points"]')).to_have_value("120")
    assert session_cookie(page) != saved_cookie
    assert len("session=" + session_cookie(page)) < 4000
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator("table.sheet tfoot td")).to_have_text(["0", "0"])
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    page.goto(migrated_server + "/")
    expect(page.locator(f'a[href="{games[0]}"]').first).to_be_visible()
