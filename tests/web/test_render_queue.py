"""Renders that find every slot taken wait in line: first come first served across the
machine's workers, each for a bounded time, and every one of them answered with its sheet when
the line moves in time."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import Links, start_game
from test_operations import TOKEN
from test_served import wait_for
from test_sheets_ahead import MAKING_SECONDS, pdf_text, play, waits
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.limits.slots import LOOK_SECONDS, RenderSlots, render_slots
from scorekeeper.printing import pdf
from scorekeeper.sheets import views

TABLES = 6
SIDES = ("Ann", "Bob")


@pytest.fixture(autouse=True)
def _nothing_made_before() -> None:
    views.blank_pdfs.clear()
    views.made_pdfs.clear()
    pdf.fitted_rows.clear()


def queued_app(make_app, wait: float = MAKING_SECONDS) -> Flask:  # noqa: ANN001
    return make_app(SHEET_RENDERS_AT_ONCE=1, SHEET_RENDER_WAIT_SECONDS=wait, METRICS_TOKEN=TOKEN)


def slots_of(app: Flask) -> RenderSlots:
    with app.app_context():
        return render_slots()


def table_game(app: Flask, client: FlaskClient, number: int) -> Links:
    """A finished game whose sides' names are its table's own."""
    names = {f"side_names-{side}": f"{name}{number}" for side, name in enumerate(SIDES)}
    links = start_game(app, client, name=f"Table {number}", **names)
    play(client, links, range(1, 5))
    return links


def test_every_table_that_prints_while_the_one_slot_is_taken_gets_its_own_sheet(make_app):
    app = queued_app(make_app)  # the tests' apps make no sheet ahead: each print renders
    client = app.test_client()
    tables = [table_game(app, client, number) for number in range(TABLES)]
    slots = slots_of(app)
    waited_before = waits(client)

    def print_sheet(links: Links):  # noqa: ANN202
        return app.test_client().get(f"{links.edit_path}/sheet.pdf")

    with ThreadPoolExecutor(max_workers=TABLES) as threads:
        with slots.held(wait_seconds=0):
            asked = [threads.submit(print_sheet, links) for links in tables]
            wait_for(
                lambda: waits(client) >= waited_before + TABLES, "every print waits", MAKING_SECONDS
            )
            assert not any(future.done() for future in asked)
        answers = [future.result(timeout=MAKING_SECONDS) for future in asked]

    assert [answer.status_code for answer in answers] == [200] * TABLES
    for number, answer in enumerate(answers):
        text = pdf_text(answer.data)
        assert f"Table {number}" in text
        assert f"Winner: {SIDES[0]}{number} with" in text
        assert f"{SIDES[1]}{number}" in text
        others = [f"{SIDES[0]}{other}" for other in range(TABLES) if other != number]
        assert not [name for name in others if name in text]
    assert not list(slots.queue.iterdir())  # nobody left in line


def test_renders_take_the_slot_in_the_order_they_came(tmp_path: Path):
    slots = RenderSlots(tmp_path, 1, wait_seconds=MAKING_SECONDS)
    order: list[int] = []
    started: list[threading.Thread] = []

    def render(number: int) -> None:
        with slots.held():
            order.append(number)
            time.sleep(0.01)

    with slots.held(wait_seconds=0):
        for number in range(5):
            thread = threading.Thread(target=render, args=(number,), daemon=True)
            thread.start()
            started.append(thread)
            wait_for(lambda n=number: len(slots._waiting) == n + 1, "in line", MAKING_SECONDS)
    for thread in started:
        thread.join(MAKING_SECONDS)

    assert order == [0, 1, 2, 3, 4]
    assert not list(slots.queue.iterdir())


def another_process_waits(slots: RenderSlots, since_ns: int) -> tuple[int, Path]:
    """A ticket in the machine's line, locked as another worker's render holds it while it
    waits (a descriptor of its own: ``flock`` tells them apart as it tells processes apart)."""
    path = slots.queue / f"{since_ns:020d}-1-1"
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return descriptor, path


def test_a_render_lets_another_workers_earlier_render_go_first(tmp_path: Path):
    slots = RenderSlots(tmp_path, 1, wait_seconds=MAKING_SECONDS)
    descriptor, ticket = another_process_waits(slots, time.monotonic_ns())
    taken = threading.Event()

    def render() -> None:
        with slots.held():
            taken.set()

    thread = threading.Thread(target=render, daemon=True)
    thread.start()
    # A slot is free, but the other worker's render came first: this one waits for it.
    assert not taken.wait(20 * LOOK_SECONDS)
    ticket.unlink()  # the other worker took its turn
    os.close(descriptor)
    assert taken.wait(MAKING_SECONDS)
    thread.join(MAKING_SECONDS)


def test_a_newcomer_does_not_take_a_free_slot_before_those_waiting(tmp_path: Path):
    slots = RenderSlots(tmp_path, 1, wait_seconds=MAKING_SECONDS)
    descriptor, ticket = another_process_waits(slots, time.monotonic_ns())
    try:
        with pytest.raises(ServiceUnavailable), slots.held(0):
            pass
    finally:
        ticket.unlink()
        os.close(descriptor)
    with slots.held(0):  # nobody waits any more: the free slot is taken at once
        pass


def test_the_ticket_of_a_worker_that_died_is_passed_over_and_removed(tmp_path: Path):
    slots = RenderSlots(tmp_path, 1, wait_seconds=MAKING_SECONDS)
    descriptor, ticket = another_process_waits(slots, time.monotonic_ns())
    os.close(descriptor)  # its worker died: the lock went with it, the file stayed

    started = time.monotonic()
    with slots.held(wait_seconds=MAKING_SECONDS):
        waited = time.monotonic() - started

    assert waited < MAKING_SECONDS / 4
    assert not ticket.exists()


def test_a_render_whose_turn_does_not_come_in_time_answers_503_and_leaves_the_line(make_app):
    app = queued_app(make_app, wait=0.3)
    client = app.test_client()
    slots = slots_of(app)

    with slots.held(wait_seconds=0):
        started = time.monotonic()
        busy = client.get("/sheets/pagat.pdf?sides=2&names=Ann&names=Bob")
        waited = time.monotonic() - started

    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "3"
    assert "Score sheets are being printed for other tables." in busy.get_data(as_text=True)
    assert 0.3 <= waited < MAKING_SECONDS
    assert not list(slots.queue.iterdir())
    assert slots._waiting == []
    assert client.get("/sheets/pagat.pdf?sides=2&names=Ann&names=Bob").status_code == 200
