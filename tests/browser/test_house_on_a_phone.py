"""House rules made, refused and played on a phone-sized page."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_game_on_a_phone import assert_big_touch_targets, assert_fits_phone


@pytest.mark.browser
def test_house_rules_on_a_phone(page: Page, migrated_server: str, artifacts_dir: Path) -> None:
    page.goto(migrated_server + "/")
    page.get_by_role("link", name="House rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("House rules")
    page.get_by_label("Start from").select_option("pagat")
    page.get_by_role("button", name="Start").click()

    # A new variant: only the two rules the table plays differently are changed.
    expect(page.get_by_role("heading", level=1)).to_have_text("New house rules")
    expect(page.locator(".house-changes")).to_contain_text("No change yet")
    page.get_by_label("Name of your rules").fill("Friday rules")
    page.get_by_label("Find a rule").fill("wild book")
    page.get_by_label("Wild book bonus").fill("2000")
    expect(page.locator("#house-summary tbody tr")).to_have_count(1)
    page.get_by_label("Find a rule").fill("going-out bonus")
    page.get_by_label("Going-out bonus", exact=True).fill("200")
    expect(page.locator("#p-book_bonus__wild")).to_contain_text("Base: 1500")
    expect(page.locator("#house-summary tbody tr")).to_have_count(2)
    assert_fits_phone(page)
    assert_big_touch_targets(page)
    page.screenshot(path=artifacts_dir / "house-1-new.png", full_page=True)
    page.get_by_role("button", name="Save the rules").click()

    expect(page.locator(".flash-success")).to_contain_text("Your rules are saved.")
    table = page.locator("table.house-diff")
    expect(table).to_contain_text("Wild book bonus")
    expect(table.locator("tbody tr")).to_have_count(2)
    assert_fits_phone(page)
    page.screenshot(path=artifacts_dir / "house-2-saved.png", full_page=True)

    # The edit form shows the changes first; an impossible rule is refused beside its field.
    page.get_by_role("link", name="Change these rules").click()
    changes = page.locator(".house-changes")
    expect(changes.get_by_label("Wild book bonus")).to_have_value("2000")
    page.get_by_label("Find a rule").fill("wild books deal 1")
    page.get_by_label("Wild books to go out, deal 1", exact=True).fill("5")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator(".problems")).to_contain_text("These rules cannot be saved yet")
    field = page.locator("#p-going_out__1__wild")
    expect(field.locator(".field-error")).to_contain_text("5 wild books need 35 wild cards")
    expect(field.locator("input")).to_have_attribute("aria-invalid", "true")
    assert_fits_phone(page)
    page.screenshot(path=artifacts_dir / "house-3-refused.png", full_page=True)

    # A game with the house rules.
    page.get_by_role("link", name="Games").click()
    page.get_by_role("link", name="New game").click()
    page.get_by_text("Other rules").click()
    page.get_by_label("Friday rules").check()
    page.get_by_role("button", name="Start game").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    expect(page.locator("#deal-facts")).to_contain_text("at least 50 points")


@pytest.mark.browser
def test_the_number_of_deals_and_first_melds_by_score_change_the_form_as_they_are_typed(
    page: Page, migrated_server: str, artifacts_dir: Path
) -> None:
    page.goto(migrated_server + "/house/new?base=pagat")
    page.get_by_label("Name of your rules").fill("Five deals")
    deal_5 = page.locator("#p-first_meld__5")
    expect(deal_5).to_be_hidden()
    expect(page.locator("#concealed__5")).to_be_hidden()

    # Five deals: the fifth deal's rules show, with the fourth deal's values, no reload.
    page.get_by_label("Find a rule").fill("deals in a game")
    page.locator("[data-deals-input]").fill("5")
    page.get_by_label("Find a rule").fill("minimum first meld deal 5")
    expect(deal_5).to_be_visible()
    expect(deal_5.locator("input")).to_have_value("150")
    deal_5.locator("input").fill("200")
    summary = page.locator("#house-summary tbody tr")
    expect(summary).to_have_count(2)
    expect(summary.nth(0)).to_contain_text("Deals in a game")
    expect(summary.nth(1)).to_contain_text("Minimum first meld, deal 5")
    page.get_by_label("Find a rule").fill("")
    expect(page.locator("#p-first_meld__6")).to_be_hidden()

    # First melds by running score, row by row: a new row shows as the last is filled.
    rows = page.locator("#p-first_meld_by_score .score-row")
    expect(rows.nth(0)).to_be_visible()
    expect(rows.nth(1)).to_be_hidden()
    page.get_by_label("Find a rule").fill("running score")
    rows.nth(0).get_by_label("From a running score of").fill("0")
    rows.nth(0).get_by_label("First meld").fill("50")
    expect(rows.nth(1)).to_be_visible()
    rows.nth(1).get_by_label("From a running score of").fill("1500")
    rows.nth(1).get_by_label("First meld").fill("90")
    expect(summary).to_have_count(3)
    expect(summary.nth(2)).to_contain_text("from 0: 50; from 1500: 90")
    assert_fits_phone(page)
    page.screenshot(path=artifacts_dir / "house-4-deals.png", full_page=True)

    # Fewer deals again hide the fifth deal, and the summary forgets it.
    page.get_by_label("Find a rule").fill("deals in a game")
    page.locator("[data-deals-input]").fill("4")
    expect(deal_5).to_be_hidden()
    expect(summary).to_have_count(1)

    page.locator("[data-deals-input]").fill("5")
    expect(summary).to_have_count(3)
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator(".flash-success")).to_contain_text("Your rules are saved.")
    expect(page.locator("table.house-diff tbody tr")).to_have_count(3)


@pytest.mark.browser
def test_the_going_out_bonus_of_every_deal_carries_the_deals_that_had_it(
    page: Page, migrated_server: str
) -> None:
    page.goto(migrated_server + "/house/new?base=pagat")
    page.get_by_label("Name of your rules").fill("Bonus by deal")
    page.get_by_label("Find a rule").fill("going-out bonus")
    page.get_by_label("Going-out bonus, deal 2", exact=True).fill("200")
    page.get_by_label("Going-out bonus", exact=True).fill("300")

    expect(page.get_by_label("Going-out bonus, deal 1", exact=True)).to_have_value("300")
    expect(page.get_by_label("Going-out bonus, deal 2", exact=True)).to_have_value("200")
    expect(page.get_by_label("Going-out bonus, deal 4", exact=True)).to_have_value("300")
    page.get_by_role("button", name="Save the rules").click()

    expect(page.locator(".flash-success")).to_contain_text("Your rules are saved.")
    table = page.locator("table.house-diff")
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(table).to_contain_text("Going-out bonus, deal 2")
