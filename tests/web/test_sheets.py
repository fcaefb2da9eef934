"""Blank score sheets: GET /sheets/<variant>.pdf, its HTML preview and the print page."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from scorekeeper.printing import pdf
from scorekeeper.printing.pdf import RefusedURL, StaticFileFetcher
from scorekeeper.rules.scoring import line_keys
from scorekeeper.rules.variants import DEALS_PER_GAME, Variant, all_variants, get_variant
from scorekeeper.sheets import views

ROW_LABELS = {
    "meld_points": "Melded cards",
    "clean_books": "Clean books",
    "dirty_books": "Dirty books",
    "wild_books": "Wild books",
    "black_three_books": "Black-three books",
    "red_threes": "Red threes",
    "going_out": "Going out",
    "exact_22": "Cut exactly 22",
    "cards_left": "Cards left",
}
POINTS_PER_INCH = 72


def fmt(value: int) -> str:
    return f"{value:,}"


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def page_size(data: bytes) -> tuple[float, float]:
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    return float(box.width), float(box.height)


def get_pdf(client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, response.data[:500]
    assert response.mimetype == "application/pdf"
    return response.data


@pytest.fixture(autouse=True)
def _empty_caches():
    views.blank_pdfs.clear()
    views.made_pdfs.clear()
    yield
    views.blank_pdfs.clear()
    views.made_pdfs.clear()


def deal_rows(text: str, deal: int) -> str:
    """The text of one deal's block: from "Deal n" to the next deal (or the end of the table)."""
    start = text.index(f"Deal {deal}\n")
    end = text.find(f"Deal {deal + 1}\n", start)
    return text[start:] if end == -1 else text[start:end]


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_a_blank_sheet_has_every_scored_row_in_every_deal(client, variant: Variant) -> None:
    sides = variant.side_counts[-1]
    (text,) = pdf_pages(get_pdf(client, f"/sheets/{variant.id}.pdf?sides={sides}"))

    for deal in range(1, DEALS_PER_GAME + 1):
        block = deal_rows(text, deal)
        labels = [line.split(" ")[0] for line in block.splitlines()]
        for key in line_keys(variant):
            assert ROW_LABELS[key] in block, (deal, key)
        assert "Deal total" in block and "Running total" in block
        assert fmt(variant.first_meld_for(deal)) in block.split("TO GO OUT")[0]
        assert labels.count("Melded") == 1
    for key in set(ROW_LABELS) - set(line_keys(variant)):
        assert ROW_LABELS[key] not in text, key


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_a_blank_sheet_shows_the_variants_own_numbers(client, variant: Variant) -> None:
    (text,) = pdf_pages(get_pdf(client, f"/sheets/{variant.id}.pdf"))
    bonus = variant.book_bonus

    assert f"Clean books × {fmt(bonus.clean)}" in text
    assert f"Dirty books × {fmt(bonus.dirty)}" in text
    assert f"clean {fmt(bonus.clean)} · dirty {fmt(bonus.dirty)}" in text
    if bonus.wild is not None:
        assert f"Wild books × {fmt(bonus.wild)}" in text
        assert f"wild {fmt(bonus.wild)}" in text
    if bonus.black_three is not None:
        assert f"Black-three books × {fmt(bonus.black_three)}" in text
        assert f"black threes {fmt(bonus.black_three)}" in text
    if variant.exact_22_bonus is not None:
        assert f"Cut exactly 22 +{fmt(variant.exact_22_bonus)} each" in text
    assert f"Going out +{fmt(variant.going_out_bonus_for(1))}" in text
    points = variant.card_points
    assert f"joker: {points.joker} · 2: {points.two} · A: {points.ace}" in text
    assert f"K–8: {points.high} · 7–4: {points.low}" in text
    red = variant.red_three
    red_threes = re.split(r"Red threes\*?:", text)[1]
    if red.down is None:
        assert f"Never laid down: a red three is got rid of by discarding it; {red.held:+,}" in (
            " ".join(red_threes.split())
        )
    else:
        assert f"{red.down:+,}" in red_threes
    assert " · ".join(fmt(variant.first_meld_for(d)) for d in range(1, 5)) in text
    assert variant.name in text


def test_each_deal_shows_the_books_needed_to_go_out(client) -> None:
    variant = get_variant("brouillette-low")
    (text,) = pdf_pages(get_pdf(client, f"/sheets/{variant.id}.pdf"))

    assert "1 clean\n1 dirty" in deal_rows(text, 1)
    assert "2 clean\n2 dirty" in deal_rows(text, 4)
    assert "Books needed: shown beside each deal." in text


def test_defaults_the_source_does_not_state_are_marked(client) -> None:
    (marked,) = pdf_pages(get_pdf(client, "/sheets/saskatchewan.pdf"))
    (plain,) = pdf_pages(get_pdf(client, "/sheets/pagat.pdf"))

    assert "Book bonuses*:" in marked and "Red threes*:" in marked
    assert "* default, not stated by the source" in marked
    assert "First meld:" in marked and "First meld*:" not in marked
    assert "*" not in plain


@pytest.mark.parametrize(
    ("size", "inches"), [("letter", (8.5, 11)), ("a4", (210 / 25.4, 297 / 25.4))]
)
@pytest.mark.parametrize("variant_id", ["gamerules", "brouillette-high"])
def test_seven_sides_fit_one_page_of_either_size(client, size, inches, variant_id) -> None:
    data = get_pdf(client, f"/sheets/{variant_id}.pdf?sides=7&size={size}")

    pages = pdf_pages(data)
    assert len(pages) == 1
    width, height = page_size(data)
    assert width == pytest.approx(inches[0] * POINTS_PER_INCH, abs=0.5)
    assert height == pytest.approx(inches[1] * POINTS_PER_INCH, abs=0.5)
    header = pages[0].split("Deal 1")[0]
    assert re.search(r"Sides\s+1 2 3 4 5 6 7", header)


def test_the_rows_are_stretched_to_fill_the_page(client) -> None:
    letter = get_pdf(client, "/sheets/pagat.pdf?size=letter")
    a4 = get_pdf(client, "/sheets/pagat.pdf?size=a4")

    assert all(pdf_pages(data)[0].count("Running total") == 4 for data in (letter, a4))
    letter_row = pdf.fitted_rows.get((get_variant("pagat"), 2, 4, "letter", 1, "en"))
    a4_row = pdf.fitted_rows.get((get_variant("pagat"), 2, 4, "a4", 1, "en"))
    assert letter_row is not None and a4_row is not None
    assert a4_row > letter_row > 14  # A4 is taller: its rows get more of the page


def test_several_games_fit_side_by_side_with_few_sides(client) -> None:
    (text,) = pdf_pages(get_pdf(client, "/sheets/simpson.pdf?sides=2&per_page=4&names=Ann,Bob"))

    for game in range(1, 5):
        assert f"Game {game}" in text
    assert text.count("Ann") == 4 and text.count("Bob") == 4


def test_side_names_come_repeated_or_comma_separated_and_are_escaped(client) -> None:
    url = "/sheets/gamerules.pdf?sides=4&names=Ann,<b>Bo</b>&names=&names=Dee"
    (text,) = pdf_pages(get_pdf(client, url))
    header = text.split("Deal 1")[0]
    assert re.search(r"Sides\s+Ann <b>Bo</b> 3 Dee", header)

    page = client.get(url.replace(".pdf", ".html")).get_data(as_text=True)
    assert "&lt;b&gt;Bo&lt;/b&gt;" in page and "<b>Bo</b>" not in page


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/sheets/no-such-variant.pdf", 404, "There is no rule variant called “no-such-variant”."),
        ("/sheets/pagat.pdf?sides=0", 400, "is played by 2, 3, 4, 5, or 6 sides, not 0."),
        ("/sheets/pagat.pdf?sides=50", 400, "is played by 2, 3, 4, 5, or 6 sides, not 50."),
        ("/sheets/pagat.pdf?sides=7", 400, "is played by 2, 3, 4, 5, or 6 sides, not 7."),
        ("/sheets/pagat.pdf?sides=two", 400, "The number of sides must be a whole number."),
        ("/sheets/pagat.pdf?size=foo", 400, "The paper size must be letter or a4, not “foo”."),
        ("/sheets/pagat.pdf?per_page=0", 400, "fit on a Letter page."),
        ("/sheets/gamerules.pdf?sides=7&per_page=2", 400, "Only 1 game of 7 sides fits"),
        ("/sheets/pagat.pdf?per_page=x", 400, "games per page must be a whole number"),
        ("/sheets/pagat.pdf?names=a,b,c", 400, "3 side names were given for 2 sides."),
        ("/sheets/pagat.pdf?names=" + "x" * 25, 400, "at most 24 characters"),
        ("/sheets/no-such-variant.html", 404, "There is no rule variant called"),
        ("/sheets/pagat.html?sides=50", 400, "not 50."),
        ("/sheets/?variant=no-such-variant", 404, "There is no rule variant called"),
    ],
)
def test_bad_query_values_get_a_clear_error_page(client, url, status, message) -> None:
    response = client.get(url)

    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert message in response.get_data(as_text=True)


def test_a_repeat_blank_sheet_comes_from_the_cache(client, monkeypatch) -> None:
    first = client.get("/sheets/pagat.pdf?sides=3&size=a4")
    renders = []
    monkeypatch.setattr(pdf, "render_html", lambda *a, **k: renders.append(1) or b"")
    monkeypatch.setattr(pdf, "measure_row_height", lambda *a, **k: renders.append(1) or 0.0)

    again = client.get("/sheets/pagat.pdf?size=a4&sides=3")

    assert renders == []
    assert again.data == first.data
    assert again.headers["ETag"] == first.headers["ETag"]
    assert "private" in again.headers["Cache-Control"]
    assert "max-age=86400" in again.headers["Cache-Control"]
    assert "Accept-Language" in again.headers["Vary"]


def test_a_browser_holding_the_sheet_gets_not_modified(client) -> None:
    first = client.get("/sheets/simpson.pdf")

    again = client.get("/sheets/simpson.pdf", headers={"If-None-Match": first.headers["ETag"]})

    assert again.status_code == 304
    assert again.data == b""


def test_each_language_is_cached_on_its_own(client) -> None:
    client.get("/sheets/pagat.pdf", headers={"Accept-Language": "en"})
    client.get("/sheets/pagat.pdf", headers={"Accept-Language": "fr"})
    client.get("/sheets/pagat.pdf", headers={"Accept-Language": "fr"})

    assert len(views.blank_pdfs) == 2


def test_the_preview_is_the_html_that_weasyprint_renders(client) -> None:
    response = client.get("/sheets/brouillette-high.html?sides=3&size=a4")
    page = response.get_data(as_text=True)

    assert response.status_code == 200
    assert '<link rel="stylesheet" href="/static/css/sheet.css">' in page
    assert "size: A4" in page and 'id="sheet-end"' in page
    style = re.search(r"<style>(.*?)</style>", page, re.S)
    assert style is not None
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    policy = response.headers["Content-Security-Policy"]
    assert f"'sha256-{digest}'" in policy
    assert "frame-ancestors 'self'" in policy
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"


def test_the_stylesheet_prints_from_the_browser_too(client) -> None:
    with client.get("/static/css/sheet.css") as response:
        css = response.get_data(as_text=True)

    assert "@media print" in css and "@media screen" in css
    assert 'url("../fonts/DejaVuSansCondensed.ttf")' in css
    for font in ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"):
        with client.get(f"/static/fonts/{font}") as response:
            assert response.status_code == 200


def test_the_print_page_offers_the_options_and_a_preview(client) -> None:
    response = client.get("/sheets/?variant=gamerules&sides=3&size=a4&names=Ann")
    page = response.get_data(as_text=True)

    assert response.status_code == 200
    assert '<iframe class="sheet-preview paper-a4"' in page
    assert 'src="/sheets/gamerules.html?sides=3&amp;size=a4&amp;names=Ann"' in page
    assert 'value="Ann"' in page
    assert '<button type="submit" name="download" value="pdf">Download PDF</button>' in page


@pytest.mark.parametrize(
    ("download", "sheet"),
    [
        ("pdf", "/sheets/simpson.pdf?sides=3&size=a4"),
        ("html", "/sheets/simpson.html?sides=3&size=a4"),
    ],
)
def test_the_download_buttons_send_the_sheet_of_the_choices_on_the_form(
    client, download: str, sheet: str
) -> None:
    response = client.get(f"/sheets/?variant=simpson&sides=3&size=a4&download={download}")

    assert response.status_code == 303
    assert response.headers["Location"] == sheet


def test_a_download_of_choices_the_variant_does_not_allow_gets_the_nearest_sheet(client) -> None:
    response = client.get("/sheets/?variant=pagat&sides=7&size=a4&download=pdf")

    assert response.status_code == 303
    assert response.headers["Location"] == "/sheets/pagat.pdf?sides=6&size=a4"


def test_the_print_page_starts_from_the_first_variant_when_none_is_chosen(client) -> None:
    for url in ("/sheets/", "/sheets/?variant=&sides=&size=&per_page="):
        response = client.get(url)

        assert response.status_code == 200
        assert 'src="/sheets/pagat.html?sides=2&amp;size=letter"' in response.get_data(as_text=True)


def test_the_print_page_moves_a_side_count_the_variant_does_not_allow(client) -> None:
    page = client.get("/sheets/?variant=pagat&sides=7&per_page=9").get_data(as_text=True)

    assert "Partnership (pagat.com) is not played by 7 sides: showing 6." in page
    assert "Games per page set to 1" in page
    assert 'src="/sheets/pagat.html?sides=6&amp;size=letter"' in page


def test_the_print_page_explains_names_it_cannot_use(client) -> None:
    response = client.get("/sheets/?variant=pagat&names=" + "y" * 30)

    assert response.status_code == 400
    assert "at most 24 characters" in response.get_data(as_text=True)


def test_the_top_bar_links_to_the_print_page(client) -> None:
    assert 'href="/sheets/"' in client.get("/sheets/").get_data(as_text=True)


def test_rendering_reaches_only_the_apps_static_files(make_app, fetched_urls) -> None:
    client = make_app(SHEET_RENDER_NICE=0).test_client()
    fetched = fetched_urls
    get_pdf(client, "/sheets/simpson.pdf")

    assert fetched
    assert all(url.startswith("http://localhost/static/") for url in fetched)
    assert "http://localhost/static/css/sheet.css" in fetched


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/font.ttf",
        "file:///etc/passwd",
        "http://localhost/sheets/pagat.pdf",
        "http://localhost/static/../scorekeeper/__init__.py",
        "http://localhost/static/%2e%2e/pyproject.toml",
        "http://localhost/static/no-such-file.css",
        "data:text/css,body{}",
    ],
)
def test_the_fetcher_refuses_everything_else(url) -> None:
    static = Path(__file__).resolve().parents[2] / "static"
    fetcher = StaticFileFetcher("http://localhost/static/", static)

    with pytest.raises(RefusedURL):
        fetcher.fetch(url)


def test_the_fetcher_serves_static_files_with_their_type() -> None:
    static = Path(__file__).resolve().parents[2] / "static"
    fetcher = StaticFileFetcher("http://localhost/static/", static)

    response = fetcher.fetch("http://localhost/static/css/sheet.css")

    assert response.content_type == "text/css"
    assert b"@font-face" in response.read()


def keep_png(data: bytes, name: str, artifacts_dir: Path, work_dir: Path) -> Path:
    """Page 1 of the PDF as tests/artifacts/<name>.png (and the PDF beside it), for a person.

    Both are made in `work_dir` and then moved in whole, so a run beside this one never
    leaves a half-written file.
    """
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        pytest.fail("pdftoppm is not installed: `make test` installs it (Debian poppler-utils)")
    source = work_dir / f"{name}.pdf"
    source.write_bytes(data)
    subprocess.run(
        [pdftoppm, "-png", "-r", "110", "-singlefile", str(source), str(work_dir / name)],
        check=True,
    )
    for made in (source, work_dir / f"{name}.png"):
        staged = artifacts_dir / f".{made.name}.partial"
        shutil.copyfile(made, staged)
        os.replace(staged, artifacts_dir / made.name)
    return artifacts_dir / f"{name}.png"


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_a_blank_sheet_renders_to_png_for_a_person_to_check(
    client, artifacts_dir, tmp_path, size
) -> None:
    data = get_pdf(client, f"/sheets/gamerules.pdf?sides=7&size={size}")

    png = keep_png(data, f"sheet-blank-gamerules-7-{size}", artifacts_dir, tmp_path)

    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000
