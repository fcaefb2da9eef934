"""The app installable and usable offline: the manifest, the service worker and its files, the
policy that lets them in, and the texts the offline scripts show, in every language."""

import html
import json
import re
import struct

import pytest
from game_helpers import start_game

from scorekeeper.security import CONTENT_SECURITY_POLICY

LANGUAGES = ("en", "fr", "it", "de", "ja")
APP_NAMES = {
    "en": "Hand & Foot score keeper",
    "fr": "Marqueur de points Hand & Foot",
    "it": "Segnapunti Hand & Foot",
    "de": "Hand & Foot – Punktezähler",
    "ja": "Hand & Foot スコア記録",
}
PENDING = {
    "en": "Deal %s: saved on this phone, not sent yet.",
    "fr": "Donne %s : enregistrée sur ce téléphone, pas encore envoyée.",
    "it": "Smazzata %s: salvata su questo telefono, non ancora inviata.",
    "de": "Runde %s: auf diesem Telefon gespeichert, noch nicht gesendet.",
    "ja": "第%sディール：この端末に保存済み、まだ送信していません。",
}
OFFLINE_HEADINGS = {
    "en": "Not on this phone yet",
    "fr": "Pas encore sur ce téléphone",
    "it": "Non ancora su questo telefono",
    "de": "Noch nicht auf diesem Telefon",
    "ja": "この端末にはまだありません",
}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def worker_settings(source: str) -> dict[str, object]:
    first_line = source.split("\n", 1)[0]
    match = re.fullmatch(r"self\.OFFLINE_SETTINGS = (.*);", first_line)
    assert match is not None, first_line
    return json.loads(match.group(1))  # type: ignore[no-any-return]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_manifest_names_the_app_in_the_language_and_starts_at_the_list_of_games(
    client, language
):
    client.set_cookie("lang", language)
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["name"] == APP_NAMES[language]
    assert manifest["short_name"] == "Hand & Foot"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )


def test_the_manifest_icons_are_pngs_of_their_stated_sizes_one_of_them_maskable(client):
    icons = client.get("/manifest.webmanifest").get_json(force=True)["icons"]

    sizes = set()
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200
        assert response.mimetype == "image/png"
        width, height = png_size(response.data)
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add((width, icon["purpose"]))
        response.close()
    assert sizes == {(192, "any"), (512, "any"), (512, "maskable")}


def test_the_worker_is_served_from_the_root_fresh_at_every_visit_with_the_files_it_keeps(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    source = response.get_data(as_text=True)
    settings = worker_settings(source)
    precache = settings["precache"]
    assert isinstance(precache, list)
    for needed in ("/static/css/app.css", "/static/css/games.css", "/static/js/drafts.js"):
        assert needed in precache
    assert "/offline" in precache and settings["fallback"] == "/offline"
    assert not any(url.startswith("/g/") for url in precache)  # no game's page kept in advance
    for url in precache:
        kept = client.get(url)
        assert kept.status_code == 200, url
        kept.close()
    assert re.fullmatch(r"[0-9a-f]{16}", str(settings["version"]))
    assert 'addEventListener("fetch"' in source
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304  # the browser's check for a new worker costs nothing


def test_the_policy_lets_the_worker_and_the_manifest_come_from_this_site_only():
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))

    assert directives["worker-src"] == "'self'"
    assert directives["manifest-src"] == "'self'"
    assert directives["default-src"] == "'self'"


def page_texts(page: str) -> dict[str, str]:
    match = re.search(r"data-texts='([^']*)'", page)
    assert match is not None
    return json.loads(html.unescape(match.group(1)))  # type: ignore[no-any-return]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_links_the_manifest_and_gives_the_offline_scripts_their_texts(client, language):
    client.set_cookie("lang", language)
    page = client.get("/").get_data(as_text=True)

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page
    assert 'data-deals="0"' in page  # no game on this page
    texts = page_texts(page)
    assert texts["pending"] == PENDING[language]
    for key in ("pending", "sending", "sent", "clash", "check", "gone", "show"):
        assert texts[key].count("%s") == 1, (language, key)
    assert all(texts.values())


def test_a_game_name_in_the_page_cannot_break_out_of_the_texts_attribute(app, client):
    game = start_game(app, client, name="x' onload='alert(1)")
    page = client.get(game.edit_path).get_data(as_text=True)

    assert page_texts(page)["discard"] == "Start over"
    assert page_texts(page)["enter"] == "Enter deal %s"  # the edit link: deals to enter
    assert "onload='alert(1)" not in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_offline_page_says_the_page_is_not_kept_on_this_phone(client, language):
    client.set_cookie("lang", language)
    response = client.get("/offline")

    assert response.status_code == 200
    assert f"<h1>{OFFLINE_HEADINGS[language]}</h1>" in response.get_data(as_text=True)
