"""``make run HTTPS=1`` seen from a phone: a host name that is not the machine itself
(``table.test``, mapped to 127.0.0.1 by Chromium's ``--host-resolver-rules``), so that the browser
grants a service worker and a wake lock only as it would to a phone on the Wi-Fi.

Over plain http the page is not a secure context: no service worker, no wake lock. Over https
with a certificate of the table's own authority, a browser that has not trusted the authority
refuses the page; one that has (``certutil`` into Chromium's NSS database, in a HOME of its
own) runs the worker, which takes control of the page, and a deal saved with no network is
kept on the phone through a reload and reaches the server when the network returns.

A whole game over https, as ``test_table_on_plain_http`` plays it over plain http: two phones
(390x844 and 360x640), the network of the first one cut in the middle of deal 2 and of deal 3.
Each deal saved without a network is kept by the worker, and the scoreboard the worker kept
counts it in its totals, marked as not sent yet; once the network is back the deal ends where a
save with the network ends. Screenshots go to tests/artifacts/https-game-*.png.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from chromium_setup import CHROMIUM, CHROMIUM_ARGS
from cryptography import x509
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Error, Page, expect
from test_offline_on_a_phone import DEAL_1, fill_deal
from test_table_on_plain_http import DEALS, expect_saved, fill_deal_fields, halves, values_of
from werkzeug.serving import make_server

from scorekeeper import create_app, local_ca
from scorekeeper.extensions import db
from scorekeeper.live import poll
from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.variants import get_variant

HOST = "table.test"
PHONE = {"width": 390, "height": 844}
SECOND_PHONE = {"width": 360, "height": 640}
# The live poll asks every 5 s: a second phone sees a deal within one or two polls.
FOLLOWS = 30_000
RESOLVE = f"--host-resolver-rules=MAP {HOST} 127.0.0.1"
SECURE_FEATURES = "[window.isSecureContext, 'serviceWorker' in navigator, 'wakeLock' in navigator]"


@pytest.fixture
def certificates(tmp_path: Path) -> local_ca.Certificates:
    return local_ca.ensure(tmp_path / "tls", [HOST, "localhost", "127.0.0.1"])


def _serve(app: Flask, tls: local_ca.Certificates | None) -> Iterator[int]:
    context = (str(tls.cert), str(tls.key)) if tls else None
    server = make_server("127.0.0.1", 0, app, threaded=True, ssl_context=context)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture
def https_port(migrated_app: Flask, certificates: local_ca.Certificates) -> Iterator[int]:
    """The app over https with the table's certificate; its public address names table.test."""
    for port in _serve(migrated_app, certificates):
        migrated_app.config["PUBLIC_URL"] = f"https://{HOST}:{port}"
        yield port


@pytest.fixture
def http_port(migrated_app: Flask) -> Iterator[int]:
    """The same app over plain http, as ``make run`` serves it."""
    yield from _serve(migrated_app, None)


def _launch(browser: Browser, **options: object) -> Browser:
    """Another Chromium of the session's Playwright, which maps table.test to 127.0.0.1."""
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    assert executable is not None, "Chromium is not installed"
    return browser.browser_type.launch(
        executable_path=executable, headless=True, args=[*CHROMIUM_ARGS, RESOLVE], **options
    )


@pytest.fixture
def helper_port(
    migrated_app: Flask, certificates: local_ca.Certificates, https_port: int
) -> Iterator[int]:
    """The plain-http server beside the https one, as ``make run HTTPS=1`` runs it: the trust
    page, and every other page sent on to https."""
    helper = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": migrated_app.config["SECRET_KEY"],
            "SQLALCHEMY_DATABASE_URI": migrated_app.config["SQLALCHEMY_DATABASE_URI"],
            "PUBLIC_URL": migrated_app.config["PUBLIC_URL"],
            "TABLE_CA": str(certificates.ca),
            "TLS_HELPER": True,
        }
    )
    yield from _serve(helper, None)
    poll.stop(helper)
    with helper.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def trusting_browser(
    browser: Browser, tmp_path: Path, certificates: local_ca.Certificates
) -> Iterator[Browser]:
    """Chromium whose HOME holds an NSS database that trusts the table's authority."""
    certutil = shutil.which("certutil")
    if certutil is None:
        pytest.fail("certutil is missing: apt-get install libnss3-tools")
    home = tmp_path / "home"
    database = home / ".pki" / "nssdb"
    database.mkdir(parents=True)
    nss = f"sql:{database}"
    subprocess.run([certutil, "-d", nss, "-N", "--empty-password"], check=True)
    subprocess.run(
        [certutil, "-d", nss, "-A", "-t", "C,,", "-n", "table", "-i", str(certificates.ca)],
        check=True,
    )
    listed = subprocess.run([certutil, "-d", nss, "-L"], check=True, capture_output=True)
    assert b"table" in listed.stdout
    trusting = _launch(browser, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    yield trusting
    trusting.close()


@pytest.fixture
def phone(trusting_browser: Browser) -> Iterator[BrowserContext]:
    context = trusting_browser.new_context(viewport=PHONE, locale="en-US", service_workers="allow")
    yield context
    context.close()


def _start_game(page: Page, base: str) -> str:
    page.goto(base + "/games/new")
    page.get_by_label("Team 1", exact=True).fill("Ann & Bob")
    page.get_by_label("Team 2", exact=True).fill("Cy & Di")
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url(re.compile(r"/g/[^/]+/deals/1$"))
    return page.url.rsplit("/deals/", 1)[0]


def _kept_paths(page: Page) -> list[str] | None:
    """The deal forms this phone keeps, not sent yet (IndexedDB, read through the page); None
    while the page is between two addresses or has not loaded its store yet."""
    try:
        return page.evaluate(
            "window.offlineStore ? window.offlineStore.all().then(l => l.map(r => r.path)) : null"
        )
    except Error as error:
        if "context was destroyed" in str(error):
            return None
        raise


def _wait_until(check: Callable[[], bool], what: str, seconds: float = 60) -> None:
    """Wait for a state that only an asynchronous read shows (IndexedDB, the server)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.2)


def _stored_deals(port: int, certificates: local_ca.Certificates, game: str) -> list[object]:
    """The game's deals as the server has them, asked over https at 127.0.0.1 (which the
    certificate names too), trusting the table's authority only."""
    trusted = ssl.create_default_context(cafile=str(certificates.ca))
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=trusted, timeout=30)
    connection.request("GET", "/api/v1/games/" + game.rsplit("/g/", 1)[1])
    document = json.loads(connection.getresponse().read())
    connection.close()
    return document["games"][0]["deals"]  # type: ignore[no-any-return]


@pytest.mark.browser
def test_over_plain_http_a_phone_gets_no_service_worker_and_no_wake_lock(
    trusting_browser: Browser, http_port: int
) -> None:
    context = trusting_browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.goto(f"http://{HOST}:{http_port}/games/new")
        expect(page.get_by_role("heading", level=1)).to_have_text("New game")

        assert page.evaluate(SECURE_FEATURES) == [False, False, False]
        assert page.evaluate("document.documentElement.hasAttribute('data-pages-kept')") is False
    finally:
        context.close()


@pytest.mark.browser
def test_a_browser_that_does_not_trust_the_authority_refuses_the_page(
    browser: Browser, https_port: int
) -> None:
    untrusting = _launch(browser)  # the user's own HOME: no such authority there
    try:
        page = untrusting.new_page()
        with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"https://{HOST}:{https_port}/games/new")
    finally:
        untrusting.close()


@pytest.mark.browser
def test_over_https_the_worker_takes_control_and_a_deal_saved_offline_survives_a_reload(
    phone: BrowserContext,
    https_port: int,
    certificates: local_ca.Certificates,
    artifacts_dir: Path,
) -> None:
    base = f"https://{HOST}:{https_port}"
    page = phone.new_page()
    game = _start_game(page, base)
    assert page.evaluate(SECURE_FEATURES) == [True, True, True]

    page.goto(game)
    expect(page.locator("html")).to_have_attribute("data-pages-kept", re.compile(r"\d"))
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")

    phone.set_offline(True)
    page.goto(game + "/deals/1")
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    page.locator("input[name=went_out][value='0']").check()
    for name, value in DEAL_1.items():
        page.locator(f"input[name='{name}']").fill(value)
    page.locator("button[name=save]").click()
    deal_1 = game.removeprefix(base) + "/deals/1"
    _wait_until(lambda: _kept_paths(page) == [deal_1], "deal 1 kept on the phone")
    assert _stored_deals(https_port, certificates, game) == []

    page.reload()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_function("window.offlineStore !== undefined")
    assert _kept_paths(page) == [deal_1]
    assert _stored_deals(https_port, certificates, game) == []
    page.screenshot(path=artifacts_dir / "https-offline-kept-after-reload.png", full_page=True)

    phone.set_offline(False)
    _wait_until(lambda: bool(_stored_deals(https_port, certificates, game)), "deal 1 sent")
    _wait_until(lambda: _kept_paths(page) == [], "the phone's copy dropped once sent")
    deals = _stored_deals(https_port, certificates, game)
    assert len(deals) == 1
    sides = deals[0]["sides"]  # type: ignore[index]
    assert sides[0]["meld_points"] == 1210 and sides[1]["cards_left_points"] == 120


@pytest.mark.browser
def test_the_trust_page_over_http_hands_over_the_authority_then_leads_to_https(
    trusting_browser: Browser,
    helper_port: int,
    https_port: int,
    certificates: local_ca.Certificates,
) -> None:
    context = trusting_browser.new_context(viewport=PHONE, locale="en-US", accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"http://{HOST}:{helper_port}/games/new")
        page.wait_for_url(f"https://{HOST}:{https_port}/games/new")

        page.goto(f"http://{HOST}:{helper_port}/trust")
        expect(page.get_by_role("heading", level=1)).to_have_text("Trust this table’s certificate")
        with page.expect_download() as started:
            page.get_by_role("link", name="Download the certificate").click()
        download = started.value
        assert download.suggested_filename == "hand-and-foot-table-ca.crt"
        handed = x509.load_der_x509_certificate(Path(download.path()).read_bytes())
        assert handed == x509.load_pem_x509_certificate(certificates.ca.read_bytes())

        page.get_by_role("link", name=f"https://{HOST}:{https_port}/").click()
        page.wait_for_url(f"https://{HOST}:{https_port}/")
        assert page.evaluate(SECURE_FEATURES) == [True, True, True]
    finally:
        context.close()


def _totals_of_deals(count: int) -> tuple[int, int]:
    """The game's totals after the first ``count`` deals of ``DEALS``, as the rules core
    scores them (deal 3 with the red threes corrected while it was kept on the phone)."""
    totals = [0, 0]
    for number, (out, *sides) in enumerate(DEALS[:count], start=1):
        entries = [dict(side) for side in sides]
        if number == 3:
            entries[0]["red_threes_down"] = 0
        entry = DealEntry(
            get_variant("pagat"),
            number,
            tuple(
                SideEntry(**values, went_out=out == str(index))
                for index, values in enumerate(entries)
            ),
            players=4,
            stock_ran_out=out == "stock",
        )
        for index, scored in enumerate(score_deal(entry)):
            totals[index] += scored.total
    return totals[0], totals[1]


def _big_totals(page: Page) -> tuple[int, ...]:
    return tuple(int(text) for text in page.locator(".big-totals .big-total").all_inner_texts())


def _pagat_game(page: Page, base: str) -> str:
    page.goto(base + "/games/new")
    page.get_by_label("Partnership (pagat.com)").check()
    return _start_game(page, base)


def _kept_by_the_worker(
    context: BrowserContext,
    page: Page,
    game: str,
    number: int,
    shots: Path,
    change: str | None = None,
) -> None:
    """Types deal ``number``, the network lost halfway, and saves it: the worker keeps it and
    shows the scoreboard it kept, its totals counting the deal, marked as not sent yet. With
    ``change``, the deal is opened again from there, one field set to 0 and saved again."""
    out, *_sides = DEALS[number - 1]
    first, rest = halves(values_of(DEALS[number - 1]))
    expect(page).to_have_url(re.compile(rf"/deals/{number}$"))
    page.wait_for_load_state("load")  # the scripts that keep a deal without the network have run
    page.locator(f"input[name=went_out][value='{out}']").check()
    fill_deal_fields(page, first)
    context.set_offline(True)
    fill_deal_fields(page, rest)
    page.screenshot(path=shots / f"https-game-deal-{number}-typed-offline.png")
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")
    if change is not None:
        page.goto(game + f"/deals/{number}")
        expect(page.locator(f"input[name='{change}']")).not_to_have_value("")
        expect(page.locator("#save-status")).to_have_text(
            f"Deal {number}: saved on this phone, not sent yet."
        )
        expect(page.locator("button[name=save]")).to_be_disabled()  # until it is edited
        page.screenshot(path=shots / f"https-game-deal-{number}-form-kept.png")
        page.locator(f"input[name='{change}']").fill("0")
        page.locator("button[name=save]").click()
        page.wait_for_url(game + "#kept-on-this-phone")

    status = page.locator(".offline-status")
    expect(status).to_contain_text(f"Deal {number}: saved on this phone, not sent yet.")
    expect(status).to_contain_text("No network")
    kept_note = page.locator(".kept-next")
    expect(kept_note).to_contain_text(
        f"These totals count deal {number}, saved on this phone and not sent yet."
    )
    expect(page.locator(".big-totals")).to_have_class(re.compile(r"\bkept\b"))
    assert _big_totals(page) == _totals_of_deals(number)
    expect(page.locator("#totals tr.kept th")).to_have_text(str(number))
    next_deal = page.get_by_role("link", name=re.compile(r"^Enter deal \d$"))
    expect(next_deal).to_have_count(1)
    expect(next_deal).to_have_text(f"Enter deal {number + 1}")
    page.screenshot(path=shots / f"https-game-deal-{number}-kept.png")
    assert [record["number"] for record in page.evaluate("window.offlineStore.all()")] == [number]


@pytest.mark.browser
def test_a_whole_game_over_https_with_the_network_cut_in_deals_2_and_3(
    trusting_browser: Browser,
    https_port: int,
    certificates: local_ca.Certificates,
    artifacts_dir: Path,
) -> None:
    base = f"https://{HOST}:{https_port}"
    first_context = trusting_browser.new_context(
        viewport=PHONE, locale="en-US", service_workers="allow"
    )
    second_context = trusting_browser.new_context(
        viewport=SECOND_PHONE, locale="en-US", service_workers="allow"
    )
    first, second = first_context.new_page(), second_context.new_page()
    try:
        game = _pagat_game(first, base)
        assert first.evaluate(SECURE_FEATURES) == [True, True, True]
        second.goto(game)
        expect(second.locator("main")).to_contain_text("No deal entered yet.")

        # Deal 1, with the network; the worker then controls the page and keeps the game's.
        fill_deal(first, values_of(DEALS[0]), went_out=0)
        first.locator("button[name=save]").click()
        expect_saved(first, game, 1)
        first.wait_for_function("navigator.serviceWorker.controller !== null")
        expect(first.locator("html")).to_have_attribute("data-pages-kept", re.compile(r"\d"))
        expect(second.locator("#deal-1")).to_be_visible(timeout=FOLLOWS)
        first.screenshot(path=artifacts_dir / "https-game-deal-1-saved.png")

        # Deal 2: the network goes halfway through the typing; back on the kept scoreboard.
        first.locator(".just-saved").get_by_role("link", name="Enter deal 2").click()
        _kept_by_the_worker(first_context, first, game, 2, artifacts_dir)
        assert [d["number"] for d in _stored_deals(https_port, certificates, game)] == [1]  # type: ignore[index]
        first_context.set_offline(False)
        expect_saved(first, game, 2)
        first.screenshot(path=artifacts_dir / "https-game-deal-2-sent.png")
        expect(second.locator("#deal-2")).to_be_visible(timeout=FOLLOWS)
        second.screenshot(path=artifacts_dir / "https-game-second-phone-deal-2.png")

        # Deal 3: the same, and a number corrected while the deal waits on the phone.
        first.locator(".just-saved").get_by_role("link", name="Enter deal 3").click()
        _kept_by_the_worker(
            first_context, first, game, 3, artifacts_dir, change="sides-0-red_threes_down"
        )
        first.reload()  # still no network: the worker's copy, the deal still counted
        expect(first.locator(".kept-next")).to_contain_text("These totals count deal 3")
        assert _big_totals(first) == _totals_of_deals(3)
        first.screenshot(path=artifacts_dir / "https-game-deal-3-kept-after-reload.png")
        first_context.set_offline(False)
        expect_saved(first, game, 3)
        first.screenshot(path=artifacts_dir / "https-game-deal-3-sent.png")
        expect(second.locator("#deal-3")).to_be_visible(timeout=FOLLOWS)
        second.screenshot(path=artifacts_dir / "https-game-second-phone-deal-3.png")

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
        second.screenshot(path=artifacts_dir / "https-game-second-phone-end.png", full_page=True)
        first.screenshot(path=artifacts_dir / "https-game-first-phone-end.png")

        deals = _stored_deals(https_port, certificates, game)
        assert [deal["number"] for deal in deals] == [1, 2, 3, 4]  # type: ignore[index]
        for deal, (out, *sides) in zip(deals, DEALS, strict=True):
            stored_sides = deal["sides"]  # type: ignore[index]
            expected = [dict(side) for side in sides]
            if deal["number"] == 3:  # type: ignore[index]
                expected[0]["red_threes_down"] = 0
            for stored_side, typed in zip(stored_sides, expected, strict=True):
                assert {name: stored_side[name] for name in typed} == typed
            assert [side["went_out"] for side in stored_sides] == [
                out == str(index) for index in range(2)
            ]
        for page in (first, second):
            assert page.locator("section.deal").count() == 4
            assert _big_totals(page) == _totals_of_deals(4)
        assert first.evaluate("window.offlineStore.all()") == []
        kept_scores = "Object.keys(localStorage).filter(k => k.startsWith('kept-scores:'))"
        assert first.evaluate(kept_scores) == []  # gone with the deals once saved
    finally:
        first_context.close()
        second_context.close()
