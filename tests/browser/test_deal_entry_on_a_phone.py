"""A deal entered at the table on a 390x844 phone: both sides side by side, the totals while
typing, the page after Save and its Undo."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from settled_layout import settled_boxes

ANN = "Ann & Bob"
CY = "Cy & Di"


def start_game(page: Page, base: str) -> None:
    page.goto(base + "/games/new")
    page.get_by_label("Team 1", exact=True).fill(ANN)
    page.get_by_label("Team 2", exact=True).fill(CY)
    page.get_by_role("button", name="Start game").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")


def field(page: Page, side: int, name: str) -> Locator:
    return page.locator(f'input[name="sides-{side}-{name}"]')


def live_total(page: Page, side: int) -> Locator:
    return page.locator(f'#live-totals output[data-side="{side}"]')


@pytest.mark.browser
def test_the_sides_stand_side_by_side_and_the_totals_follow_the_typing(
    page: Page, migrated_server: str, artifacts_dir: Path
) -> None:
    start_game(page, migrated_server)
    expect(page.locator("#live-totals")).to_be_hidden()  # nothing typed yet
    legends = page.locator("fieldset.side legend")
    ann, cy = settled_boxes(page, legends.nth(0), legends.nth(1))
    assert ann["y"] == cy["y"] and ann["x"] < cy["x"]
    # Level like a score pad's columns: each line of one side beside the same line of the other.
    for name in ("meld_points", "clean_books", "red_threes_held", "cards_left_points"):
        mine, theirs = settled_boxes(page, field(page, 0, name), field(page, 1, name))
        assert abs(mine["y"] - theirs["y"]) < 1, name

    page.get_by_label(f"{ANN} went out").check()
    # The books going out needs in deal 1 are filled in for the side that went out.
    expect(field(page, 0, "clean_books")).to_have_value("2")
    expect(field(page, 0, "dirty_books")).to_have_value("2")
    expect(field(page, 0, "wild_books")).to_have_value("1")
    field(page, 0, "meld_points").fill("1210")
    field(page, 1, "meld_points").fill("600")
    expect(live_total(page, 0)).to_have_text("4410")  # 1210 + 1000 + 600 + 1500 + 100 out
    expect(live_total(page, 1)).to_have_text("600")
    expect(page.locator("#live-problems")).to_contain_text(
        "Cy & Di did not go out, so each of its players still holds at least one card"
    )
    field(page, 0, "red_threes_down").fill("2")
    field(page, 0, "cards_left_points").fill("15")
    field(page, 1, "cards_left_points").fill("120")
    expect(live_total(page, 0)).to_have_text("4595")
    expect(live_total(page, 1)).to_have_text("480")
    expect(page.locator("#live-problems")).to_be_hidden()
    # The totals ride with the Save button, at the bottom of the screen.
    (totals,) = settled_boxes(page, page.locator("#live-totals"))
    assert totals["y"] + totals["height"] <= 844 and totals["y"] > 600
    page.screenshot(path=artifacts_dir / "fast-entry-1-typing.png")

    # Choosing the other side moves the books filled in, not those typed.
    field(page, 0, "clean_books").fill("3")
    page.get_by_label(f"{CY} went out").check()
    expect(field(page, 0, "clean_books")).to_have_value("3")
    expect(field(page, 0, "dirty_books")).to_have_value("")
    expect(field(page, 1, "clean_books")).to_have_value("2")


@pytest.mark.browser
def test_after_save_the_page_shows_the_totals_and_undo_takes_the_deal_back(
    page: Page, migrated_server: str, artifacts_dir: Path
) -> None:
    start_game(page, migrated_server)
    page.get_by_label(f"{ANN} went out").check()
    field(page, 0, "meld_points").fill("1210")
    field(page, 0, "red_threes_down").fill("2")
    field(page, 0, "cards_left_points").fill("15")
    field(page, 1, "meld_points").fill("600")
    field(page, 1, "clean_books").fill("1")
    field(page, 1, "dirty_books").fill("1")
    field(page, 1, "red_threes_down").fill("1")
    field(page, 1, "red_threes_held").fill("1")
    field(page, 1, "cards_left_points").fill("120")
    page.get_by_role("button", name="Save deal").click()

    # The top of the page: the totals and who leads; the bottom: saved, Undo, the next deal.
    expect(page.locator(".flash-success")).to_have_text("Deal 1 saved.")
    expect(page.locator(".result")).to_have_text(f"{ANN} leads with 4,595 points.")
    expect(page.locator("table.sheet tfoot td")).to_have_text(["4595", "1280"])
    assert page.evaluate("window.scrollY") == 0
    for control in ("Undo", "Enter deal 2"):
        target = page.get_by_role("button" if control == "Undo" else "link", name=control)
        expect(target).to_be_in_viewport()
        (where,) = settled_boxes(page, target)
        assert where["y"] > 844 / 2, f"{control} is within the thumb's reach"
        assert where["height"] >= 44
    (result,) = settled_boxes(page, page.locator(".result"))
    assert result["y"] < 844 / 2
    page.screenshot(path=artifacts_dir / "fast-entry-2-saved.png")

    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    expect(page.locator(".flash-success")).to_have_text(
        "Deal 1 was taken back: its numbers are in the form, to correct and save."
    )
    expect(field(page, 0, "cards_left_points")).to_have_value("15")
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator("table.sheet tfoot td")).to_have_text(["0", "0"])
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)


@pytest.mark.browser
def test_undo_cannot_take_back_a_change_made_on_another_phone(
    browser: Browser, page: Page, migrated_server: str
) -> None:
    # The first phone does not hear of the other phone's change before its Undo: its scoreboard
    # asks the game's version every few seconds and would reload, without Undo, once it knew.
    page.route(re.compile(r"/g/[^/]+/version$"), lambda route: route.abort())
    start_game(page, migrated_server)
    page.get_by_label("Nobody: the stock ran out").check()
    field(page, 0, "meld_points").fill("300")
    field(page, 0, "cards_left_points").fill("40")
    field(page, 1, "meld_points").fill("200")
    field(page, 1, "cards_left_points").fill("85")
    page.get_by_role("button", name="Save deal").click()
    expect(page.get_by_role("button", name="Undo")).to_be_visible()

    # The second phone holds the same edit link and changes deal 1 meanwhile.
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        phone = other.new_page()
        phone.goto(page.url.split("#")[0] + "/deals/1")
        phone.locator('input[name="sides-1-cards_left_points"]').fill("90")
        phone.get_by_role("button", name="Save deal").click()
        expect(phone.locator(".flash-success")).to_have_text("Deal 1 updated.")
        phone.wait_for_load_state("load")  # its stylesheets received before the phone goes
    finally:
        other.close()

    page.get_by_role("button", name="Undo").click()
    expect(page.locator("main")).to_contain_text("Deal 1 cannot be undone any more")
    page.goto(page.url.split("/deals/")[0])
    expect(page.locator("table.sheet tfoot td")).to_have_text(["260", "110"])


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height", "text"), [(360, 640, "100%"), (390, 844, "200%")])
def test_the_sides_stack_where_two_do_not_fit(
    browser: Browser, migrated_server: str, width: int, height: int, text: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    try:
        page = context.new_page()
        start_game(page, migrated_server)
        page.evaluate("size => { document.documentElement.style.fontSize = size; }", text)
        ann, cy = page.locator("fieldset.side").nth(0), page.locator("fieldset.side").nth(1)
        ann_box, cy_box = settled_boxes(page, ann, cy)
        assert cy_box["y"] >= ann_box["y"] + ann_box["height"]
        for side_box in (ann_box, cy_box):
            assert side_box["x"] >= 0 and side_box["x"] + side_box["width"] <= width
        # Stacked, the second side does not keep room for hints it does not show.
        expect(cy.locator(".hint.echo").first).to_be_hidden()
        field(page, 1, "meld_points").fill("600")
        expect(live_total(page, 1)).to_have_text("600")
    finally:
        context.close()
