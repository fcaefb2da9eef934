"""A whole game at the table the way `make run` reaches the phones: plain http, through a host
name that is not the machine itself (Chromium maps ``table.test`` to 127.0.0.1), so that the
browser gives the pages no service worker. Two phones (390x844 and 360x640); the first one
loses the network in the middle of deal 2 and of deal 3 (``context.set_offline``).

Each save kept on the phone shows its state beside the Save button, the phone is told to keep
the page open, and once the network is back the deal ends where a save with the network ends:
the scoreboard with "Deal N saved". The server and the second phone then have every deal once.
Screenshots go to tests/artifacts/plain-http-*.png.
"""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium_setup import CHROMIUM, CHROMIUM_ARGS
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_offline_on_a_phone import fill_deal, server_json, stored_deals
from werkzeug.serving import make_server

from bench.bench_entry import DEALS as BENCH_DEALS

HOST = "table.test"
ARGS = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
FIRST_PHONE = {"width": 390, "height": 844}
SECOND_PHONE = {"width": 360, "height": 640}
# The live poll asks every 5 s: a second phone sees a deal within one or two polls.
FOLLOWS = 30_000

# The four pagat deals of the entry bench: the "went out" choice's value (a side's index, or
# "stock"), then each side's numbers by field.
DEALS: tuple[tuple[str, dict[str, int], dict[str, int]], ...] = tuple(
    ("stock" if out is None else str(out), *sides) for out, *sides in BENCH_DEALS
)


@pytest.fixture
def table_server(migrated_app: Flask) -> Iterator[tuple[str, str]]:
    """The app on a loopback port, reached by the phones as http://table.test:<port>; yields
    (the phones' address, the loopback address the test itself reads the server at)."""
    server = make_server("127.0.0.1", 0, migrated_app, threaded=True)
    migrated_app.config["PUBLIC_URL"] = f"http://{HOST}:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield migrated_app.config["PUBLIC_URL"], f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture
def table_browser(browser: Browser) -> Iterator[Browser]:
    """Chromium that resolves table.test to this machine, as phones resolve its Wi-Fi address."""
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    launched = browser.browser_type.launch(executable_path=executable, headless=True, args=ARGS)
    yield launched
    launched.close()


def phone(browser: Browser, viewport: dict[str, int]) -> BrowserContext:
    return browser.new_context(viewport=viewport, locale="en-US")


def values_of(deal: tuple[str, dict[str, int], dict[str, int]]) -> dict[str, str]:
    _out, *sides = deal
    return {
        f"sides-{index}-{name}": str(value)
        for index, side in enumerate(sides)
        for name, value in side.items()
    }


def halves(values: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    names = list(values)
    middle = len(names) // 2
    return {n: values[n] for n in names[:middle]}, {n: values[n] for n in names[middle:]}


def start_game(page: Page, base: str) -> str:
    page.goto(base + "/games/new")
    page.get_by_label("Partnership (pagat.com)").check()
    page.get_by_label("Team 1", exact=True).fill("Ann & Bob")
    page.get_by_label("Team 2", exact=True).fill("Cy & Di")
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url(re.compile(r"/g/[^/]+/deals/1$"))
    return page.url.rsplit("/deals/", 1)[0]


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly within the screen as it is scrolled now."""
    return bool(
        page.locator(selector).evaluate(
            """el => { const r = el.getBoundingClientRect();
                return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"""
        )
    )


def expect_saved(page: Page, game: str, number: int) -> None:
    """Where a save with the network ends: the scoreboard, "Deal N saved", Undo."""
    page.wait_for_url(game)
    expect(page.locator(".just-saved")).to_contain_text(f"Deal {number} saved.")
    expect(page.locator(".just-saved").get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("another phone")


def totals_of(server: str, deals: list[dict[str, object]]) -> tuple[int, int]:
    """The game's totals as the rules core scores the stored deals."""
    totals = [0, 0]
    for deal in deals:
        scored = server_json(
            f"{server}/api/v1/score",
            {
                "variant": "pagat",
                "deal": deal["number"],
                "sides": deal["sides"],
                "stock_ran_out": deal.get("stock_ran_out", False),
            },
        )
        for index, side in enumerate(scored["sides"]):  # type: ignore[arg-type]
            totals[index] += side["total"]
    return totals[0], totals[1]


def save_with_the_network_cut(
    context: BrowserContext, page: Page, number: int, shots: Path, change: str | None = None
) -> None:
    """Types deal ``number``, the network lost halfway, and saves it on the phone. With
    ``change``, one more field is changed after the first Save and saved again."""
    out, *_sides = DEALS[number - 1]
    first, rest = halves(values_of(DEALS[number - 1]))
    expect(page).to_have_url(re.compile(rf"/deals/{number}$"))
    page.wait_for_load_state("load")  # the scripts that keep a deal without the network have run
    page.locator(f"input[name=went_out][value='{out}']").check()
    fill_deal_fields(page, first)
    context.set_offline(True)
    fill_deal_fields(page, rest)
    save = page.locator("button[name=save]")
    save.click()

    status = page.locator("#save-status")
    expect(status).to_have_text(f"Deal {number}: saved on this phone, not sent yet.")
    expect(save).to_be_disabled()  # the same deal cannot be kept twice
    note = page.locator(".network-note")
    expect(note).to_contain_text("Keep this page open until the network is back")
    page.screenshot(path=shots / f"plain-http-deal-{number}-kept.png")
    assert in_view(page, "#save-status") and in_view(page, ".network-note")
    for where in ("0", "document.documentElement.scrollHeight"):  # the top, the bottom
        page.evaluate(f"window.scrollTo(0, {where})")
        assert in_view(page, "#save-status") and in_view(page, ".network-note"), where

    if change is not None:
        page.locator(f"input[name='{change}']").fill("0")
        expect(save).to_be_enabled()
        save.click()
        expect(save).to_be_disabled()
        expect(status).to_have_text(f"Deal {number}: saved on this phone, not sent yet.")
    kept = page.evaluate("window.offlineStore.all()")
    assert [record["number"] for record in kept] == [number]
    context.set_offline(False)


def fill_deal_fields(page: Page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.locator(f"input[name='{name}']").fill(value)


@pytest.mark.browser
def test_a_whole_game_on_plain_http_with_the_network_cut_in_deals_2_and_3(
    table_browser: Browser, table_server: tuple[str, str], artifacts_dir: Path
) -> None:
    base, server = table_server
    first_context = phone(table_browser, FIRST_PHONE)
    second_context = phone(table_browser, SECOND_PHONE)
    first, second = first_context.new_page(), second_context.new_page()

    game = start_game(first, base)
    assert game.startswith(f"http://{HOST}:")
    assert first.evaluate("window.isSecureContext") is False
    assert first.evaluate("'serviceWorker' in navigator") is False  # as on a phone on the Wi-Fi
    second.goto(game)
    expect(second.locator("main")).to_contain_text("No deal entered yet.")

    # Deal 1, with the network.
    fill_deal(first, values_of(DEALS[0]), went_out=0)
    first.locator("button[name=save]").click()
    expect_saved(first, game, 1)
    expect(second.locator("#deal-1")).to_be_visible(timeout=FOLLOWS)
    first.screenshot(path=artifacts_dir / "plain-http-deal-1-saved.png")

    # Deal 2: the network goes halfway through the typing.
    first.locator(".just-saved").get_by_role("link", name="Enter deal 2").click()
    save_with_the_network_cut(first_context, first, 2, artifacts_dir)
    expect_saved(first, game, 2)
    first.screenshot(path=artifacts_dir / "plain-http-deal-2-sent.png")
    expect(second.locator("#deal-2")).to_be_visible(timeout=FOLLOWS)
    second.screenshot(path=artifacts_dir / "plain-http-second-phone-deal-2.png")

    # Deal 3: the same, and a number corrected while the deal waits on the phone.
    first.locator(".just-saved").get_by_role("link", name="Enter deal 3").click()
    save_with_the_network_cut(
        first_context, first, 3, artifacts_dir, change="sides-0-red_threes_down"
    )
    expect_saved(first, game, 3)
    expect(second.locator("#deal-3")).to_be_visible(timeout=FOLLOWS)

    # Deal 4, on the second phone, once the page it reloaded for deal 3 has loaded: until
    # then the browser may still restore its scroll position and move the link from under
    # the tap.
    second.wait_for_load_state("load")
    second.get_by_role("link", name="Enter deal 4").first.click()
    expect(second).to_have_url(re.compile(r"/deals/4$"))
    fill_deal(second, values_of(DEALS[3]), went_out=0)
    second.locator("button[name=save]").click()
    expect_saved(second, game, 4)
    expect(first.locator("#deal-4")).to_be_visible(timeout=FOLLOWS)
    second.screenshot(path=artifacts_dir / "plain-http-second-phone-end.png", full_page=True)

    deals = stored_deals(server, game.replace(base, server))
    assert [deal["number"] for deal in deals] == [1, 2, 3, 4]
    for deal, (out, *sides) in zip(deals, DEALS, strict=True):
        stored_sides = deal["sides"]  # type: ignore[index]
        expected = [dict(side) for side in sides]
        if deal["number"] == 3:
            expected[0]["red_threes_down"] = 0  # corrected while kept on the phone
        for stored_side, typed in zip(stored_sides, expected, strict=True):
            assert {name: stored_side[name] for name in typed} == typed
        went_out = [side["went_out"] for side in stored_sides]
        assert went_out == [out == str(index) for index in range(2)]
    totals = totals_of(server, deals)
    for page in (first, second):
        assert page.locator("section.deal").count() == 4
        big = page.locator(".big-totals .big-total").all_inner_texts()
        assert tuple(int(text) for text in big) == totals
    assert first.evaluate("window.offlineStore.all()") == []
    first_context.close()
    second_context.close()


@pytest.mark.browser
def test_undo_tapped_without_a_network_changes_nothing_and_says_so(
    table_browser: Browser, table_server: tuple[str, str], artifacts_dir: Path
) -> None:
    base, server = table_server
    context = phone(table_browser, FIRST_PHONE)
    page = context.new_page()
    game = start_game(page, base)
    fill_deal(page, values_of(DEALS[0]), went_out=0)
    page.locator("button[name=save]").click()
    expect_saved(page, game, 1)

    context.set_offline(True)
    expect(page.locator(".network-note")).to_contain_text("Keep this page open")
    page.locator(".just-saved").get_by_role("button", name="Undo").click()
    expect(page.locator(".just-saved .not-posted")).to_have_text(
        "No network: nothing was changed. Try again when the network is back."
    )
    assert page.url == game
    page.screenshot(path=artifacts_dir / "plain-http-undo-offline.png")
    assert [deal["number"] for deal in stored_deals(server, game.replace(base, server))] == [1]

    context.set_offline(False)
    page.locator(".just-saved").get_by_role("button", name="Undo").click()
    page.wait_for_url(game + "/deals/1")
    assert stored_deals(server, game.replace(base, server)) == []
    context.close()
