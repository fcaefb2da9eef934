"""At the table, on a phone-sized Chromium: the screen kept awake, who deals next, large type,
and the Share button (the share sheet, or a copy with a visible confirmation).

Chromium's headless shell grants no wake lock and has no share sheet, so an init script puts
recording stand-ins in their place: the tests see what the page asked of the browser.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

PHONE = {"width": 390, "height": 844}

STAND_INS = """
(() => {
  window.asked = [];
  let hidden = false;
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible"),
  });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  window.setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  Object.defineProperty(navigator, "wakeLock", {
    configurable: true,
    value: {
      request(type) {
        window.asked.push("wake-lock " + type);
        const sentinel = new EventTarget();
        sentinel.release = () => {
          window.asked.push("release");
          sentinel.dispatchEvent(new Event("release"));
          return Promise.resolve();
        };
        return Promise.resolve(sentinel);
      },
    },
  });
})();
"""

SHARE_SHEET = """
Object.defineProperty(navigator, "share", {
  configurable: true,
  value: (data) => {
    window.asked.push("share " + data.title + " " + data.url);
    return Promise.resolve();
  },
});
"""

NO_SHARE_SHEET = (
    'Object.defineProperty(navigator, "share", {configurable: true, value: undefined});'
)


def _new_game(page: Page, server: str) -> str:
    """Starts a pagat game for two teams and opens its scoreboard; returns the view link."""
    page.goto(server + "/games/new")
    page.get_by_role("button", name="Start game").last.click()
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]{43}/deals/1$"))
    page.wait_for_load_state("load")
    page.locator(".crumbs a").first.click()
    # Deal 1 holds a share offer of its own: read the link on the scoreboard, once it is there.
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]{43}$"))
    page.wait_for_load_state("load")
    return page.locator("#view-link").input_value()


@pytest.mark.browser
def test_the_screen_stays_awake_while_the_game_is_shown(
    browser: Browser, migrated_server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.add_init_script(STAND_INS)
    try:
        page = context.new_page()
        page.goto(migrated_server + "/games/new")
        assert page.evaluate("window.asked") == []  # not on pages outside a game

        _new_game(page, migrated_server)
        page.wait_for_function("window.asked.length === 1")
        assert page.evaluate("window.asked") == ["wake-lock screen"]

        page.evaluate("window.setHidden(true)")
        page.wait_for_function("window.asked.length === 2")
        page.evaluate("window.setHidden(false)")
        page.wait_for_function("window.asked.length === 3")

        assert page.evaluate("window.asked") == ["wake-lock screen", "release", "wake-lock screen"]
    finally:
        context.close()


@pytest.mark.browser
def test_the_scoreboard_says_who_deals_next_and_reads_large_from_across_the_table(
    browser: Browser, migrated_server: str, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        _new_game(page, migrated_server)
        turn = page.locator(".totals .turn")

        expect(turn.locator(".turn-title")).to_have_text("Next: deal 1")
        expect(turn.locator("dt")).to_have_text(["Dealer", "Plays first"])
        expect(turn.locator("dd")).to_have_text(
            ["a player of Team 1", "the player of Team 2 on the dealer's left"]
        )
        expect(turn).to_be_in_viewport()
        expect(page.locator(".big-totals")).to_be_hidden()

        toggle = page.get_by_role("button", name="Large type")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".totals .sheet")).to_be_hidden()
        totals = page.locator(".big-total")
        expect(totals).to_have_text(["0", "0"])
        assert totals.first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 40
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=artifacts_dir / "table-mode-large.png")

        page.reload()  # the live poll reloads the page: the choice stays
        expect(page.get_by_role("button", name="Large type")).to_have_attribute(
            "aria-pressed", "true"
        )
        page.get_by_role("button", name="Large type").click()
        expect(page.locator(".totals .sheet")).to_be_visible()

        page.goto(page.url + "/deals/1")
        expect(page.locator(".turn dd")).to_have_text(
            ["a player of Team 1", "the player of Team 2 on the dealer's left"]
        )
        expect(page.locator(".turn")).to_be_in_viewport()
    finally:
        context.close()


@pytest.mark.browser
def test_share_opens_the_share_sheet_with_the_view_link(
    browser: Browser, migrated_server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.add_init_script(STAND_INS)
    context.add_init_script(SHARE_SHEET)
    try:
        page = context.new_page()
        view_link = _new_game(page, migrated_server)
        title = page.locator("h1").inner_text()

        page.get_by_role("button", name="Share", exact=True).click()

        page.wait_for_function("window.asked.some(a => a.startsWith('share'))")
        assert f"share {title} {view_link}" in page.evaluate("window.asked")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("secure", [True, False], ids=["clipboard", "selection"])
def test_without_a_share_sheet_the_link_is_copied_and_says_so(
    browser: Browser, migrated_server: str, artifacts_dir: Path, secure: bool
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    context.add_init_script(NO_SHARE_SHEET)
    if not secure:  # as on a phone opening http://192.168.x.y: no clipboard API there
        context.add_init_script('Object.defineProperty(window, "isSecureContext", {value: false});')
    try:
        page = context.new_page()
        view_link = _new_game(page, migrated_server)

        page.get_by_role("button", name="Copy link").click()

        expect(page.get_by_role("status").filter(has_text="Link copied.")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == view_link
        page.get_by_role("button", name="Copy link").scroll_into_view_if_needed()
        page.screenshot(path=artifacts_dir / f"table-mode-copied-{secure}.png")
    finally:
        context.close()
