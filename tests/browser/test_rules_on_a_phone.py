"""The rules pages on a phone: nothing scrolls sideways, and every link is a big enough target."""

from pathlib import Path

import pytest
from playwright.sync_api import Browser

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
