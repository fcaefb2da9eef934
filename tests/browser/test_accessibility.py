"""axe-core (WCAG 2.2 AA rules) on every page of the app, light and dark, at phone size.

axe-core is vendored under tests/browser/vendor/axe-core/ (its version and licence beside it) and
only these tests load it, through the DevTools protocol, so the app's CSP is left as it is.
"""

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.history.demo import store_season
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.tables import CardTable

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PHONE = {"width": 390, "height": 844}


def axe_violations(page: Page) -> list[dict[str, object]]:
    """The violations axe finds on the page as it is now, each with the nodes it names."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        "tags => axe.run(document, "
        "{runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        WCAG_22_AA,
    )
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "nodes": [node["target"] for node in violation["nodes"]],
            "summary": violation["nodes"][0]["failureSummary"],
        }
        for violation in result["violations"]
    ]


def tour(page: Page, base: str, play_season: Callable[[str], None]) -> Iterator[tuple[str, Page]]:
    """Visit every page a table uses, yielding each page's name and the tab showing it;
    ``play_season`` gives the table of that name finished games, for its history pages."""
    page.goto(base + "/")
    page.get_by_text("A new table").click()
    page.get_by_label("Name of the table").fill("Fridays")
    page.get_by_role("button", name="Make the table").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Fridays")
    table_url = page.url.split("#")[0]
    yield "tables page", page

    page.goto(base + "/games/new")
    yield "new game", page
    page.get_by_role("button", name="Start game").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    deal_url = page.url
    # The Save bar sticks to the bottom of the screen over whatever scrolls under it, and axe
    # counts a target half under it as too small: the form is checked where the bar covers
    # nothing, scrolled to its end.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    yield "deal form", page
    save_deal(page, melded=400)
    page.goto(deal_url.removesuffix("/deals/1"))
    yield "scoreboard", page

    page.goto(deal_url)
    other = page.context.new_page()
    other.goto(deal_url)
    save_deal(other, melded=450)
    other.close()
    save_deal(page, melded=500)
    expect(page.locator("h1")).to_contain_text("another phone")
    yield "conflict", page
    page.goto(base + "/")
    yield "home", page

    for name, path in (
        ("rules index", "/rules/"),
        ("rules variant", "/rules/pagat"),
        ("rules compare", "/rules/compare"),
        ("rules search", "/rules/search?q=red+three"),
        ("sheets", "/sheets/"),
        ("house list", "/house/"),
        ("meld checker", "/meld-checker"),
        ("demo", "/demo"),
        ("import", "/games/import"),
        ("error page", "/no-such-page"),
    ):
        page.goto(base + path)
        yield name, page

    page.goto(base + "/house/new?base=pagat")
    yield "house editor", page
    page.get_by_label("Name of your rules").fill("Friday rules")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator(".flash-success")).to_be_visible()
    yield "house show", page

    play_season("Fridays")
    for name, tail in (
        ("table with its games", ""),
        ("history", "/history"),
        ("statistics", "/stats"),
        ("players", "/players"),
    ):
        page.goto(table_url + tail)
        yield name, page


def season_player(app: Flask) -> Callable[[str], None]:
    """Bot games with named players, stored at the table of a given name."""

    def play_season(table_name: str) -> None:
        with app.app_context():
            query = select(CardTable).where(CardTable.name == table_name)
            table = db.session.scalars(query).one()
            names = ["Annabelle", "Bartholomew", "Cordelia", "Desmond", "Evangeline", "Florian"]
            store_season(table, get_variant("pagat"), 6, 1, names)

    return play_season


def save_deal(page: Page, melded: int) -> None:
    """Save the open deal form with the first side's melded points and every side holding
    cards (the stock ran out), past the warnings."""
    page.get_by_label("Nobody: the stock ran out").check()
    page.locator("fieldset.side").first.get_by_label("Melded cards (points)", exact=True).fill(
        str(melded)
    )
    for side in page.locator("fieldset.side").all():
        side.get_by_label("Cards left (points)", exact=True).fill("20")
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal").click()
    anyway = page.get_by_role("button", name="Save anyway")
    if anyway.count():
        with page.expect_navigation():
            anyway.click()


def tour_violations(
    browser: Browser, base: str, scheme: str, play_season: Callable[[str], None]
) -> dict[str, list[dict[str, object]]]:
    context = browser.new_context(viewport=PHONE, locale="en-US", color_scheme=scheme)
    try:
        page = context.new_page()
        return {name: axe_violations(shown) for name, shown in tour(page, base, play_season)}
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe_wcag_22_aa_at_phone_size(
    browser: Browser, migrated_app: Flask, migrated_server: str, scheme: str, artifacts_dir: Path
) -> None:
    found = tour_violations(browser, migrated_server, scheme, season_player(migrated_app))

    (artifacts_dir / f"axe-{scheme}.json").write_text(json.dumps(found, indent=2), "utf-8")
    assert len(found) == 22
    report = {name: violations for name, violations in found.items() if violations}
    assert report == {}, json.dumps(report, indent=2)
