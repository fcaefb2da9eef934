"""Static files under hashed names (SCOREKEEPER_HASHED_STATIC, on in the image): pages, the
service worker and the PDF sheets use them; they are cached far ahead; plain names still work."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import config as settings
from scorekeeper.printing.pdf import StaticFileFetcher

STATIC = Path(__file__).resolve().parents[2] / "static"


def digest(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


@pytest.fixture
def hashed_app(make_app) -> Flask:
    return make_app(HASHED_STATIC=True, SHEET_RENDER_NICE=0)


def test_the_setting_comes_from_the_environment() -> None:
    assert settings.from_environment({"SCOREKEEPER_HASHED_STATIC": "1"})["HASHED_STATIC"] is True
    assert settings.from_environment({}).get("HASHED_STATIC") is None
    with pytest.raises(ValueError, match="SCOREKEEPER_HASHED_STATIC"):
        settings.from_environment({"SCOREKEEPER_HASHED_STATIC": "maybe"})


def test_pages_link_the_style_sheet_by_its_hashed_name(hashed_app: Flask) -> None:
    page = hashed_app.test_client().get("/").get_data(as_text=True)

    assert f'href="/static/css/app.{digest("css/app.css")}.css"' in page
    assert 'href="/static/css/app.css"' not in page


def test_a_hashed_name_is_cached_far_ahead_and_holds_the_file(hashed_app: Flask) -> None:
    client = hashed_app.test_client()

    with client.get(f"/static/css/app.{digest('css/app.css')}.css") as response:
        assert response.status_code == 200
        assert response.data == (STATIC / "css/app.css").read_bytes()
        assert response.cache_control.max_age == 365 * 24 * 3600
        assert response.cache_control.immutable
        assert response.cache_control.public


def test_the_plain_name_is_still_served_and_revalidated(hashed_app: Flask) -> None:
    with hashed_app.test_client().get("/static/css/app.css") as response:
        assert response.status_code == 200
        assert response.data == (STATIC / "css/app.css").read_bytes()
        assert not response.cache_control.immutable
        assert not response.cache_control.max_age


def test_a_digest_that_is_not_the_files_own_is_not_found(hashed_app: Flask) -> None:
    response = hashed_app.test_client().get("/static/css/app.0123456789ab.css")

    assert response.status_code == 404


def test_without_the_setting_names_are_plain(make_app) -> None:
    page = make_app().test_client().get("/").get_data(as_text=True)

    assert 'href="/static/css/app.css"' in page


def test_the_service_worker_keeps_the_hashed_files_and_each_is_served(hashed_app: Flask) -> None:
    client = hashed_app.test_client()
    first_line = client.get("/sw.js").get_data(as_text=True).split("\n", 1)[0]
    worker = json.loads(re.fullmatch(r"self\.OFFLINE_SETTINGS = (.*);", first_line).group(1))

    assert f"/static/js/drafts.{digest('js/drafts.js')}.js" in worker["precache"]
    # offline.js loads its companions by their plain names: with no network too.
    assert "/static/js/offline-sync.js" in worker["precache"]
    assert worker["store"] == f"/static/js/offline-store.{digest('js/offline-store.js')}.js"
    for url in worker["precache"]:
        with client.get(url) as kept:
            assert kept.status_code == 200, url
            if re.search(r"\.[0-9a-f]{12}\.", url):
                assert kept.cache_control.immutable, url


def test_a_pdf_sheet_reads_its_style_sheet_by_the_hashed_name(
    hashed_app: Flask, fetched_urls: list[str]
) -> None:
    response = hashed_app.test_client().get("/sheets/simpson.pdf")

    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert f"http://localhost/static/css/sheet.{digest('css/sheet.css')}.css" in fetched_urls


def test_the_sheets_fetcher_reads_a_hashed_name_as_the_file() -> None:
    fetcher = StaticFileFetcher("http://localhost/static/", STATIC)

    response = fetcher.fetch(f"http://localhost/static/css/sheet.{digest('css/sheet.css')}.css")

    assert response.read() == (STATIC / "css/sheet.css").read_bytes()
