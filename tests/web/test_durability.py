"""A server killed in the middle of a stream of saves loses nothing it acknowledged.

A real gunicorn server (two workers) takes deals from four clients at once through the deal
form, CSRF and version fields included. The whole process group is killed with SIGKILL while
saves are in flight. Then every save that got its 303 must be in the database with its values,
a save cut off mid-flight may be there or not but never half, the database must pass SQLite's
integrity check, and a new server must serve the games again.
"""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

import pytest
import sqlalchemy
from flask_migrate import upgrade

from bench.bench_load import CSRF_RE, deal_values, free_port
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.game_service import start_game
from scorekeeper.store.links import issue_tokens

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 4
GAMES_PER_CLIENT = 2
KILL_AFTER_SAVES = 60
KILL_AFTER_SECONDS = 120.0
"""How long to wait for the saves before the kill, at most: the kill comes as soon as they are
in, and a busy machine may take a while to make them."""


def _prepare(url: str, instance: Path) -> tuple[list[tuple[int, str, str]], dict[int, int]]:
    """Migrate the database and start the games: (id, view token, edit token) each, and each
    game's version."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "durability"})
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        variant = get_variant("pagat")
        table = variant.table_for(2, 4)
        made = []
        for number in range(CLIENTS * GAMES_PER_CLIENT):
            game = start_game(variant, table, ("Us", "Them"), f"Table {number + 1}")
            made.append((game, issue_tokens(game)))
        db.session.commit()
        games = [(game.id, game.view_token, token) for game, token in made]
        versions = {game.id: game.version for game, _token in made}
        db.session.remove()
        db.engine.dispose()
    return games, versions


class _Server:
    def __init__(self, url: str, instance: Path, log: Path) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": url,
            "SCOREKEEPER_SECRET_KEY": "durability-secret",
            "SCOREKEEPER_INSTANCE_PATH": str(instance),
        }
        env.pop("SCOREKEEPER_TEST_DATABASE_URL", None)
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--chdir",
                str(ROOT),
                "--workers",
                "2",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--access-logfile",
                "-",
                "scorekeeper:create_app()",
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_until_serving(log)

    def _wait_until_serving(self, log: Path) -> None:
        """Until a worker answers: the master listens before its workers have loaded the app."""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert self.process.poll() is None, log.read_text()
            try:
                status, _headers, _body = _request(self.port, "GET", "/rules/")
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)
                continue
            assert status == 200, status
            return
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """SIGKILL the master and its workers at once, as a crash would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.log.close()


def _request(port: int, method: str, path: str, cookie: str = "", body: str | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Cookie": cookie} if cookie else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class _Stream:
    """Clients saving deals until the server dies; what was acknowledged, and what was sent."""

    def __init__(
        self, port: int, games: list[tuple[int, str, str]], versions: dict[int, int]
    ) -> None:
        self.port = port
        self.games = games
        self.game_versions = dict(versions)
        """Each game's version: a client alone saves to its games, so it counts them itself."""
        self.lock = threading.Lock()
        self.acked: dict[tuple[int, int], int] = defaultdict(int)
        self.last_acked: dict[tuple[int, int], dict[str, int]] = {}
        self.in_flight: dict[tuple[int, int], dict[str, int]] = {}
        self.acked_versions: dict[tuple[int, int], int] = {}
        """The version each deal took at its last acknowledged save."""
        self.in_flight_versions: dict[tuple[int, int], int] = {}
        """The version each deal takes if its save in flight is committed."""
        self.saves = 0

    def client(self, index: int) -> None:
        own = self.games[index::CLIENTS]
        status, headers, body = _request(self.port, "GET", f"/g/{own[0][2]}/deals/1")
        assert status == 200
        cookie = headers["Set-Cookie"].split(";", 1)[0]
        csrf = CSRF_RE.search(body.decode()).group(1)
        versions: dict[tuple[int, int], int] = defaultdict(int)
        step = 0
        while True:
            game_id, _view, edit = own[step % len(own)]
            number = step // len(own) % 4 + 1
            key = (game_id, number)
            values = deal_values(step * CLIENTS + index)
            form = {"csrf_token": csrf, "version": versions[key], "went_out": "0", **values}
            with self.lock:
                self.in_flight[key] = values
                self.in_flight_versions[key] = self.game_versions[game_id]
            try:
                status, _headers, _body = _request(
                    self.port,
                    "POST",
                    f"/g/{edit}/deals/{number}",
                    cookie,
                    urllib.parse.urlencode(form),
                )
            except (OSError, http.client.HTTPException):
                return  # the server is gone
            assert status == 303, (status, _body[:500])
            versions[key] = self.game_versions[game_id]  # a deal takes the version saved on
            self.game_versions[game_id] += 1
            with self.lock:
                self.acked[key] += 1
                self.last_acked[key] = values
                self.acked_versions[key] = versions[key]
                self.saves += 1
            step += 1


def _stored(url: str) -> dict[tuple[int, int], tuple[int, dict[str, int]]]:
    engine = sqlalchemy.create_engine(url)
    names = (
        "meld_points",
        "clean_books",
        "dirty_books",
        "wild_books",
        "red_threes_down",
        "red_threes_held",
        "cards_left_points",
    )
    query = sqlalchemy.text(
        "SELECT d.game_id, d.number, d.version, s.position, "
        + ", ".join(f"s.{name}" for name in names)
        + " FROM deal d JOIN deal_side s ON s.deal_id = d.id"
    )
    found: dict[tuple[int, int], tuple[int, dict[str, int]]] = {}
    with engine.connect() as connection:
        for game_id, number, version, position, *values in connection.execute(query):
            _version, fields = found.setdefault((game_id, number), (version, {}))
            for name, value in zip(names, values, strict=True):
                fields[f"sides-{position}-{name}"] = value
    engine.dispose()
    return found


def test_every_acknowledged_save_survives_a_killed_server(tmp_path: Path, database_url) -> None:
    url = database_url
    instance = tmp_path / "instance"
    instance.mkdir()
    games, versions = _prepare(url, instance)
    server = _Server(url, instance, tmp_path / "server.log")
    stream = _Stream(server.port, games, versions)
    threads = [threading.Thread(target=stream.client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + KILL_AFTER_SECONDS
    while stream.saves < KILL_AFTER_SAVES and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # mid-stream: four clients have a save on the wire
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert stream.saves >= KILL_AFTER_SAVES, (tmp_path / "server.log").read_text()[-2000:]

    if url.startswith("sqlite"):
        engine = sqlalchemy.create_engine(url)
        with engine.connect() as connection:
            assert connection.execute(sqlalchemy.text("PRAGMA integrity_check")).scalar() == "ok"
            assert connection.execute(sqlalchemy.text("PRAGMA foreign_key_check")).all() == []
        engine.dispose()
    stored = _stored(url)
    for key in stream.acked:
        version, values = stored[key]
        # Another version than acknowledged: the save in flight at the kill was committed.
        acked = stream.acked_versions[key]
        assert version in (acked, stream.in_flight_versions[key]), key
        expected = stream.last_acked[key] if version == acked else stream.in_flight[key]
        assert values == expected, key
    for key, (version, values) in stored.items():
        if key not in stream.acked:  # only the save in flight, committed but not answered
            assert version == stream.in_flight_versions[key]
            assert values == stream.in_flight[key]

    again = _Server(url, instance, tmp_path / "server.log")
    try:
        for _game_id, view, _edit in games:
            status, _headers, _body = _request(again.port, "GET", f"/g/{view}")
            assert status == 200
    finally:
        again.kill()

    # The access log has a line for every request, and not one token.
    log = (tmp_path / "server.log").read_text()
    assert log.count("/g/[token]") >= stream.saves
    for _game_id, view, edit in games:
        assert view not in log and edit not in log
