"""The app at a table whose network comes and goes: a phone-sized Chromium with a service
worker, cut from the network with Chromium's offline mode (``context.set_offline``).

Fields are found by their names (``sides-0-meld_points``), whatever the form's layout.
"""

import json
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Locator, Page, expect

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.variants import get_variant

PHONE = {"width": 390, "height": 844}

# A pagat deal 1 for two teams; the rules core scores it 4595 to 1280 (checked below through
# the server's score API, then found on the server's scoreboard).
DEAL_1 = {
    "sides-0-meld_points": "1210",
    "sides-0-clean_books": "2",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "600",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "120",
}
TOTALS_1 = (4595, 1280)


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, locale="en-US", service_workers="allow")
    yield context
    context.close()


def start_game(page: Page, server: str) -> str:
    """A pagat game for two teams; returns its scoreboard's address (the edit link)."""
    page.goto(server + "/games/new")
    page.get_by_label("Team 1", exact=True).fill("Ann & Bob")
    page.get_by_label("Team 2", exact=True).fill("Cy & Di")
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url(re.compile(r"/g/[^/]+/deals/1$"))
    return page.url.rsplit("/deals/", 1)[0]


def open_with_pages_kept(page: Page, url: str) -> None:
    """Open a game's page and wait until the worker has kept the game's pages."""
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-pages-kept", re.compile(r"\d"))


def game_of_new_house_rules(
    page: Page, server: str, name: str, set_rules: Callable[[Page], None]
) -> str:
    """House rules based on pagat, made on the editor by `set_rules` and saved as `name`, and a
    game of them started and opened with its pages kept for the network's loss: its address."""
    page.goto(server + "/house/new?base=pagat")
    page.get_by_label("Name of your rules").fill(name)
    set_rules(page)
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator(".flash-success")).to_contain_text("Your rules are saved.")
    page.goto(server + "/games/new")
    page.get_by_text("Other rules").click()
    page.get_by_label(name).check()
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url(re.compile(r"/g/[^/]+/deals/1$"))
    game = page.url.rsplit("/deals/", 1)[0]
    open_with_pages_kept(page, game)
    return game


def fill_deal(page: Page, values: dict[str, str], went_out: int = 0) -> None:
    page.locator(f"input[name=went_out][value='{went_out}']").check()
    for name, value in values.items():
        page.locator(f"input[name='{name}']").fill(value)


def server_json(url: str, body: dict[str, object] | None = None) -> dict[str, object]:
    """An answer of the server itself, from outside the browser (no worker, no cache)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def server_page(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode()


def stored_deals(server: str, game_url: str) -> list[dict[str, object]]:
    token = game_url.rsplit("/g/", 1)[1]
    document = server_json(f"{server}/api/v1/games/{token}")
    return document["games"][0]["deals"]  # type: ignore[index, no-any-return]


@pytest.mark.browser
def test_a_deal_saved_offline_is_kept_on_the_phone_then_sent_when_the_network_returns(
    phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()
    game = start_game(page, migrated_server)
    open_with_pages_kept(page, game)

    phone.set_offline(True)
    page.reload()
    expect(page.locator(".offline-status")).to_contain_text("No network")
    page.get_by_role("link", name="Enter deal 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    fill_deal(page, DEAL_1)
    page.locator("button[name=save]").click()

    page.wait_for_url(game + "#kept-on-this-phone")
    expect(page.locator(".offline-status")).to_contain_text(
        "Deal 1: saved on this phone, not sent yet."
    )
    assert stored_deals(migrated_server, game) == []

    phone.set_offline(False)
    expect(page.locator(".offline-status")).not_to_contain_text("not sent yet")
    page.wait_for_url(game)

    deals = stored_deals(migrated_server, game)
    assert len(deals) == 1
    sides = deals[0]["sides"]  # type: ignore[index]
    assert sides[0]["meld_points"] == 1210 and sides[1]["cards_left_points"] == 120
    assert sides[0]["went_out"] is True
    scored = server_json(
        f"{migrated_server}/api/v1/score", {"variant": "pagat", "deal": 1, "sides": sides}
    )
    assert tuple(side["total"] for side in scored["sides"]) == TOTALS_1  # type: ignore[union-attr]
    board = server_page(game)
    assert all(str(total) in board for total in TOTALS_1)
    expect(page.locator("main")).to_contain_text(str(TOTALS_1[0]))
    assert page.evaluate("window.offlineStore.all()") == []


@pytest.mark.browser
def test_a_deal_kept_offline_that_another_phone_entered_meanwhile_opens_the_conflict_page(
    browser: Browser, phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()
    game = start_game(page, migrated_server)
    open_with_pages_kept(page, game)
    phone.set_offline(True)
    page.goto(game + "/deals/1")
    fill_deal(page, DEAL_1)
    page.locator("button[name=save]").click()
    expect(page.locator(".offline-status")).to_contain_text("not sent yet")

    other = browser.new_context(viewport=PHONE, locale="en-US")
    other_page = other.new_page()
    other_page.goto(game + "/deals/1")
    fill_deal(other_page, {**DEAL_1, "sides-0-meld_points": "900"})
    other_page.locator("button[name=save]").click()
    other_page.wait_for_url(re.compile(re.escape(game) + "(#.*)?$"))
    other.close()

    phone.set_offline(False)
    clash = page.locator(".offline-status")
    expect(clash).to_contain_text("Deal 1 was changed on another phone meanwhile")
    assert stored_deals(migrated_server, game)[0]["sides"][0]["meld_points"] == 900  # type: ignore[index]
    # Chromium lifts the offline mode of the worker a moment after the page's: until then the
    # worker still answers from its cache (the scoreboard before deal 1).
    expect(poll_reload(page, "Enter deal 2")).to_be_visible()
    clash.get_by_role("button", name="Show deal 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1 was changed on another phone")
    expect(page.locator("main")).to_contain_text("made from version 0")
    expect(page.locator("main")).to_contain_text("1210")


def poll_reload(page: Page, link: str, seconds: float = 60) -> Locator:
    """The page reloaded until it shows the link, for a minute at most: how soon Chromium lifts
    the worker's offline mode depends on how busy the machine is."""
    found = page.get_by_role("link", name=link)
    deadline = time.monotonic() + seconds
    while not found.count() and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        page.reload()
    return found


def typed(page: Page) -> dict[str, str]:
    return {name: page.locator(f"input[name='{name}']").input_value() for name in DEAL_1}


def expect_typed(page: Page, values: dict[str, str]) -> None:
    """Each field comes to hold its value: a draft is put back after the page has loaded."""
    for name, value in values.items():
        expect(page.locator(f"input[name='{name}']")).to_have_value(value)


@pytest.mark.browser
def test_a_draft_survives_a_reload_back_a_language_change_and_a_lost_network(
    phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()
    game = start_game(page, migrated_server)
    deal = game + "/deals/1"
    fill_deal(page, DEAL_1, went_out=1)

    page.reload()
    expect(page.locator(".draft-status")).to_have_text(
        re.compile("What you typed before is back in the form.")
    )
    expect_typed(page, DEAL_1)
    expect(page.locator("input[name=went_out][value='1']")).to_be_checked()

    page.locator("input[name='sides-1-meld_points']").fill("650")
    page.goto(game)
    page.go_back()
    page.wait_for_url(deal)
    expect_typed(page, {**DEAL_1, "sides-1-meld_points": "650"})

    page.locator("#language-select").select_option("fr")
    page.get_by_role("button", name="Change").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Donne 1")
    expect(page.locator(".draft-status")).to_contain_text("Ce que vous aviez saisi")
    expect_typed(page, {**DEAL_1, "sides-1-meld_points": "650"})

    expect(page.locator("html")).to_have_attribute("data-pages-kept", re.compile(r"\d"))
    phone.set_offline(True)
    page.locator("input[name='sides-0-clean_books']").fill("3")
    page.reload()
    expect(page.locator(".offline-status")).to_contain_text("Pas de réseau")
    expect(page.locator(".draft-status")).to_contain_text("Ce que vous aviez saisi")
    expect_typed(page, {**DEAL_1, "sides-1-meld_points": "650", "sides-0-clean_books": "3"})


@pytest.mark.browser
def test_cancel_asks_first_when_something_was_typed(
    phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()
    game = start_game(page, migrated_server)
    deal = game + "/deals/1"
    asked: list[str] = []
    accept = [False]

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if accept[0]:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    cancel = page.locator("#deal-form a", has_text="Cancel")
    cancel.click()
    page.wait_for_url(game)
    assert asked == []  # nothing typed: no question

    page.goto(deal)
    fill_deal(page, {"sides-0-meld_points": "1210"})
    cancel.click()
    assert asked == ["Leave this deal? What you typed will be lost."]
    assert page.url == deal
    assert typed(page)["sides-0-meld_points"] == "1210"

    accept[0] = True
    cancel.click()
    page.wait_for_url(game)
    assert len(asked) == 2
    page.goto(deal)
    assert typed(page)["sides-0-meld_points"] == ""
    expect(page.locator(".draft-status")).to_have_count(0)


@pytest.mark.browser
def test_the_worker_keeps_only_the_games_opened_here_and_never_shows_one_for_another(
    browser: Browser, phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()
    ours = start_game(page, migrated_server)
    open_with_pages_kept(page, ours)
    other = browser.new_context(viewport=PHONE, locale="en-US", service_workers="block")
    theirs = start_game(other.new_page(), migrated_server)
    other.close()

    kept = page.evaluate(
        "caches.open('pages').then(c => c.keys()).then(keys => keys.map(k => k.url))"
    )
    games = {re.sub(r"/deals/\d+$", "", url) for url in kept if "/g/" in url}
    assert games == {ours}
    assert migrated_server + "/rules/pagat" in kept

    phone.set_offline(True)
    page.goto(theirs)
    expect(page.get_by_role("heading", level=1)).to_have_text("Not on this phone yet")
    page.goto(ours + "/deals/3")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 3")
    page.goto(migrated_server + "/rules/pagat")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Partnership")


@pytest.mark.browser
def test_without_a_worker_a_deal_saved_offline_stays_on_the_phone_until_the_network_returns(
    browser: Browser, migrated_server: str
) -> None:
    """As on a plain-HTTP address of a local network, where browsers run no service worker."""
    context = browser.new_context(viewport=PHONE, locale="en-US", service_workers="block")
    page = context.new_page()
    game = start_game(page, migrated_server)
    fill_deal(page, DEAL_1)

    context.set_offline(True)
    page.locator("button[name=save]").click()
    expect(page.locator("#save-status")).to_have_text("Deal 1: saved on this phone, not sent yet.")
    expect(page.locator(".offline-status")).to_contain_text("Keep this page open")
    assert stored_deals(migrated_server, game) == []

    context.set_offline(False)
    page.wait_for_url(game)  # where a save with the network ends
    expect(page.locator(".just-saved")).to_contain_text("Deal 1 saved.")
    sides = stored_deals(migrated_server, game)[0]["sides"]  # type: ignore[index]
    assert [side["meld_points"] for side in sides] == [1210, 600]
    assert all(str(total) in server_page(game) for total in TOTALS_1)
    context.close()


@pytest.mark.browser
def test_a_deal_of_house_rules_saved_offline_keeps_its_new_lines(
    phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()

    def sevens_night(page: Page) -> None:
        page.get_by_label("Find a rule").fill("special book")
        page.get_by_label("Rank of the special book").select_option("7")
        page.get_by_label("Special book bonus").fill("1000")
        page.get_by_label("Find a rule").fill("concealed")
        page.get_by_label("Extra bonus for going out concealed").fill("200")
        # A side of partners goes out concealed only where it need not wait for a partner's
        # foot.
        page.get_by_label("Find a rule").fill("reached the foot")
        page.get_by_label("A partner must have reached the foot before going out").uncheck()

    game = game_of_new_house_rules(page, migrated_server, "Sevens night", sevens_night)

    phone.set_offline(True)
    page.reload()
    page.get_by_role("link", name="Enter deal 1").click()
    fill_deal(page, {**DEAL_1, "sides-0-clean_books": "1", "sides-0-special_books": "1"})
    page.locator("input[name=went_out_concealed]").check()
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")
    assert stored_deals(migrated_server, game) == []
    # The kept scoreboard counts it with the house rules' prices: the book of sevens at 1000,
    # going out concealed 200 more.
    kept_totals = page.locator(".big-totals.kept .big-total")
    expect(kept_totals).to_have_text([str(4595 + 500 + 200), str(TOTALS_1[1])])

    phone.set_offline(False)
    page.wait_for_url(game)

    (deal,) = stored_deals(migrated_server, game)
    side = deal["sides"][0]  # type: ignore[index]
    assert side["special_books"] == 1 and side["went_out_concealed"] is True
    # 4595 under pagat, with one clean book of sevens at 1000 instead of 500, and 200 concealed
    expect(page.locator("main")).to_contain_text(str(4595 + 500 + 200))


@pytest.mark.browser
def test_the_scoreboard_kept_by_the_worker_counts_a_deal_kept_offline_and_shows_one_next_deal(
    phone: BrowserContext, migrated_server: str, artifacts_dir: Path
) -> None:
    page = phone.new_page()
    game = start_game(page, migrated_server)
    fill_deal(page, DEAL_1)
    page.locator("button[name=save]").click()
    page.wait_for_url(game)
    expect(page.locator(".just-saved")).to_contain_text("Deal 1 saved.")
    open_with_pages_kept(page, game)

    phone.set_offline(True)
    page.locator(".just-saved").get_by_role("link", name="Enter deal 2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")
    fill_deal(page, {"sides-0-meld_points": "500", "sides-1-meld_points": "300"}, went_out=1)
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")

    expect(page.locator(".offline-status")).to_contain_text(
        "Deal 2: saved on this phone, not sent yet."
    )
    next_deal = page.get_by_role("link", name=re.compile(r"^Enter deal \d$"))
    expect(next_deal).to_have_count(1)
    expect(next_deal).to_have_text("Enter deal 3")
    expect(page.get_by_role("button", name="Undo")).to_be_hidden()  # deal 1's, from the copy
    expect(page.locator(".kept-next")).to_contain_text(
        "These totals count deal 2, saved on this phone and not sent yet."
    )
    # Deal 2 as the rules core scores it, with the books going out needs that the form filled
    # in for the side that went out: its totals counted in, its row marked as kept.
    out = SideEntry(meld_points=300, clean_books=2, dirty_books=2, wild_books=1, went_out=True)
    kept = (SideEntry(meld_points=500), out)
    deal_2 = [side.total for side in score_deal(DealEntry(get_variant("pagat"), 2, kept))]
    totals = [before + added for before, added in zip(TOTALS_1, deal_2, strict=True)]
    assert deal_2 == [500, 300 + 2 * 500 + 2 * 300 + 1500 + 100]
    big = page.locator(".big-totals .big-total").all_inner_texts()
    assert [int(text) for text in big] == totals
    expect(page.locator(".big-totals")).to_have_class(re.compile(r"\bkept\b"))
    row = page.locator("#totals tr.kept")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text("2")
    expect(row.locator("td")).to_have_text(
        [f"+{added} {total}" for added, total in zip(deal_2, totals, strict=True)]
    )
    expect(page.locator("#totals tfoot td")).to_have_text(
        [re.compile(rf"\b{totals[0]}$"), re.compile(rf"\b{totals[1]}$")]
    )
    expect(page.locator("#totals .result")).to_be_hidden()  # the server's sentence is older
    page.screenshot(path=artifacts_dir / "offline-worker-scoreboard-kept.png")


@pytest.mark.browser
def test_a_deal_edited_offline_counts_in_the_kept_scoreboard_instead_of_its_saved_numbers(
    phone: BrowserContext, migrated_server: str
) -> None:
    page = phone.new_page()
    game = start_game(page, migrated_server)
    fill_deal(page, DEAL_1)
    page.locator("button[name=save]").click()
    page.wait_for_url(game)
    open_with_pages_kept(page, game)

    phone.set_offline(True)
    page.goto(game + "/deals/1")
    expect(page.locator("input[name='sides-0-meld_points']")).to_have_value("1210")
    page.locator("input[name='sides-0-meld_points']").fill("1010")
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")

    expect(page.locator(".kept-next")).to_contain_text(
        "These totals count deal 1, saved on this phone and not sent yet."
    )
    edited = (TOTALS_1[0] - 200, TOTALS_1[1])  # 200 fewer melded points
    expect(page.locator(".big-totals.kept .big-total")).to_have_text([str(t) for t in edited])
    row = page.locator("#totals tr.kept")
    expect(row.locator("th")).to_have_text("1")
    expect(row.locator("td")).to_have_text([f"+{t} {t}" for t in edited])
    assert stored_deals(migrated_server, game)[0]["sides"][0]["meld_points"] == 1210  # type: ignore[index]


@pytest.mark.browser
def test_a_deal_kept_while_the_server_is_out_of_reach_counts_in_the_kept_scoreboard(
    phone: BrowserContext, migrated_server: str
) -> None:
    """The phone believes it is online (its Wi-Fi is up) but the server does not answer."""
    page = phone.new_page()
    game = start_game(page, migrated_server)
    open_with_pages_kept(page, game)
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.goto(game + "/deals/1")
    fill_deal(page, DEAL_1)

    phone.route(re.compile(r"/g/[^/]+(/deals/\d+)?$"), lambda route: route.abort())
    assert page.evaluate("navigator.onLine") is True
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")
    expect(page.locator(".kept-next")).to_contain_text(
        "These totals count deal 1, saved on this phone and not sent yet."
    )
    expect(page.locator(".big-totals.kept .big-total")).to_have_text([str(t) for t in TOTALS_1])
    assert stored_deals(migrated_server, game) == []


@pytest.mark.browser
def test_a_deal_kept_offline_that_reaches_the_target_score_offers_no_further_deal(
    phone: BrowserContext, migrated_server: str, artifacts_dir: Path
) -> None:
    page = phone.new_page()

    def first_to_4000(page: Page) -> None:
        page.get_by_label("Find a rule").fill("target")
        page.get_by_label("Target score").fill("4000")

    game = game_of_new_house_rules(page, migrated_server, "First to 4000", first_to_4000)

    phone.set_offline(True)
    page.reload()
    page.get_by_role("link", name="Enter deal 1").click()
    fill_deal(page, DEAL_1)
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")

    # 4595 reaches 4000: the game is over once deal 1 is sent, so no deal 2 is offered.
    expect(page.locator(".big-totals.kept .big-total")).to_have_text([str(t) for t in TOTALS_1])
    expect(page.locator(".kept-next")).to_contain_text(
        "With the deals saved on this phone a side reaches the target score of 4000: the game "
        "is over, and no further deal is played."
    )
    expect(page.get_by_role("link", name=re.compile(r"^Enter deal \d+$"))).to_have_count(0)
    page.screenshot(path=artifacts_dir / "offline-kept-deal-reaches-the-target.png")

    phone.set_offline(False)
    page.wait_for_url(game)
    expect(page.locator(".result-final")).to_contain_text("Team 1 won with 4,595 points.")
    page.goto(game + "/deals/2")
    expect(page.get_by_role("heading", level=1)).to_have_text("The game is over")
    expect(page.locator(".game-over")).to_contain_text(
        "The game is over: Team 1 reached the target score of 4,000 in deal 1 and won, so "
        "deal 2 is not played."
    )
    expect(page.locator("input[name='sides-0-meld_points']")).to_have_count(0)
