"""The rules pages on a phone: nothing scrolls sideways, and every link is a big enough target."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from scorekeeper.rules.gallery import CHRISTOPHERSANZ
from scorekeeper.rules.variants import BUILT_IN

PHONE_VIEWPORT = {"width": 390, "height": 844}

PAGES = (
    "/rules/pagat",
    "/rules/brouillette-partners-high",
    "/rules/compare?v=pagat&v=simpson&v=brouillette-low",
    "/rules/search?q=red+three+worth&first=simpson",
)

TOO_SMALL = """() => [...document.querySelectorAll('main a, main button, main summary')]
  .map(el => [el.textContent.trim(), el.getBoundingClientRect()])
  .filter(([, box]) => box.width > 0 && (box.width < 24 || box.height < 24))
  .map(([text, box]) => `${text} ${Math.round(box.width)}x${Math.round(box.height)}`)"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rules_pages_read_on_a_phone(
    browser: Browser, migrated_server: str, artifacts_dir: Path, scheme: str
) -> None:
    context = browser.new_context(viewport=PHONE_VIEWPORT, locale="en-US", color_scheme=scheme)
    page = context.new_page()
    try:
        for number, path in enumerate(PAGES):
            page.goto(f"{migrated_server}{path}")

            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, path
            assert page.evaluate(TOO_SMALL) == [], path
            page.screenshot(path=artifacts_dir / f"rules-{scheme}-{number}.png")
        page.goto(f"{migrated_server}/rules/pagat")
        pile = page.locator("#quick-reference").get_by_role("link", name="Discard pile")
        assert pile.bounding_box()["y"] < 2 * PHONE_VIEWPORT["height"]
    finally:
        context.close()


WIDER_THAN_ITS_BOX = """() => [...document.querySelectorAll('#quick-reference table')]
  .filter(table => table.getBoundingClientRect().right >
                   document.getElementById('quick-reference').getBoundingClientRect().right + 0.5)
  .map(table => table.textContent.replace(/\\s+/g, ' ').trim().slice(0, 60))"""


@pytest.mark.parametrize("language", ["en-US", "fr-FR"])
def test_every_quick_reference_fits_a_phone(
    browser: Browser, migrated_server: str, language: str
) -> None:
    """Values given deal by deal ("+100 / +200 / +300 / +400") and a first meld that is a
    concealed book wrap inside the quick reference instead of widening the page."""
    context = browser.new_context(viewport=PHONE_VIEWPORT, locale=language)
    page = context.new_page()
    try:
        # The score sheet rules of the gallery: a going-out bonus and an exact cut by deal.
        page.goto(f"{migrated_server}/house/new?published={CHRISTOPHERSANZ.slug}")
        page.locator("button[type=submit]").last.click()
        page.wait_for_url(re.compile(r"/house/[a-z0-9-]+$"))
        house = "house-" + page.url.rsplit("/", 1)[1]
        for variant_id in (house, *BUILT_IN):
            page.goto(f"{migrated_server}/rules/{variant_id}")
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert (overflow, page.evaluate(WIDER_THAN_ITS_BOX)) == (0, []), variant_id
    finally:
        context.close()
