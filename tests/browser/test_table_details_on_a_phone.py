"""Details of the app at the table, on a phone-sized Chromium: large type that shows both
totals on a small phone and in landscape, Enter that moves to the next field of a deal, the
statistics' wide tables that say they scroll, and the rank list of house rules that follows
the deck."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.history.demo import store_season
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.tables import CardTable

FULLY_SHOWN = """e => {
  const box = e.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    return false;
  }
  const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return seen !== null && (seen === e || e.contains(seen));
}"""
"""Whether an element lies wholly inside the viewport, with nothing drawn over its middle."""


def _start_game(page: Page, server: str) -> str:
    """A pagat game for two teams, started through the form; the address of its deal 1."""
    page.goto(server + "/games/new")
    page.get_by_role("button", name="Start game").last.click()
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]{43}/deals/1$"))
    # The form's deferred scripts run before "load": until then, Enter would submit it.
    page.wait_for_load_state("load")
    return page.url


def _save_first_deal(page: Page) -> None:
    page.get_by_label("Nobody: the stock ran out").check()
    for side in page.locator("fieldset.side").all():
        side.get_by_label("Melded cards (points)", exact=True).fill("400")
        side.get_by_label("Cards left (points)", exact=True).fill("20")
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".just-saved")).to_be_visible()


@pytest.mark.browser
@pytest.mark.parametrize(
    "viewport",
    [
        {"width": 360, "height": 640},
        {"width": 640, "height": 360},
        {"width": 844, "height": 390},
    ],
    ids=["360x640", "640x360", "844x390"],
)
def test_large_type_shows_both_totals_on_a_small_phone_and_in_landscape(
    browser: Browser, migrated_server: str, viewport: dict[str, int], artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport=viewport, locale="en-US")
    try:
        page = context.new_page()
        _start_game(page, migrated_server)
        _save_first_deal(page)
        page.get_by_role("button", name="Large type").click()
        totals = page.locator(".big-total")
        expect(totals).to_have_text(["380", "380"])

        after_toggle = [total.evaluate(FULLY_SHOWN) for total in totals.all()]
        page.reload()
        expect(page.get_by_role("button", name="Large type")).to_have_attribute(
            "aria-pressed", "true"
        )
        page.wait_for_function(
            f"() => [...document.querySelectorAll('.big-total')].every({FULLY_SHOWN})",
            timeout=10_000,
        )
        name = f"large-type-{viewport['width']}x{viewport['height']}.png"
        page.screenshot(path=artifacts_dir / name)

        assert after_toggle == [True, True]
        assert all(total.evaluate(FULLY_SHOWN) for total in totals.all())
        font = totals.first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert font >= 32, "still large enough to read from across the table"
    finally:
        context.close()


@pytest.mark.browser
def test_enter_in_a_number_field_moves_to_the_next_field_and_saves_nothing(
    page: Page, migrated_server: str
) -> None:
    deal_url = _start_game(page, migrated_server)
    first = page.locator("fieldset.side").first
    melded = first.get_by_label("Melded cards (points)", exact=True)
    melded.fill("400")

    melded.press("Enter")

    expect(first.get_by_label("Clean books", exact=True)).to_be_focused()
    first.get_by_label("Clean books", exact=True).fill("1")
    first.get_by_label("Clean books", exact=True).press("Enter")
    expect(first.get_by_label("Dirty books", exact=True)).to_be_focused()
    assert page.url == deal_url
    expect(page.locator("#problems")).to_have_count(0)
    expect(melded).to_have_value("400")


def _seed_season(app: Flask, table_name: str) -> None:
    """Bot games with named players at the table of that name (a season to look at)."""
    with app.app_context():
        table = db.session.scalars(select(CardTable).where(CardTable.name == table_name)).one()
        names = ["Annabelle", "Bartholomew", "Cordelia", "Desmond", "Evangeline", "Florian"]
        store_season(table, get_variant("pagat"), 6, 1, names)


@pytest.mark.browser
def test_wide_statistics_tables_say_they_scroll_and_scroll_from_the_keyboard(
    browser: Browser, migrated_app: Flask, migrated_server: str, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = context.new_page()
        page.goto(migrated_server + "/")
        page.get_by_text("A new table").click()
        page.get_by_label("Name of the table").fill("Fridays")
        page.get_by_role("button", name="Make the table").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Fridays")
        _seed_season(migrated_app, "Fridays")

        page.goto(page.url.split("#")[0] + "/stats")
        teams = page.locator(".table-wrap[role=region][aria-labelledby=team-standings]")
        expect(teams).to_be_visible()
        cue = page.locator("#team-standings-cue")
        expect(cue).to_be_visible()
        expect(cue).to_have_text("More columns to the right: swipe the table sideways.")
        assert teams.evaluate("e => e.scrollWidth > e.clientWidth"), "the table is wider"
        page.screenshot(path=artifacts_dir / "stats-teams-cue.png", full_page=True)

        teams.focus()
        for _press in range(40):
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => { const e = document.querySelector('[data-scroll-cue=team-standings-cue]');"
            " return e.scrollLeft + e.clientWidth >= e.scrollWidth - 1; }"
        )
        expect(cue).to_be_hidden()
    finally:
        context.close()


@pytest.mark.browser
def test_the_special_book_rank_list_follows_the_chosen_deck(
    page: Page, migrated_server: str
) -> None:
    page.goto(migrated_server + "/house/new?base=pagat")
    for group in ("#deck", "#book_bonus__special_rank"):
        page.locator(f"details:has({group}) > summary").click()
    ranks = page.get_by_label("Rank of the special book")
    standard = ranks.locator("option").all_inner_texts()

    page.get_by_label("Cards", exact=True).select_option("handnfoot")
    expect(ranks.locator("option", has_text="LD")).to_have_count(1)
    pack = ranks.locator("option").all_inner_texts()
    ranks.select_option("12")
    page.get_by_label("Cards", exact=True).select_option("standard")

    assert "K" in standard and not {"LD", "12", "11", "1"} & set(standard)
    assert {"LD", "12", "11", "1"} <= set(pack) and "K" not in pack
    expect(ranks).to_have_value("none")
    expect(ranks.locator("option", has_text="LD")).to_have_count(0)
