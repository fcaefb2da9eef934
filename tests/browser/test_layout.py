import re
from pathlib import Path

from playwright.sync_api import Page, expect


def test_error_page_fits_a_phone_and_switches_language_without_javascript(
    page: Page, migrated_server: str, artifacts_dir: Path
) -> None:
    page.goto(f"{migrated_server}/no-such-page")

    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    for control in page.locator("button, select, a.button").all():
        assert control.bounding_box()["height"] >= 44
    page.screenshot(path=artifacts_dir / "error-page-phone.png", full_page=True)

    page.select_option("#language-select", "fr")
    page.get_by_role("button", name="Change").click()

    expect(page).to_have_url(re.compile(r"/no-such-page$"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#language-select")).to_have_value("fr")
