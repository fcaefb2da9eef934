"""A whole four-deal game played on a phone-sized page, as a table would keep it."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

PHONE = {"width": 390, "height": 844}

ANN = "Ann & Bob"
CY = "Cy & Di"


def side(page: Page, name: str) -> Locator:
    return page.locator("fieldset.side").filter(has=page.locator("legend", has_text=name))


def fill_side(page: Page, name: str, **values: int) -> None:
    """Type each value into the field of that side whose label names it."""
    card = side(page, name)
    labels = {
        "meld": "Melded cards (points)",
        "clean": "Clean books",
        "dirty": "Dirty books",
        "wild": "Wild books",
        "red_down": "Red threes laid down",
        "red_held": "Red threes still held",
        "left": "Cards left (points)",
    }
    for key, value in values.items():
        card.get_by_label(labels[key], exact=True).fill(str(value))


def count(card: Locator, counter: int, kind: str) -> Locator:
    """The count input of a card kind in the side's first (melded) or second (left) counter."""
    return (
        card.locator(".counter").nth(counter).get_by_role("spinbutton", name=re.compile("^" + kind))
    )


def save(page: Page, button: str = "Save deal") -> None:
    page.get_by_role("button", name=button).click()


def assert_fits_phone(page: Page) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"


def assert_big_touch_targets(page: Page) -> None:
    for control in page.locator(
        "main button:visible, main a.button:visible, main .rule-link:visible, "
        "main summary:visible, main input[type=number]:visible, main select:visible"
    ).all():
        box = control.bounding_box()
        assert box is not None and box["height"] >= 44, control.evaluate("e => e.outerHTML")


@pytest.mark.browser
def test_a_whole_game_on_a_phone(page: Page, migrated_server: str, artifacts_dir: Path) -> None:
    page.goto(migrated_server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Games")
    page.get_by_role("link", name="New game").click()

    # Start: the partnership game is chosen, at two teams of two.
    expect(page.get_by_label("Partnership (pagat.com)")).to_be_checked()
    expect(page.get_by_label("Table")).to_have_value("2x4")
    page.get_by_label("Team 1", exact=True).fill(ANN)
    page.get_by_label("Team 2", exact=True).fill(CY)
    page.get_by_label("Game name (optional)").fill("Friday")
    assert_fits_phone(page)
    page.screenshot(path=artifacts_dir / "game-1-new.png", full_page=True)
    page.get_by_role("button", name="Start game").last.click()

    # Deal 1: a going-out error, shown beside the field, then fixed.
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    expect(page.locator("#deal-facts")).to_contain_text("at least 50 points")
    expect(page.locator("#deal-facts")).to_contain_text(
        "2 clean books, 2 dirty books, and 1 wild book"
    )
    page.get_by_label(f"{ANN} went out").check()
    fill_side(page, ANN, meld=1210, clean=1, dirty=2, wild=1, red_down=2, left=15)
    fill_side(page, CY, meld=600, clean=1, dirty=1, red_down=1, red_held=1, left=120)
    assert_fits_phone(page)
    assert_big_touch_targets(page)
    save(page)

    expect(page.locator("#problems")).to_contain_text("Nothing was saved")
    clean = side(page, ANN).get_by_label("Clean books", exact=True)
    expect(clean).to_have_attribute("aria-invalid", "true")
    expect(side(page, ANN).locator(".field-error")).to_contain_text(
        "went out with 1 clean book, but going out in deal 1 needs at least 2"
    )
    expect(side(page, ANN).get_by_label("Melded cards (points)", exact=True)).to_have_value("1210")
    page.screenshot(path=artifacts_dir / "game-2-deal-1-error.png", full_page=True)
    side(page, ANN).get_by_role("button", name="One more: Clean books").click()
    expect(clean).to_have_value("2")
    save(page)
    expect(page.locator(".flash-success")).to_have_text("Deal 1 saved.")

    # Deal 2: the stock ran out; the melded points and the cards left come from the counter.
    page.get_by_role("link", name="Enter deal 2").click()
    expect(page.locator("#deal-facts")).to_contain_text("at least 90 points")
    page.get_by_label("Nobody: the stock ran out").check()
    ann = side(page, ANN)
    ann.get_by_text("Count the melded cards").click()
    ann.get_by_role("button", name="One more: Jokers").click()
    ann.get_by_role("button", name="One more: Jokers").click()
    count(ann, 0, "Aces").fill("6")
    count(ann, 0, "Kings to eights").fill("20")
    count(ann, 0, "Sevens to fours").fill("16")
    expect(ann.get_by_label("Melded cards (points)", exact=True)).to_have_value("500")
    expect(ann.locator(".count-total").first).to_have_text("Counted: 500 points")
    ann.get_by_text("Count the cards left").click()
    count(ann, 1, "Kings to eights").fill("3")
    count(ann, 1, "Sevens to fours").fill("2")
    expect(ann.get_by_label("Cards left (points)", exact=True)).to_have_value("40")
    fill_side(page, ANN, clean=1, red_down=1)
    fill_side(page, CY, meld=300, dirty=1, left=85)
    page.screenshot(path=artifacts_dir / "game-3-deal-2-counter.png", full_page=True)
    save(page)
    expect(page.locator(".flash-success")).to_have_text("Deal 2 saved.")

    # Deal 3: an error (the partner of the player who went out still holds cards), corrected.
    page.get_by_role("link", name="Enter deal 3").click()
    page.get_by_label(f"{CY} went out").check()
    fill_side(page, ANN, meld=400, clean=1, dirty=1, red_down=1, left=60)
    fill_side(page, CY, meld=1500, clean=2, dirty=2, wild=1, left=0)
    save(page)
    # The server's answer, not the live check typed values already show on the form.
    expect(page.locator("#problems")).to_contain_text("Nothing was saved")
    expect(side(page, CY)).to_contain_text("the points of cards left cannot be 0")
    fill_side(page, CY, meld=1510, left=10)
    save(page)
    expect(page.locator(".flash-success")).to_have_text("Deal 3 saved.")

    # Deal 4.
    page.get_by_role("link", name="Enter deal 4").click()
    expect(page.locator("#deal-facts")).to_contain_text("at least 150 points")
    page.get_by_label(f"{ANN} went out").check()
    fill_side(page, ANN, meld=1800, clean=3, dirty=2, wild=1, red_down=2, left=20)
    fill_side(page, CY, meld=700, clean=1, dirty=1, red_held=1, left=150)
    save(page)
    expect(page.locator(".flash-success")).to_have_text("Deal 4 saved.")
    expect(page.locator(".result")).to_have_text(f"{ANN} won with 12,575 points.")

    # Edit deal 2 afterwards: the totals follow.
    page.get_by_role("link", name="Edit deal 2").click()
    expect(page.get_by_label("Nobody: the stock ran out")).to_be_checked()
    expect(side(page, ANN).get_by_label("Melded cards (points)", exact=True)).to_have_value("500")
    fill_side(page, CY, left=45)
    save(page)
    expect(page.locator(".flash-success")).to_have_text("Deal 2 updated.")

    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]{43}#deal-2$"))
    totals = page.locator("table.sheet tfoot td")
    expect(totals).to_have_text(["12575", "7785"])
    expect(page.locator(".result")).to_have_text(f"{ANN} won with 12,575 points.")
    running = page.locator("#deal-4 tr.running td")
    expect(running).to_have_text(["12575", "7785"])
    expect(page.locator("#deal-2 tfoot tr").first.locator("td")).to_have_text(["1060", "555"])
    assert_fits_phone(page)
    assert_big_touch_targets(page)
    page.screenshot(path=artifacts_dir / "game-4-scoreboard.png", full_page=True)

    # The list shows the finished game.
    page.get_by_role("link", name="All games").click()
    finished = page.locator("section", has=page.get_by_role("heading", name="Finished"))
    expect(finished.get_by_role("link", name="Friday")).to_be_visible()
    expect(finished).to_contain_text(f"{ANN} won.")


@pytest.mark.browser
def test_dark_mode_and_no_script_deal_form(
    browser: Browser, migrated_server: str, artifacts_dir: Path
) -> None:
    context = browser.new_context(
        viewport=PHONE, locale="en-US", color_scheme="dark", java_script_enabled=False
    )
    page = context.new_page()
    try:
        page.goto(migrated_server + "/games/new")
        page.get_by_text("Other rules").click()
        page.get_by_label("Steve Simpson").check()
        page.get_by_role("button", name="Show the fields for this table").click()
        expect(page.get_by_label("Table")).to_have_value("2x2")
        expect(page.get_by_label("Player 1", exact=True)).to_be_visible()
        page.get_by_label("Table").select_option("3x3")
        page.get_by_role("button", name="Show the fields for this table").click()
        page.get_by_label("Player 3").fill("Eve")
        page.get_by_role("button", name="Start game").last.click()

        # Simpson: no wild books, an exact-22 count; steppers are plain fields.
        expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
        eve = side(page, "Eve")
        expect(eve.get_by_label("Wild books")).to_have_count(0)
        expect(eve.get_by_label("Players who cut exactly 22")).to_be_visible()
        expect(page.locator("button.step")).to_have_count(0)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(11, 15, 23)"

        page.get_by_label("Eve went out").check()
        eve.get_by_text("Count the melded cards").click()
        count(eve, 0, "Aces").fill("7")
        count(eve, 0, "Kings to eights").fill("14")
        fill_side(page, "Eve", clean=1, dirty=1)
        fill_side(page, "Player 1", meld=60, left=30)
        # Red threes are never laid down here: a player may end holding only red threes,
        # which the table confirms.
        expect(side(page, "Player 2").get_by_label("Red threes laid down")).to_have_count(0)
        fill_side(page, "Player 2", meld=0, red_held=1, left=0)
        save(page)
        expect(page.locator("#problems")).to_contain_text("Please check before saving")
        expect(side(page, "Player 2").locator(".field-warning")).to_contain_text(
            "holds only red threes"
        )
        save(page, "Save anyway")

        expect(page.locator(".flash-success")).to_have_text("Deal 1 saved.")
        page.screenshot(path=artifacts_dir / "game-5-dark-no-script.png", full_page=True)
        eve_column = page.locator("#deal-1 tbody tr").first.locator("td").nth(2)
        expect(eve_column).to_have_text("280")
    finally:
        context.close()


def start_simpson_for_three(page: Page, base: str, script: bool = True) -> None:
    """A Simpson game of three players (Player 1, Player 2, Eve): a form of three sides.
    Without script, the new game's page shows the table's fields when asked."""
    page.goto(base + "/games/new")
    page.get_by_text("Other rules").click()
    page.get_by_label("Steve Simpson").check()
    if not script:
        page.get_by_role("button", name="Show the fields for this table").click()
    page.get_by_label("Table").select_option("3x3")
    if not script:
        page.get_by_role("button", name="Show the fields for this table").click()
    page.get_by_label("Player 3").fill("Eve")
    page.get_by_role("button", name="Start game").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")


@pytest.mark.browser
def test_three_sides_each_get_the_counters_sent_once(page: Page, migrated_server: str) -> None:
    page.set_viewport_size(PHONE)
    start_simpson_for_three(page, migrated_server)
    # The page sends the counters once; the script gives every side its own pair.
    expect(page.locator("fieldset.side details.counter")).to_have_count(6)
    expect(page.locator(".counter-open, #enter-saves")).to_have_count(0)
    eve = side(page, "Eve")
    expect(eve.locator("input[name='sides-2-left_black_three']")).to_have_count(1)
    expect(page.locator("#sides-2-meld_joker")).to_have_count(1)

    page.get_by_label("Eve went out").check()
    eve.get_by_text("Count the melded cards").click()
    eve.get_by_role("button", name="One more: Jokers").click()
    count(eve, 0, "Aces").fill("7")
    count(eve, 0, "Kings to eights").fill("9")
    expect(eve.get_by_label("Melded cards (points)", exact=True)).to_have_value("280")
    expect(eve.locator(".count-total").first).to_have_text("Counted: 280 points")
    # The other sides' counters are their own.
    player_1_meld = side(page, "Player 1").get_by_label("Melded cards (points)", exact=True)
    expect(player_1_meld).to_have_value("")
    fill_side(page, "Eve", clean=1, dirty=1)
    fill_side(page, "Player 1", meld=60, left=30)
    fill_side(page, "Player 2", meld=200, left=25)
    # The hints are sent with the first side; the others keep their room, unseen.
    expect(side(page, "Player 2").locator(".hint.echo")).to_have_count(6)
    first, third = (
        side(page, name).get_by_label("Cards left (points)", exact=True)
        for name in ("Player 1", "Player 2")
    )
    assert first.bounding_box()["y"] == third.bounding_box()["y"]  # type: ignore[index]
    save(page)

    expect(page.locator(".flash-success")).to_have_text("Deal 1 saved.")
    eve_column = page.locator("#deal-1 tbody tr").first.locator("td").nth(2)
    expect(eve_column).to_have_text("280")


@pytest.mark.browser
def test_without_script_enter_saves_and_a_side_s_counter_button_opens_it(
    browser: Browser, migrated_server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US", java_script_enabled=False)
    page = context.new_page()
    try:
        start_simpson_for_three(page, migrated_server, script=False)
        page.get_by_label("Player 1 went out").check()
        fill_side(page, "Player 1", meld=150)
        side(page, "Player 2").get_by_role("button", name="Count the cards left").click()

        # The form again, nothing saved: what was typed, and that counter open.
        expect(page.locator("#problems")).to_have_count(0)
        expect(page.get_by_label("Player 1 went out")).to_be_checked()
        meld = side(page, "Player 1").get_by_label("Melded cards (points)", exact=True)
        expect(meld).to_have_value("150")
        opened = side(page, "Player 2").locator("details.counter[open]")
        expect(opened).to_have_count(1)
        opened.get_by_label("Jokers").fill("1")

        # Enter saves, as Save does: here the deal's problems come back.
        meld.press("Enter")
        expect(page.locator("#problems")).to_contain_text("Nothing was saved")
        left = side(page, "Player 2").get_by_label("Cards left (points)", exact=True)
        expect(left).to_have_value("50")
    finally:
        context.close()
