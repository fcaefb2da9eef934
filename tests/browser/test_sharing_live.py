"""Two phones at one table: the keeper enters a deal, the watcher's scoreboard follows."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
def test_the_view_link_follows_the_keepers_saves_without_a_reload(
    browser: Browser, migrated_server: str, artifacts_dir: Path
) -> None:
    keeper_context = browser.new_context(viewport=PHONE, locale="en-US")
    watcher_context = browser.new_context(viewport=PHONE, locale="en-US")
    problems: list[str] = []
    try:
        keeper = keeper_context.new_page()
        keeper.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        keeper.goto(migrated_server + "/games/new")
        keeper.get_by_role("button", name="Start game").last.click()
        expect(keeper).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]{43}/deals/1$"))
        keeper.locator(".crumbs a").first.click()

        view_link = keeper.locator("#view-link").input_value()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{43}", view_link)
        expect(keeper.locator("img.qr")).to_have_count(2)
        for image in keeper.locator("img.qr").all():  # the codes load, and CSP lets them
            image.scroll_into_view_if_needed()
            assert image.evaluate("i => i.complete && i.naturalWidth > 0")
        keeper.screenshot(path=artifacts_dir / "share-keeper.png", full_page=True)

        watcher = watcher_context.new_page()
        watcher.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        watcher.goto(view_link)
        expect(watcher.get_by_text("No deal entered yet.")).to_be_visible()
        expect(watcher.get_by_role("link", name="Enter deal 1")).to_have_count(0)
        expect(watcher.locator("img.qr")).to_have_count(1)

        keeper.goto(keeper.url.split("#")[0] + "/deals/1")
        keeper.get_by_label("Team 1 went out").check()
        first, second = keeper.locator("fieldset.side").all()[:2]
        first.get_by_label("Melded cards (points)", exact=True).fill("1210")
        first.get_by_label("Clean books", exact=True).fill("2")
        first.get_by_label("Dirty books", exact=True).fill("2")
        first.get_by_label("Wild books", exact=True).fill("1")
        first.get_by_label("Red threes laid down", exact=True).fill("2")
        first.get_by_label("Cards left (points)", exact=True).fill("15")
        second.get_by_label("Melded cards (points)", exact=True).fill("600")
        second.get_by_label("Clean books", exact=True).fill("1")
        second.get_by_label("Dirty books", exact=True).fill("1")
        second.get_by_label("Red threes laid down", exact=True).fill("1")
        second.get_by_label("Red threes still held", exact=True).fill("1")
        second.get_by_label("Cards left (points)", exact=True).fill("120")
        keeper.get_by_role("button", name="Save deal").click()
        expect(keeper.locator(".flash-success")).to_have_text("Deal 1 saved.")

        # The watcher's page polls the game's version and reloads itself when it changes.
        expect(watcher.locator(".result")).to_have_text(
            "Team 1 leads with 4,595 points.", timeout=15_000
        )
        watcher.screenshot(path=artifacts_dir / "share-watcher.png", full_page=True)
        assert not [p for p in problems if "Content Security Policy" in p], problems
    finally:
        keeper_context.close()
        watcher_context.close()
