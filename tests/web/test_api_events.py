"""GET /api/v1/games/<token>/events: a game's changes as Server-Sent Events, for programs."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_api_games import PAGAT_CAUGHT, PAGAT_OUT, bearer, deal_json, make_table, start

from scorekeeper.api import events


@pytest.fixture
def game(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """A started game's view and edit tokens."""
    app.config.update(API_EVENTS_SECONDS=3.0, API_EVENTS_STEP_SECONDS=0.05, POLL_FRESH_SECONDS=0)
    started = start(app.test_client(), make_table(client)).get_json()
    view = started["links"]["view_url"].rpartition("/")[2]
    return view, started["links"]["edit_token"]


def parsed(stream: Iterator[bytes]) -> Iterator[dict[str, str]]:
    """Each event of the stream as its fields; comments and the retry left out."""
    fields: dict[str, str] = {}
    for line in b"".join(stream).decode().splitlines():
        if not line:
            if "event" in fields:
                yield fields
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


def test_the_stream_tells_each_deal_added_changed_and_deleted_with_the_version(
    app: Flask, game: tuple[str, str]
) -> None:
    view, edit = game
    api = app.test_client()
    answer = api.get(f"/api/v1/games/{view}/events", buffered=False)
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-store"
    statuses: list[int] = []

    def write() -> None:  # another phone, while the program listens
        writer = app.test_client()
        path = f"/api/v1/games/{edit}/deals/1"
        for change in (
            lambda: writer.put(path, json=deal_json(PAGAT_OUT, PAGAT_CAUGHT), headers=bearer(edit)),
            lambda: writer.put(path, json=deal_json(PAGAT_CAUGHT, PAGAT_OUT), headers=bearer(edit)),
            lambda: writer.delete(path, headers=bearer(edit)),
        ):
            time.sleep(0.3)
            statuses.append(change().status_code)

    writer = threading.Thread(target=write)
    writer.start()
    heard = list(parsed(answer.response))  # read by the thread that asked, as a server does
    writer.join()

    assert statuses == [201, 200, 200]
    assert [(e["event"], e["id"], e["data"]) for e in heard] == [
        ("version", "1", '{"version": 1, "kind": "version", "deal": null}'),
        ("added", "2", '{"version": 2, "kind": "added", "deal": 1}'),
        ("changed", "3", '{"version": 3, "kind": "changed", "deal": 1}'),
        ("deleted", "4", '{"version": 4, "kind": "deleted", "deal": 1}'),
    ]


def test_a_reconnect_with_the_last_id_hears_nothing_until_the_game_moves(
    app: Flask, game: tuple[str, str]
) -> None:
    view, _edit = game
    app.config["API_EVENTS_SECONDS"] = 0.3
    answer = app.test_client().get(f"/api/v1/games/{view}/events", headers={"Last-Event-ID": "1"})
    assert answer.get_data(as_text=True) == "retry: 1000\n\n"


def test_a_link_that_opens_no_game_is_404_problem_details(client: FlaskClient) -> None:
    answer = client.get("/api/v1/games/" + "x" * 43 + "/events")
    assert answer.status_code == 404
    assert answer.mimetype == "application/problem+json"


def test_past_the_most_streams_a_process_keeps_open_one_more_is_503_until_one_ends(
    app: Flask, game: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    view, _edit = game
    monkeypatch.setattr(events, "_open", threading.BoundedSemaphore(1))
    first = app.test_client().get(f"/api/v1/games/{view}/events", buffered=False)
    assert first.status_code == 200
    second = app.test_client().get(f"/api/v1/games/{view}/events")
    assert second.status_code == 503
    assert second.headers["Retry-After"] == "5"
    first.close()  # closed unread: its place is given back
    third = app.test_client().get(f"/api/v1/games/{view}/events", buffered=False)
    assert third.status_code == 200
    third.close()
