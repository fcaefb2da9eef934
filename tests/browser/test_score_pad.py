"""A deal for two sides at 390x844 is a score pad: a line a field, each side's number beside the
line's name, and the page opened on it, so that with the phone's keyboard up (the screen about
300 px shorter) every field and the Save button are in view at once, with no scrolling."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from settled_layout import settled_boxes
from test_offline_on_a_phone import DEAL_1

PHONE = {"width": 390, "height": 844}
KEYBOARD = 300
ANN = "Ann & Bob"
CY = "Cy & Di"

# Where each number field and the Save button are, the page as it is scrolled, and the top of
# the bar stuck to the bottom of the screen.
_WHERE = """() => {
  const bar = document.querySelector('.form-actions').getBoundingClientRect();
  const fields = Array.from(document.querySelectorAll('#deal-form input[type=number]'))
    .filter(el => el.getClientRects().length > 0 && !el.closest('details:not([open])'))
    .map(el => { const r = el.getBoundingClientRect(); return [el.name, r.top, r.bottom]; });
  const save = document.querySelector('button[name=save]').getBoundingClientRect();
  return {fields, barTop: bar.top, save: [save.top, save.bottom], height: window.innerHeight,
          scrollY: window.scrollY};
}"""


# The texts shown on the pad that are drawn over one another, in pairs.
_DRAWN_OVER = """() => {
  const shown = Array.from(document.querySelectorAll('.sides.pad p'))
    .filter(p => p.getBoundingClientRect().width > 1 && p.textContent.trim());
  const meet = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  return shown.flatMap((p, i) => shown.slice(i + 1)
    .filter(q => meet(p.getBoundingClientRect(), q.getBoundingClientRect()))
    .map(q => p.textContent + ' / ' + q.textContent));
}"""


def start_game(page: Page, base: str) -> None:
    page.goto(base + "/games/new")
    page.get_by_label("Team 1", exact=True).fill(ANN)
    page.get_by_label("Team 2", exact=True).fill(CY)
    page.get_by_role("button", name="Start game").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")


def open_deal_2(page: Page, base: str) -> None:
    """A game whose first deal is saved, at deal 2: deal 1 opens on the offer to share the game
    just above the pad (test_first_screens_on_a_phone.py), every later deal on the pad."""
    start_game(page, base)
    page.locator("input[name=went_out][value='0']").check()
    for name, value in DEAL_1.items():
        page.locator(f"input[name='{name}']").fill(value)
    page.locator("button[name=save]").click()
    expect(page.locator(".just-saved")).to_contain_text("Deal 1 saved.")
    page.get_by_role("link", name="Enter deal 2").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")


@pytest.mark.browser
def test_a_deal_for_two_sides_fits_above_the_keyboard_with_no_scrolling(
    browser: Browser, migrated_server: str, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    open_deal_2(page, migrated_server)
    page.wait_for_load_state("load")
    landed = page.evaluate("window.scrollY")
    assert landed > 0  # opened on the pad, the rules of the deal above it

    page.get_by_label(f"{ANN} went out").check()  # the keyboard is down: the choice is in view
    page.locator("input[name='sides-0-meld_points']").click()
    # Measured after the taps, which may scroll the page to reach what they tap.
    before = page.evaluate("window.scrollY")
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"] - KEYBOARD})
    page.locator("input[name='sides-0-meld_points']").fill("1210")
    expect(page.locator("#live-totals")).to_be_visible()
    where = page.evaluate(_WHERE)
    page.screenshot(path=artifacts_dir / "score-pad-keyboard-up.png")

    assert where["scrollY"] == before  # the keyboard came up and nothing had to move
    assert len(where["fields"]) == 14  # seven lines of pagat, two sides
    off = [name for name, top, bottom in where["fields"] if top < 0 or bottom > where["barTop"]]
    assert off == [], f"under the keyboard or above the screen: {off}"
    assert where["save"][0] >= 0 and where["save"][1] <= where["height"]
    # The hint of the line typed in shows under the pad, above the keyboard too.
    hint = page.locator("#sides-0-meld_points-hint")
    expect(hint).to_have_text("Every melded card, books included.")
    expect(hint).to_be_visible()
    hint_box = hint.bounding_box()
    assert hint_box is not None and hint_box["y"] + hint_box["height"] <= where["barTop"]
    page.locator("input[name='sides-1-clean_books']").focus()
    expect(hint).to_have_css("position", "absolute")  # read out with its field, not shown
    expect(page.locator("#deal-form .hint.echo", has_text="+500 points each")).to_be_visible()
    context.close()


@pytest.mark.browser
def test_deal_1_opens_on_the_share_offer_and_the_pad_and_fits_above_the_keyboard_too(
    browser: Browser, migrated_server: str, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    start_game(page, migrated_server)
    page.wait_for_load_state("load")
    offer = page.locator(".share-prompt summary")
    expect(offer).to_have_text("Share this game")
    box = offer.bounding_box()
    assert box is not None and 0 <= box["y"] < 60  # the top line of the screen, the pad below

    page.get_by_label(f"{ANN} went out").check()  # the keyboard is down: the choice is in view
    page.locator("input[name='sides-0-meld_points']").click()
    # Measured after the taps, which may scroll the page to reach what they tap.
    before = page.evaluate("window.scrollY")
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"] - KEYBOARD})
    page.locator("input[name='sides-0-meld_points']").fill("1210")
    expect(page.locator("#live-totals")).to_be_visible()
    where = page.evaluate(_WHERE)
    page.screenshot(path=artifacts_dir / "score-pad-deal-1-keyboard-up.png")

    assert where["scrollY"] == before  # the keyboard came up and nothing had to move
    assert len(where["fields"]) == 14
    off = [name for name, top, bottom in where["fields"] if top < 0 or bottom > where["barTop"]]
    assert off == [], f"under the keyboard or above the screen: {off}"
    assert where["save"][0] >= 0 and where["save"][1] <= where["height"]
    context.close()


@pytest.mark.browser
def test_each_line_of_the_pad_holds_both_sides_beside_its_name(
    browser: Browser, migrated_server: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    start_game(page, migrated_server)
    ann, cy = page.locator("fieldset.side").nth(0), page.locator("fieldset.side").nth(1)
    for label in ("Melded cards (points)", "Clean books", "Cards left (points)"):
        mine, theirs = ann.get_by_label(label, exact=True), cy.get_by_label(label, exact=True)
        name = ann.locator("label", has_text=label).first
        name_box, mine_box, theirs_box = settled_boxes(page, name, mine, theirs)
        assert name_box["x"] < mine_box["x"] < theirs_box["x"], label
        middle = mine_box["y"] + mine_box["height"] / 2
        assert abs(middle - (theirs_box["y"] + theirs_box["height"] / 2)) < 1, label
        assert name_box["y"] < middle < name_box["y"] + name_box["height"], label
    # Who went out comes after the lines, just above Save, in the page as on screen.
    order = page.evaluate(
        """() => Array.from(document.querySelectorAll('#deal-form input'))
             .filter(el => el.type !== 'hidden').map(el => el.name)"""
    )
    assert order.index("went_out") > order.index("sides-1-cards_left_points")
    context.close()


@pytest.mark.browser
def test_a_line_refused_at_its_most_shows_the_problem_alone_on_the_pad(
    browser: Browser, migrated_server: str
) -> None:
    """The "at most" note of a count at its maximum and the problem of its line would share the
    pad's cell under the line: the problem alone is shown, clear of anything else."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    start_game(page, migrated_server)
    page.wait_for_load_state("load")
    page.evaluate("document.querySelectorAll('form').forEach(form => form.noValidate = true)")
    page.locator("input[name=went_out][value='0']").check()
    page.locator("input[name='sides-0-meld_points']").fill("1000")
    page.locator("input[name='sides-0-red_threes_held']").fill("50")
    page.locator("button[name=save]").click()
    error = page.locator("#sides-0-red_threes_held-p1")
    expect(error).to_contain_text("but 5 decks hold only 10.")
    expect(page.locator("#sides-0-red_threes_held-most")).to_be_hidden()
    assert page.evaluate(_DRAWN_OVER) == []
    context.close()


@pytest.mark.browser
def test_a_count_typed_past_its_most_keeps_its_note_under_its_line(
    browser: Browser, migrated_server: str
) -> None:
    """A count at its maximum says so under its own line; the hint of the line being typed in
    shows under the pad, and neither is drawn over the other."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    start_game(page, migrated_server)
    page.wait_for_load_state("load")  # the steppers and the drafts' scripts have run
    field = page.locator(".stepper input[name='sides-1-red_threes_held']")
    field.fill("11")
    note = page.locator("#sides-1-red_threes_held-most")
    expect(note).to_have_text("At most 10")
    note_box, field_box = note.bounding_box(), field.bounding_box()
    assert note_box is not None and field_box is not None
    assert 0 <= note_box["y"] - (field_box["y"] + field_box["height"]) < 24  # just under it
    assert page.evaluate(_DRAWN_OVER) == []
    context.close()
