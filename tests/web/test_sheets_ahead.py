"""Sheets no table waits for: a finished game's sheet made after its last deal is saved, and
a render that meets a busy machine waiting its turn for a bounded moment."""

from __future__ import annotations

import fcntl
import io
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import Links, save, start_game
from pypdf import PdfReader
from sqlalchemy import delete, select
from test_operations import TOKEN, scrape, value
from test_served import gunicorn, wait_for

from scorekeeper.extensions import db
from scorekeeper.limits.slots import render_slots
from scorekeeper.printing import kept, pdf
from scorekeeper.sheets import ahead, views
from scorekeeper.store.games import Game
from scorekeeper.store.kept_sheets import KeptSheet

MAKING_SECONDS = 120
"""The most a test waits for a sheet made in the background (a loaded machine is slow)."""


@pytest.fixture
def app(make_app) -> Flask:  # noqa: ANN001
    """An app that makes finished games' sheets ahead (the tests' apps do not by default)."""
    return make_app(SHEETS_AHEAD=True)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(autouse=True)
def _nothing_made_before() -> None:
    views.blank_pdfs.clear()
    views.made_pdfs.clear()
    pdf.fitted_rows.clear()


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The layouts asked of WeasyPrint in this process, by their work."""
    laid_out: list[str] = []
    real = pdf.RenderContext.run

    def counted(context: pdf.RenderContext, work, *args: object):  # noqa: ANN001, ANN202
        laid_out.append(work.__name__)
        return real(context, work, *args)

    monkeypatch.setattr(pdf.RenderContext, "run", counted)
    return laid_out


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF-")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def kept_pdfs(app: Flask) -> list[Path]:
    return sorted((Path(app.instance_path) / kept.FOLDER).glob("*" + kept.PDF_SUFFIX))


def play(client: FlaskClient, links: Links, deals: range) -> None:
    for number in deals:
        assert save(client, links, number, version=0).status_code == 303


def as_another_worker() -> None:
    """Forget what this process keeps in memory: only the instance folder is left."""
    views.made_pdfs.clear()
    pdf.fitted_rows.clear()


def test_the_tests_apps_make_no_sheet_ahead_unless_asked(make_app, layouts):
    plain = make_app()
    client = plain.test_client()
    play(client, start_game(plain, client), range(1, 5))

    assert ahead.wait_until_made(MAKING_SECONDS)
    assert layouts == []
    assert kept_pdfs(plain) == []


# --- made ahead ----------------------------------------------------------------------------


def test_the_last_deal_saved_makes_the_sheet_that_the_print_then_sends(app, client, layouts):
    links = start_game(app, client, name="Club night")
    play(client, links, range(1, 5))
    assert ahead.wait_until_made(MAKING_SECONDS)
    assert "_pdf_bytes" in layouts
    assert len(kept_pdfs(app)) == 1
    as_another_worker()
    layouts.clear()

    printed = client.get(f"{links.edit_path}/sheet.pdf")

    assert printed.status_code == 200
    assert layouts == []  # neither measured nor rendered: sent as it was made
    assert printed.data == kept_pdfs(app)[0].read_bytes()
    text = pdf_text(printed.data)
    assert "Club night" in text
    assert "Winner: Us with" in text
    assert "Deal 4" in text


def as_another_server(app: Flask) -> None:
    """Forget what this process keeps and what this machine's workers keep in its instance
    folder: only the database is left."""
    as_another_worker()
    for path in kept_pdfs(app):
        path.unlink()
    for path in (Path(app.instance_path) / kept.FOLDER).glob("*" + kept.ROW_SUFFIX):
        path.unlink()


def test_a_sheet_made_ahead_on_one_server_is_sent_by_another_without_a_layout(app, client, layouts):
    links = start_game(app, client, name="Club night")
    play(client, links, range(1, 5))
    assert ahead.wait_until_made(MAKING_SECONDS)
    made = kept_pdfs(app)[0].read_bytes()
    with app.app_context():
        assert db.session.scalars(select(KeptSheet.pdf)).all() == [made]
    as_another_server(app)
    layouts.clear()

    printed = client.get(f"{links.edit_path}/sheet.pdf")

    assert printed.status_code == 200
    assert layouts == []  # neither measured nor rendered: read from the database
    assert printed.data == made
    text = pdf_text(printed.data)
    assert "Club night" in text and "Winner: Us with" in text and "Deal 4" in text


def test_a_game_deleted_takes_its_kept_sheets_with_it(app, client):
    links = start_game(app, client, name="Club night")
    play(client, links, range(1, 5))
    assert ahead.wait_until_made(MAKING_SECONDS)
    with app.app_context():
        assert len(db.session.scalars(select(KeptSheet.key)).all()) == 1
        db.session.execute(delete(Game))
        db.session.commit()
        assert db.session.scalars(select(KeptSheet.key)).all() == []


def test_a_corrected_game_is_printed_anew_not_sent_as_kept(app, client, layouts):
    links = start_game(app, client, name="Club night")
    play(client, links, range(1, 5))
    assert ahead.wait_until_made(MAKING_SECONDS)
    first = client.get(f"{links.edit_path}/sheet.pdf")
    form = client.get(f"{links.edit_path}/deals/4").get_data(as_text=True)
    version = int(re.search(r'name="version" value="(\d+)"', form).group(1))
    corrected = save(client, links, 4, version=version, **{"sides-0-meld_points": "1500"})
    assert corrected.status_code == 303
    as_another_server(app)

    again = client.get(f"{links.edit_path}/sheet.pdf")

    assert again.status_code == 200
    assert again.data != first.data
    assert "_pdf_bytes" in layouts


def test_the_sheet_is_made_in_the_readers_language_and_paper(app, client, layouts):
    client.set_cookie("lang", "de")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE"
    links = start_game(app, client, name="Spieleabend")
    play(client, links, range(1, 5))
    assert ahead.wait_until_made(MAKING_SECONDS)
    as_another_worker()
    layouts.clear()

    printed = client.get(f"{links.view_path}/sheet.pdf")

    assert printed.status_code == 200
    assert layouts == []
    page = PdfReader(io.BytesIO(printed.data)).pages[0]
    assert round(float(page.mediabox.width)) == 595  # A4 in Germany
    text = page.extract_text()
    assert "Spieleabend" in text and "Gewinner: Us mit" in text


def test_a_game_not_finished_has_no_sheet_made_ahead(app, client, layouts):
    """Its last deal entered first, then deal 2, and deal 2 corrected: no game over."""
    links = start_game(app, client)
    play(client, links, range(4, 0, -2))
    form = client.get(f"{links.edit_path}/deals/2").get_data(as_text=True)
    version = int(re.search(r'name="version" value="(\d+)"', form).group(1))
    corrected = save(client, links, 2, version=version, **{"sides-0-meld_points": "1500"})
    assert corrected.status_code == 303

    assert ahead.wait_until_made(MAKING_SECONDS)
    assert layouts == []
    assert kept_pdfs(app) == []


def test_the_save_is_answered_before_the_sheet_is_made(app, client, monkeypatch):
    may_make = threading.Event()
    made: list[int] = []

    def slow_make(game) -> None:  # noqa: ANN001
        assert may_make.wait(MAKING_SECONDS)
        made.append(game.id)

    monkeypatch.setattr(views, "make_game_pdf_ahead", slow_make)
    links = start_game(app, client)
    play(client, links, range(1, 5))  # answered while the sheet waits to be made

    assert made == []
    may_make.set()
    assert ahead.wait_until_made(MAKING_SECONDS)
    assert made == [links.game_id]


def test_a_sheet_made_ahead_is_not_counted_against_the_clients_limit(make_app):
    app = make_app(LIMIT_SHEETS="1/minute", SHEETS_AHEAD=True)
    client = app.test_client()
    links = start_game(app, client)
    play(client, links, range(1, 5))
    assert ahead.wait_until_made(MAKING_SECONDS)

    for _ in range(2):  # made ahead, so neither counts
        printed = client.get(f"{links.edit_path}/sheet.pdf")
        assert printed.status_code == 200
        assert "Winner: Us with" in pdf_text(printed.data)
    assert client.get("/sheets/pagat.pdf?sides=2&names=Ann").status_code == 200
    assert client.get("/sheets/pagat.pdf?sides=2&names=Bob").status_code == 429


# --- a print while its sheet is being made ahead ---------------------------------------------


def print_in_background(app: Flask, path: str) -> tuple[threading.Thread, list]:
    """The print of ``path`` asked in a thread of its own (another table's phone)."""
    answers: list = []

    def ask() -> None:
        answers.append(app.test_client().get(path))

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread, answers


def held_back_maker(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The real maker, held back until the first event is set; the second says it started."""
    may_make, started = threading.Event(), threading.Event()
    real = views.make_game_pdf_ahead

    def make(game) -> None:  # noqa: ANN001
        started.set()
        assert may_make.wait(MAKING_SECONDS)
        real(game)

    monkeypatch.setattr(views, "make_game_pdf_ahead", make)
    return may_make, started


def test_a_print_asked_while_its_sheet_is_made_ahead_gets_that_very_sheet(
    app, client, layouts, monkeypatch
):
    may_make, started = held_back_maker(monkeypatch)
    links = start_game(app, client, name="Club night")
    play(client, links, range(1, 5))
    assert started.wait(MAKING_SECONDS)

    thread, answers = print_in_background(app, f"{links.edit_path}/sheet.pdf")
    thread.join(0.5)
    assert thread.is_alive()  # waiting for the sheet being made, not rendering its own
    assert layouts == []
    may_make.set()
    thread.join(MAKING_SECONDS)
    assert ahead.wait_until_made(MAKING_SECONDS)

    assert answers[0].status_code == 200
    assert layouts.count("_pdf_bytes") == 1  # one render: the sheet made ahead
    assert answers[0].data == kept_pdfs(app)[0].read_bytes()
    assert "Winner: Us with" in pdf_text(answers[0].data)


def test_a_print_waits_for_the_sheet_another_worker_is_making(app, client, layouts):
    links = start_game(app, client, name="Club night")  # SHEETS_AHEAD on, no deal yet
    folder = Path(app.instance_path) / ahead.MARKERS_FOLDER
    marker = ahead._lock_marker(folder, links.game_id)  # as another worker queueing it
    assert marker is not None
    with app.test_request_context():
        app.config["SHEETS_AHEAD"] = False  # this worker leaves the sheet to the other one
        play(client, links, range(1, 5))
        app.config["SHEETS_AHEAD"] = True

        thread, answers = print_in_background(app, f"{links.edit_path}/sheet.pdf")
        thread.join(0.5)
        assert thread.is_alive()
        assert (folder / f"game-{links.game_id}.asked").exists()
        game = views.load_game(links.game_id)
        views.make_game_pdf_ahead(game)  # the other worker's render
        as_another_worker()
        os.close(marker)  # its job is over
    thread.join(MAKING_SECONDS)

    assert answers[0].status_code == 200
    assert layouts.count("_pdf_bytes") == 1
    assert answers[0].data == kept_pdfs(app)[0].read_bytes()


def test_a_print_still_waiting_when_its_wait_is_over_answers_503(make_app, monkeypatch):
    may_make, started = held_back_maker(monkeypatch)
    app = make_app(SHEETS_AHEAD=True, SHEET_RENDER_WAIT_SECONDS=0.2)
    client = app.test_client()
    links = start_game(app, client)
    play(client, links, range(1, 5))
    assert started.wait(MAKING_SECONDS)

    refused = client.get(f"{links.edit_path}/sheet.pdf")
    may_make.set()
    assert ahead.wait_until_made(MAKING_SECONDS)

    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "3"
    assert "Try again in a few seconds" in refused.get_data(as_text=True)
    assert client.get(f"{links.edit_path}/sheet.pdf").status_code == 200


def test_a_sheet_asked_for_is_made_before_those_nobody_asked_for(app, client, monkeypatch):
    may_make, started = threading.Event(), threading.Event()
    made: list[int] = []

    def make(game) -> None:  # noqa: ANN001
        started.set()
        assert may_make.wait(MAKING_SECONDS)
        made.append(game.id)

    monkeypatch.setattr(views, "make_game_pdf_ahead", make)
    games = [start_game(app, client, name=f"Table {number}") for number in range(3)]
    for links in games:
        play(client, links, range(1, 5))
    assert started.wait(MAKING_SECONDS)  # the first is being made, the others wait in line
    asked = games[2].game_id
    mark = Path(app.instance_path) / ahead.MARKERS_FOLDER / f"game-{asked}.asked"

    def wait_for_it() -> None:
        with app.app_context():
            assert ahead.wait_for(asked, MAKING_SECONDS)

    waiting = threading.Thread(target=wait_for_it, daemon=True)
    waiting.start()
    while waiting.is_alive() and not mark.exists():
        waiting.join(0.01)
    may_make.set()
    waiting.join(MAKING_SECONDS)
    assert ahead.wait_until_made(MAKING_SECONDS)

    assert made == [games[0].game_id, asked, games[1].game_id]


# --- waiting for a render slot -------------------------------------------------------------


def blank_sheet(client: FlaskClient, name: str):  # noqa: ANN201
    return client.get(f"/sheets/pagat.pdf?sides=2&names={name}&names=Bob")


def waits(client: FlaskClient) -> float:
    return value(scrape(client), "scorekeeper_pdf_render_waits_total")


def test_a_render_that_finds_every_slot_taken_waits_for_its_turn(make_app):
    app = make_app(
        SHEET_RENDERS_AT_ONCE=1, SHEET_RENDER_WAIT_SECONDS=MAKING_SECONDS, METRICS_TOKEN=TOKEN
    )
    client = app.test_client()
    with app.app_context():
        slots = render_slots()
    waited_before = waits(client)

    with ThreadPoolExecutor(max_workers=1) as thread:
        with slots.held(wait_seconds=0):
            asked = thread.submit(blank_sheet, app.test_client(), "Ann")
            wait_for(lambda: waits(client) > waited_before, "the render waits", MAKING_SECONDS)
            assert not asked.done()
        answer = asked.result(timeout=MAKING_SECONDS)

    assert answer.status_code == 200
    assert "Ann" in pdf_text(answer.data)


def test_the_same_sheet_asked_twice_while_the_slot_is_taken_is_rendered_once(make_app, layouts):
    app = make_app(
        SHEET_RENDERS_AT_ONCE=1, SHEET_RENDER_WAIT_SECONDS=MAKING_SECONDS, METRICS_TOKEN=TOKEN
    )
    client = app.test_client()
    with app.app_context():
        slots = render_slots()
    waited_before = waits(client)

    with ThreadPoolExecutor(max_workers=2) as threads:
        with slots.held(wait_seconds=0):
            asked = [threads.submit(blank_sheet, app.test_client(), "Ann") for _ in range(2)]
            wait_for(lambda: waits(client) >= waited_before + 2, "both wait", MAKING_SECONDS)
        answers = [future.result(timeout=MAKING_SECONDS) for future in asked]

    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].data == answers[1].data
    assert "Ann" in pdf_text(answers[0].data)
    assert layouts == ["_measured_row_pt", "_pdf_bytes"]


def test_a_render_answers_503_when_no_slot_comes_free_in_time(make_app, layouts):
    app = make_app(SHEET_RENDERS_AT_ONCE=1, SHEET_RENDER_WAIT_SECONDS=0.2)
    client = app.test_client()
    with app.app_context():
        slots = render_slots()

    with slots.held(wait_seconds=0):
        busy = blank_sheet(client, "Ann")

    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "3"
    assert "Score sheets are being printed for other tables." in busy.get_data(as_text=True)
    assert layouts == []


@pytest.mark.parametrize("wait", [-1, "soon"])
def test_a_wait_that_is_not_a_number_of_seconds_stops_the_start(make_app, wait):
    with pytest.raises(ValueError, match="SHEET_RENDER_WAIT_SECONDS must be 0 or more"):
        make_app(SHEET_RENDER_WAIT_SECONDS=wait)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_under_gunicorn_a_render_waits_for_the_slot_another_process_holds(
    app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SHEET_RENDERS_AT_ONCE", "1")
    monkeypatch.setenv("SCOREKEEPER_SHEET_RENDER_WAIT_SECONDS", str(MAKING_SECONDS))
    monkeypatch.setenv("SCOREKEEPER_METRICS_TOKEN", TOKEN)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics"))
    (tmp_path / "metrics").mkdir()
    slot = tmp_path / "instance" / "render-slots" / "slot-0.lock"
    with gunicorn(app, tmp_path, workers=2) as served:

        def scraped_waits() -> float:
            status, _headers, body = served.get_with(
                "/metrics", {"Authorization": f"Bearer {TOKEN}"}
            )
            assert status == 200
            for line in body.decode().splitlines():
                if line.startswith("scorekeeper_pdf_render_waits_total "):
                    return float(line.split()[1])
            return 0.0

        slot.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(slot, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            with ThreadPoolExecutor(max_workers=1) as thread:
                asked = thread.submit(
                    served.get, "/sheets/pagat.pdf?sides=2&names=Ann&names=Bob", MAKING_SECONDS
                )
                wait_for(lambda: scraped_waits() >= 1, "the render waits", MAKING_SECONDS)
                assert not asked.done()
                os.close(descriptor)
                descriptor = -1
                status, headers, body = asked.result(timeout=MAKING_SECONDS)
        finally:
            if descriptor != -1:
                os.close(descriptor)

    assert status == 200, body[:300]
    assert headers["Content-Type"] == "application/pdf"
    assert "Ann" in pdf_text(body)
