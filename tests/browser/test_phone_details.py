"""The smaller things a phone at the table shows: the menu, large text, the sheets page, dark
controls, a stepper's maximum and the breakdown's words, at 390x844 and 360x640."""

import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}
LANGUAGES = ["en", "fr", "it", "de", "ja"]
NAV_WORDS = {
    "en": ["Games", "Rules", "House rules", "Sheets"],
    "fr": ["Parties", "Règles", "Règles maison", "Feuilles"],
    "it": ["Partite", "Regole", "Regole della casa", "Fogli"],
    "de": ["Partien", "Regeln", "Hausregeln", "Blöcke"],
    "ja": ["ゲーム", "ルール", "ハウスルール", "スコアシート"],
}


def phone_page(browser: Browser, base: str, size: str, **options: object) -> Page:
    context = browser.new_context(viewport=PHONES[size], locale="en-US", **options)
    return context.new_page()


def page_overflow(page: Page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def start_game(page: Page, base: str, variant: str = "Partnership (pagat.com)") -> str:
    """A new game of the variant at its first table; the address of its deal 1 form."""
    page.goto(base + "/games/new")
    page.get_by_text("Other rules").click()  # the rules are folded under the current choice
    page.get_by_label(variant).check()
    page.get_by_role("button", name="Start game").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    return page.url


def save(page: Page) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal").click()
    anyway = page.get_by_role("button", name="Save anyway")
    if anyway.count():
        with page.expect_navigation():
            anyway.click()


def large_text(page: Page) -> None:
    """Text at 200%, as a phone's text size setting makes it."""
    page.evaluate("document.documentElement.style.fontSize = '200%'")


def off_screen(page: Page, selector: str) -> list[str]:
    """The elements matching `selector` whose right edge is past the screen's."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)]
            .filter(e => e.getClientRects().length)
            .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
            .map(e => e.outerHTML.slice(0, 80))""",
        selector,
    )


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_top_menu_fits_the_phone_in_every_language(
    browser: Browser, migrated_server: str, size: str, language: str, artifacts_dir: Path
) -> None:
    page = phone_page(browser, migrated_server, size)
    page.context.add_cookies([{"name": "lang", "value": language, "url": migrated_server}])
    page.goto(migrated_server + "/sheets/")

    links = page.locator(".topnav a")
    expect(links).to_have_text(NAV_WORDS[language])
    for link in links.all():
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONES[size]["width"]
    assert page.evaluate("(n => n.scrollWidth <= n.clientWidth)(document.querySelector('.topnav'))")
    assert page_overflow(page) <= 0
    page.locator(".topbar").screenshot(path=artifacts_dir / f"menu-{language}-{size}.png")
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
def test_large_text_keeps_the_counter_and_both_sides_on_screen(
    browser: Browser, migrated_server: str, size: str, artifacts_dir: Path
) -> None:
    page = phone_page(browser, migrated_server, size)
    deal = start_game(page, migrated_server)
    large_text(page)
    for counter in page.locator("details.counter summary").all():
        counter.click()

    assert off_screen(page, "main .count button, main .count input, main fieldset.side") == []
    page.screenshot(path=artifacts_dir / f"large-text-deal-{size}.png")

    page.get_by_label("Nobody: the stock ran out").check()
    sides = page.locator("fieldset.side")
    sides.nth(0).get_by_label("Melded cards (points)", exact=True).fill("1200")
    sides.nth(0).get_by_label("Clean books", exact=True).fill("2")
    sides.nth(1).get_by_label("Melded cards (points)", exact=True).fill("600")
    sides.nth(1).get_by_label("Red threes still held", exact=True).fill("1")
    for side in (0, 1):
        sides.nth(side).get_by_label("Cards left (points)", exact=True).fill("20")
    save(page)
    page.goto(deal.removesuffix("/deals/1"))
    large_text(page)

    assert off_screen(page, "table.sheet th, table.sheet td") == []
    assert off_screen(page, "table.breakdown th, table.breakdown td") == []
    assert page_overflow(page) <= 0
    page.screenshot(path=artifacts_dir / f"large-text-scoreboard-{size}.png", full_page=True)
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
def test_the_breakdown_words_its_counts_and_parts_the_red_threes(
    browser: Browser, migrated_server: str, size: str
) -> None:
    page = phone_page(browser, migrated_server, size)
    deal = start_game(page, migrated_server)
    page.get_by_label("Nobody: the stock ran out").check()
    sides = page.locator("fieldset.side")
    sides.nth(0).get_by_label("Melded cards (points)", exact=True).fill("1200")
    sides.nth(0).get_by_label("Clean books", exact=True).fill("2")
    sides.nth(0).get_by_label("Red threes laid down", exact=True).fill("1")
    sides.nth(0).get_by_label("Red threes still held", exact=True).fill("1")
    sides.nth(1).get_by_label("Melded cards (points)", exact=True).fill("600")
    for side in (0, 1):
        sides.nth(side).get_by_label("Cards left (points)", exact=True).fill("20")
    save(page)
    page.goto(deal.removesuffix("/deals/1"))

    rows = page.locator("#deal-1 tbody tr")
    expect(rows.filter(has_text="Clean books").locator("td")).to_have_text(["2 books: 1000", "0"])
    expect(rows.filter(has_text="Red threes laid down").locator("td")).to_have_text(
        ["1 laid down: 100", "0"]
    )
    expect(rows.filter(has_text="Red threes still held").locator("td")).to_have_text(
        ["1 held: -100", "0"]
    )
    expect(page.locator("#deal-1")).not_to_contain_text("×")
    assert page_overflow(page) <= 0
    page.context.close()


def assert_pdf_download(page: Page, address: str) -> None:
    """Download PDF sends the sheet of the choices shown: its address, and A4 paper."""
    # The preview first: on a small machine it holds the one render slot while it is made.
    expect(page.frame_locator("iframe.sheet-preview").locator(".sheet-page")).to_be_visible()
    with page.expect_response(lambda r: ".pdf" in r.url) as answer:
        page.get_by_role("button", name="Download PDF").click()
    response = answer.value
    assert re.search(address, response.url), response.url
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    sheet = page.context.request.get(response.url)  # the body, as a download saves it
    box = PdfReader(io.BytesIO(sheet.body())).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4, in points


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
def test_sheet_choices_apply_at_once_and_a_simpson_a4_pick_downloads_that_sheet(
    browser: Browser, migrated_server: str, size: str, artifacts_dir: Path
) -> None:
    page = phone_page(browser, migrated_server, size)
    page.goto(migrated_server + "/sheets/")
    expect(page.get_by_role("button", name="Update preview")).to_be_hidden()

    page.get_by_label("Variant").select_option("simpson")
    page.get_by_label("A4").check()
    preview = page.locator("iframe.sheet-preview")
    expect(preview).to_have_attribute("src", re.compile(r"^/sheets/simpson\.html\?.*size=a4"))
    expect(preview).to_have_class(re.compile("paper-a4"))
    expect(page).to_have_url(re.compile(r"variant=simpson.*size=a4"))
    assert page_overflow(page) <= 0
    page.screenshot(path=artifacts_dir / f"sheets-live-{size}.png")

    assert_pdf_download(page, r"/sheets/simpson\.pdf\?sides=\d&size=a4$")
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
def test_a_games_sheet_downloads_on_the_paper_picked(
    browser: Browser, migrated_server: str, size: str
) -> None:
    page = phone_page(browser, migrated_server, size)
    deal = start_game(page, migrated_server)
    page.goto(deal.removesuffix("/deals/1") + "/sheet")

    page.get_by_label("A4").check()
    expect(page.locator("iframe.sheet-preview")).to_have_attribute(
        "src", re.compile(r"/sheet\.html\?size=a4$")
    )
    assert_pdf_download(page, r"/g/[\w-]+/sheet\.pdf\?size=a4$")
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
def test_native_controls_follow_the_dark_scheme(
    browser: Browser, migrated_server: str, size: str, artifacts_dir: Path
) -> None:
    page = phone_page(browser, migrated_server, size, color_scheme="dark")
    for path in ("/sheets/", "/games/new", "/house/new?base=pagat"):
        page.goto(migrated_server + path)
        schemes = page.evaluate(
            """[...document.querySelectorAll('main input, main select, main textarea')]
                .map(e => getComputedStyle(e).colorScheme)"""
        )
        assert schemes and set(schemes) == {"light dark"}, (path, set(schemes))
    page.goto(migrated_server + "/sheets/")
    page.locator(".sheet-paper").screenshot(path=artifacts_dir / f"sheets-dark-radio-{size}.png")
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("size", PHONES)
def test_the_exact_22_stepper_shows_its_maximum(
    browser: Browser, migrated_server: str, size: str, artifacts_dir: Path
) -> None:
    page = phone_page(browser, migrated_server, size)
    start_game(page, migrated_server, variant="Steve Simpson")
    side = page.locator("fieldset.side").first
    field = side.get_by_label("Players who cut exactly 22", exact=True)
    more = side.get_by_role("button", name="One more: Players who cut exactly 22")
    expect(field).to_have_attribute("max", "1")
    expect(field).to_have_attribute("aria-describedby", re.compile("sides-0-exact_22-most"))
    expect(side.locator("#sides-0-exact_22-most")).to_have_text("")

    more.click()

    expect(field).to_have_value("1")
    expect(more).to_be_disabled()
    expect(side.locator("#sides-0-exact_22-most")).to_have_text("At most 1")
    side.get_by_role("button", name="One less: Players who cut exactly 22").click()
    expect(more).to_be_enabled()
    expect(side.locator("#sides-0-exact_22-most")).to_have_text("")
    assert page_overflow(page) <= 0
    page.context.close()
