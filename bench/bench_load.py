"""Load test: many tables at once against gunicorn, beside a bare Flask endpoint as the floor.

Starts gunicorn on 127.0.0.1 (a free port) with the app and, mounted at /__bare, a Flask app
whose one endpoint returns "ok". Then, in the same run and at the same concurrency:

1. the floor: N clients call the bare endpoint;
2. the app: N clients, each keeping its own games, save deals through the deal form (CSRF,
   version field and all, as a phone does) while watching other games: the scoreboard page,
   and the cheap poll that asks whether it changed (ETag, mostly answered 304, sent without
   cookies as the page's script sends it). Each client starts its round at a random point.

3. the app with sheets: the same clients play the app while ``--pdf-clients`` more clients
   (10 by default) fetch blank score sheets as PDFs, each with random names (so no cache can
   answer), as fast as the server answers them, without heeding Retry-After.

Then, while the same clients play on, ten tables end their evening at the same moment: each
saves the last deal of its game (the deals before it were saved untimed) and asks once for the
game's sheet, as a table does when it prints. Every one of them must get its sheet: a refusal
(429 or 503) counts as refused.

Every phase is measured the same way: the clients run in their own processes (one per client
by default, as each phone is its own machine, so the load generator is not held behind one
interpreter lock) at a lower priority than the server (nice 10 by default), and each phase
starts with an untimed warm-up and ends with an untimed cool-down of one second under the
same load (their errors still count): the timed requests neither meet a cold server nor the
client processes winding down.
The phases take turns in slices (four of each by default: floor, app, app with sheets, floor,
...), so
that both meet the machine in the same state: on a shared machine the speed drifts over tens of
seconds, and a floor measured only before the app would compare two different machines. The
server keeps running from slice to slice, and the clients keep their games' deal versions.
Each phase is bounded by time and by request count, and the run stops by itself. It prints
requests a second, p50 and p99 latency and errors for each, then checks the database: every
acknowledged save must be there (lost writes must be 0). Target: p99 of a deal save within 3x
the bare endpoint's p99, zero errors, zero lost writes; with the sheet clients, p99 of a deal
save within 1.5x its p99 without them; and no table's sheet refused.

gunicorn runs with the production settings (``-c python:scorekeeper.gunicorn_conf``: its
workers, threads and connections); ``--workers`` and ``--threads`` change them, and the bench
adds only its address and a short graceful timeout, so that it stops quickly.

Each client sends its own address in ``X-Forwarded-For`` (the server trusts one proxy), so that
the per-client rate limits see as many clients as there are, as they would on the Internet.
``--no-sheet-limits`` turns the sheets' rate limit, render slots and low-priority rendering
off, as the app was before them, to see what they spare the deal saves.

The clients' lower priority stands in for the machines they stand for. Phones do not run on
the server; here they share its processors, and at the same priority they would take the
processor from the very server they measure: a deal save waits on the database several times,
and each time it wakes it would queue behind dozens of client processes that a real server
never has. The floor's clients run at the same priority as the app's.

The database is PostgreSQL when one answers at --postgres (a database of its own is created
and dropped), else a SQLite file in a temporary folder.

    python bench/bench_load.py [--clients 32] [--seconds 20] [--slices 4] [--warmup 1]
        [--workers N] [--threads N] [--client-processes 32] [--client-nice 10]
        [--pdf-clients 10] [--tables 10] [--no-sheet-limits]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import math
import multiprocessing
import os
import queue
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
CLIENT_NICE = 10
"""How much lower the clients' priority is than the server's (see the module's docstring)."""
COOL_DOWN_SECONDS = 1.0
"""Untimed load after each timed window (see ``run_phase``)."""
P99_RATIO_TARGET = 3.0
PDF_CLIENTS = 10
SHEETS_P99_RATIO_TARGET = 1.5
"""A deal save's p99 while PDF clients fetch sheets, against its p99 without them."""
TABLES = 10
"""Tables that end their game and print its sheet at the same moment."""
TABLES_LOAD_SECONDS = 15.0
"""The most the clients play on while the tables print (the printing bounds it first)."""
SHEET_TIMEOUT_SECONDS = 120.0
"""How long a client asking for a sheet waits for the answer, as a phone's browser does: the
server holds a sheet's request while it waits its turn to render (``SHEET_RENDER_WAIT_SECONDS``)."""
SHEET_ANSWERS = (200, 429, 503)
"""A sheet, or a refusal that the limits make on purpose: none of them is an error."""
POLLS_PER_SAVE = 20
"""A phone at the table mostly asks whether the score changed (every 5 s); deals are saved
every few minutes. Each client here saves a deal, loads a scoreboard page, then polls this
many times: far more saves than a real table makes, with the cheap poll still the most common
request, as it is at a table."""
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
BARE_PREFIX = "/__bare"
VARIANT = "pagat"
TABLE = (2, 4)  # two teams of two
SIDE_NAMES = ("North-South", "East-West")
CSRF_RE = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def serve():  # noqa: ANN201 (gunicorn's factory: 'bench.bench_load:serve()')
    """The app under test with the bare floor endpoint mounted at /__bare."""
    from flask import Flask
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from scorekeeper import create_app

    bare = Flask("bare")

    @bare.get("/")
    def ping() -> str:
        return "ok"

    app = create_app()
    app.wsgi_app = DispatcherMiddleware(app.wsgi_app, {BARE_PREFIX: bare})  # type: ignore[method-assign]
    return app


# --- the deals the clients enter ----------------------------------------------------------


def deal_values(step: int) -> dict[str, int]:
    """A valid deal (no errors, no warnings) that differs with ``step``: side 2's cards left."""
    return {
        "sides-0-meld_points": 1210,
        "sides-0-clean_books": 2,
        "sides-0-dirty_books": 2,
        "sides-0-wild_books": 1,
        "sides-0-red_threes_down": 2,
        "sides-0-red_threes_held": 0,
        "sides-0-cards_left_points": 15,
        "sides-1-meld_points": 600,
        "sides-1-clean_books": 1,
        "sides-1-dirty_books": 1,
        "sides-1-wild_books": 0,
        "sides-1-red_threes_down": 1,
        "sides-1-red_threes_held": 1,
        "sides-1-cards_left_points": 20 + 5 * (step % 60),
    }


def check_deal_values() -> None:
    """Every deal the clients send is accepted by the rules core without a warning."""
    from scorekeeper.rules.json_entry import answer

    for step in range(60):
        values = deal_values(step)
        sides = [
            {
                key.split("-", 2)[2]: value
                for key, value in values.items()
                if key.startswith(f"sides-{i}-")
            }
            for i in range(2)
        ]
        sides[0]["went_out"] = True
        for number in range(1, 5):
            body = {"variant": VARIANT, "deal": number, "players": TABLE[1], "sides": sides}
            result = answer(body)
            warnings = [w for s in result.body.get("sides", []) for w in s["warnings"]]
            if not result.accepted or warnings or result.body.get("warnings"):
                raise SystemExit(f"bench deal {step} is not a clean deal: {result.body}")


# --- the database and the games ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BenchGame:
    game_id: int
    view_token: str
    edit_token: str


def postgres_answers(url: str) -> bool:
    import sqlalchemy

    try:
        engine = sqlalchemy.create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@contextmanager
def bench_database(postgres: str, workdir: Path) -> Iterator[str]:
    """A fresh database URL: a new PostgreSQL database when one answers, else SQLite."""
    import sqlalchemy

    if postgres and postgres_answers(postgres):
        admin = sqlalchemy.make_url(postgres)
        name = f"scorekeeper_bench_{os.getpid()}_{secrets.token_hex(3)}"
        engine = sqlalchemy.create_engine(admin, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
        try:
            yield admin.set(database=name).render_as_string(hide_password=False)
        finally:
            with engine.connect() as connection:
                connection.execute(
                    sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                )
            engine.dispose()
    else:
        yield f"sqlite:///{workdir / 'bench.sqlite3'}"


def prepare(database_url: str, instance: Path, games: int) -> list[BenchGame]:
    """Apply the migrations and start ``games`` games, in this process (not timed)."""
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.rules.variants import get_variant
    from scorekeeper.store.game_service import start_game
    from scorekeeper.store.links import issue_tokens

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench", "TESTING": False}
    )
    made = []
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        variant = get_variant(VARIANT)
        table = variant.table_for(*TABLE)
        assert table is not None
        pending = []
        for number in range(games):
            game = start_game(variant, table, SIDE_NAMES, f"Bench table {number + 1}")
            pending.append((game, issue_tokens(game)))
        db.session.commit()
        made = [BenchGame(game.id, game.view_token, token) for game, token in pending]
        db.session.remove()
        db.engine.dispose()
    return made


@dataclass(frozen=True)
class StoredVersions:
    """The versions a phone opening a game's forms finds: each deal's, (game id, deal) ->
    version, and each game's, game id -> version. A save made while the game is at version v
    leaves the deal at v and the game at v + 1 (``store.deal_writes``)."""

    deals: dict[tuple[int, int], int] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)


def stored_versions(database_url: str) -> StoredVersions:
    """The deals' and the games' versions as stored."""
    import sqlalchemy

    deals = {key: version for key, (version, _values) in stored_deals(database_url).items()}
    engine = sqlalchemy.create_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(sqlalchemy.text("SELECT id, version FROM game"))
        games = {game_id: version for game_id, version in rows}
    engine.dispose()
    return StoredVersions(deals, games)


def stored_deals(database_url: str) -> dict[tuple[int, int], tuple[int, dict[str, int]]]:
    """(game id, deal number) -> (version, the form values of what is stored)."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(database_url)
    query = sqlalchemy.text(
        "SELECT d.game_id, d.number, d.version, s.position, s.meld_points, s.clean_books,"
        " s.dirty_books, s.wild_books, s.red_threes_down, s.red_threes_held,"
        " s.cards_left_points FROM deal d JOIN deal_side s ON s.deal_id = d.id"
    )
    names = (
        "meld_points",
        "clean_books",
        "dirty_books",
        "wild_books",
        "red_threes_down",
        "red_threes_held",
        "cards_left_points",
    )
    found: dict[tuple[int, int], tuple[int, dict[str, int]]] = {}
    with engine.connect() as connection:
        for row in connection.execute(query):
            game_id, number, version, position, *values = row
            _version, fields = found.setdefault((game_id, number), (version, {}))
            for name, value in zip(names, values, strict=True):
                fields[f"sides-{position}-{name}"] = value
    engine.dispose()
    return found


# --- the server -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@contextmanager
def gunicorn(
    database_url: str,
    instance: Path,
    workers: int | None,
    threads: int | None,
    log: Path,
    sheet_limits: bool = True,
) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32),
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        # Each client names its own address (see ``Client``), as if through one proxy.
        "SCOREKEEPER_TRUSTED_PROXIES": "1",
    }
    if not sheet_limits:
        env["SCOREKEEPER_LIMIT_SHEETS"] = "off"
        env["SCOREKEEPER_SHEET_RENDERS_AT_ONCE"] = "0"
        env["SCOREKEEPER_SHEET_RENDER_NICE"] = "0"
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:scorekeeper.gunicorn_conf",
        "--chdir",
        str(ROOT),
        "--bind",
        f"{HOST}:{port}",
        "--graceful-timeout",
        "5",
    ]
    if workers:
        command += ["--workers", str(workers)]
    if threads:
        command += ["--threads", str(threads), "--worker-connections", str(threads)]
    command.append("bench.bench_load:serve()")
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise SystemExit(f"gunicorn stopped at start:\n{log.read_text()}")
            try:
                connection = http.client.HTTPConnection(HOST, port, timeout=2)
                connection.request("GET", BARE_PREFIX + "/")
                if connection.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn did not answer within 30 s:\n{log.read_text()}")
            time.sleep(0.1)
        yield f"{HOST}:{port}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- the clients ------------------------------------------------------------------------


@dataclass
class Tally:
    """What one phase measured, per kind of request.

    Only requests started from ``measure_from`` to ``until`` are timed: those of the warm-up
    before and of the cool-down after are not, though their errors count.
    """

    measure_from: float = 0.0
    until: float = math.inf
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    untimed_errors: int = 0
    last_end: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, start: float, end: float, ok: bool) -> None:
        with self.lock:
            if not self.measure_from <= start < self.until:
                self.untimed_errors += not ok
                return
            self.latencies[kind].append(end - start)
            self.last_end = max(self.last_end, end)
            if not ok:
                self.errors[kind] += 1

    def measured(self) -> int:
        return sum(len(values) for values in self.latencies.values())


def client_address(index: int) -> str:
    """The address client ``index`` stands for: one of its own, as each phone has."""
    return f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256}"


class Client:
    """One phone: an HTTP connection (reopened when the server closes it), a session cookie,
    and its own address, sent in ``X-Forwarded-For`` as a proxy in front of the app would."""

    def __init__(self, address: str, index: int = 0, timeout: float = 30.0) -> None:
        host, port = address.split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
        self.cookie = ""
        self.forwarded_for = client_address(index)

    def request(
        self,
        method: str,
        path: str,
        body: str | None = None,
        headers: dict[str, str] | None = None,
        cookies: bool = True,
    ) -> tuple[int, dict[str, str], bytes]:
        sent = {"X-Forwarded-For": self.forwarded_for, **(headers or {})}
        if self.cookie and cookies:
            sent["Cookie"] = self.cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=sent)
            response = self.connection.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            raise
        if response.will_close:
            self.connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def start_session(self, game: BenchGame) -> str:
        """The CSRF token of a fresh session (kept unchanged for the whole run)."""
        status, headers, body = self.request("GET", f"/g/{game.edit_token}/deals/1")
        if status != 200:
            raise SystemExit(f"the deal form answered {status}")
        self.cookie = headers["set-cookie"].split(";", 1)[0]
        match = CSRF_RE.search(body.decode())
        if match is None:
            raise SystemExit("no CSRF token on the deal form")
        return match.group(1)


@dataclass
class Acknowledged:
    """Saves the server answered 303 to: how many per deal, and the last values sent."""

    counts: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))
    last: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Phase:
    """What the clients of a phase do: call the floor, or play the app (``games``, ``polls``),
    with ``pdf_clients`` more clients fetching sheets beside them.

    ``versions``: the deals' and games' versions as the app's earlier slices left them.
    The ETags a client has seen are not carried over: its first look at a game in a slice asks
    without one, as a phone that has just opened the page does.
    """

    kind: str
    address: str
    clients: int
    games: tuple[BenchGame, ...] = ()
    polls: int = POLLS_PER_SAVE
    versions: StoredVersions = field(default_factory=StoredVersions)
    slice_number: int = 0
    nice: int = CLIENT_NICE
    pdf_clients: int = 0


@dataclass
class PhaseResult:
    tally: Tally
    elapsed: float
    stuck: int
    acked: Acknowledged


def combine(slices: list[PhaseResult]) -> PhaseResult:
    """The slices of one phase as one: latencies and errors together, times and saves added."""
    whole = PhaseResult(Tally(), 0.0, 0, Acknowledged())
    for part in slices:
        for kind, values in part.tally.latencies.items():
            whole.tally.latencies[kind].extend(values)
        for kind, count in part.tally.errors.items():
            whole.tally.errors[kind] += count
        whole.tally.untimed_errors += part.tally.untimed_errors
        whole.elapsed += part.elapsed
        whole.stuck += part.stuck
        for key, count in part.acked.counts.items():
            whole.acked.counts[key] += count
        whole.acked.last.update(part.acked.last)
    return whole


def run_phase(
    phase: Phase, seconds: float, warmup: float, max_requests: int, processes: int
) -> PhaseResult:
    """Run the phase's clients for ``warmup``, then ``seconds`` (timed), then a cool-down, or
    until the request budget is spent.

    The load goes on, untimed, for ``COOL_DOWN_SECONDS`` after the timed window, so that every
    timed request ends under the same load: not while other client processes stop, hand in
    their figures and exit, which takes the machine's CPU.

    The clients run in ``processes`` client processes (threads within each), so that the load
    generator's own Python work is not serialised behind one interpreter lock: one process a
    client when ``processes`` equals the number of clients, as each phone is its own machine.
    """
    context = multiprocessing.get_context("spawn")
    everyone = phase.clients + phase.pdf_clients
    processes = max(1, min(processes + phase.pdf_clients, everyone))
    groups = [list(range(everyone))[i::processes] for i in range(processes)]
    ready = context.Barrier(processes + 1)
    go = context.Event()
    stop = context.Event()
    window = context.Array("d", 2)
    results = context.Queue()
    workers = [
        context.Process(
            target=client_process,
            args=(phase, group, max(1, max_requests * len(group) // everyone)),
            kwargs={"ready": ready, "go": go, "stop": stop, "window": window, "out": results},
            daemon=True,
        )
        for group in groups
    ]
    for worker in workers:
        worker.start()
    try:
        ready.wait(timeout=120)
    except threading.BrokenBarrierError:
        for worker in workers:
            worker.kill()
        raise SystemExit("the client processes did not start") from None
    measure_from = time.monotonic() + warmup
    window[0], window[1] = measure_from, measure_from + seconds
    go.set()
    stop.wait(max(0.0, measure_from + seconds + COOL_DOWN_SECONDS - time.monotonic()))
    stop.set()
    gathered: list[dict] = []
    give_up = measure_from + seconds + SHEET_TIMEOUT_SECONDS + 30
    while len(gathered) < len(workers):
        try:
            gathered.append(results.get(timeout=max(0.1, give_up - time.monotonic())))
        except queue.Empty:
            break
    for worker in workers:
        worker.join(timeout=5)
        if worker.is_alive():
            worker.kill()
            worker.join()
    tally = Tally(measure_from=measure_from, until=measure_from + seconds)
    acked = Acknowledged()
    stuck = sum(len(group) for group in groups[len(gathered) :])
    for part in gathered:
        for kind, values in part["latencies"].items():
            tally.latencies[kind].extend(values)
        for kind, count in part["errors"].items():
            tally.errors[kind] += count
        tally.untimed_errors += part["untimed_errors"]
        tally.last_end = max(tally.last_end, part["last_end"])
        stuck += part["stuck"]
        for key, count in part["counts"].items():
            acked.counts[key] += count
        acked.last.update(part["last"])
    elapsed = (
        min(seconds, tally.last_end - measure_from) if tally.last_end > measure_from else seconds
    )
    return PhaseResult(tally, elapsed, stuck, acked)


def client_process(
    phase: Phase,
    indexes: list[int],
    share: int,
    *,
    ready: Any,
    go: Any,
    stop: Any,
    window: Any,
    out: Any,
) -> None:
    """One client process: ``indexes`` are its clients, one thread each."""
    if phase.nice:
        os.nice(phase.nice)
    acked = Acknowledged()
    if phase.kind == "floor":
        work = floor_work(phase.address)
    else:
        work = app_work(
            phase.address,
            list(phase.games),
            phase.clients,
            acked,
            phase.polls,
            phase.versions,
            phase.slice_number,
        )
    ready.wait()
    go.wait()
    measure_from, until = window[0], window[1]
    tally = Tally(measure_from=measure_from, until=until)
    done = threading.Event()
    sheets = sheet_work(phase.address)
    threads = [
        threading.Thread(
            target=work if index < phase.clients else sheets,
            args=(index, tally, done),
            daemon=True,
        )
        for index in indexes
    ]
    for thread in threads:
        thread.start()
    while tally.measured() < share and not stop.is_set():
        time.sleep(0.02)
    done.set()
    for thread in threads:  # a sheet's request may wait its turn at the server
        thread.join(timeout=SHEET_TIMEOUT_SECONDS + 10)
    with tally.lock:
        out.put(
            {
                "latencies": dict(tally.latencies),
                "errors": dict(tally.errors),
                "untimed_errors": tally.untimed_errors,
                "last_end": tally.last_end,
                "stuck": sum(thread.is_alive() for thread in threads),
                "counts": dict(acked.counts),
                "last": dict(acked.last),
            }
        )


def timed(tally: Tally, kind: str, call: Callable[[], bool]) -> bool:
    start = time.monotonic()
    try:
        ok = call()
    except (http.client.HTTPException, OSError):
        ok = False
    tally.add(kind, start, time.monotonic(), ok)
    return ok


def floor_work(address: str) -> Callable[[int, Tally, threading.Event], None]:
    def work(index: int, tally: Tally, stop: threading.Event) -> None:
        client = Client(address, index)
        while not stop.is_set():
            timed(
                tally, "bare endpoint", lambda: client.request("GET", BARE_PREFIX + "/")[0] == 200
            )

    return work


def app_work(
    address: str,
    games: list[BenchGame],
    clients: int,
    acked: Acknowledged,
    polls: int,
    known_versions: StoredVersions,
    slice_number: int,
) -> Callable[[int, Tally, threading.Event], None]:
    def work(index: int, tally: Tally, stop: threading.Event) -> None:
        own = games[index::clients]
        rng = random.Random(f"{slice_number}-{index}")
        client = Client(address, index)
        csrf = client.start_session(own[0])
        versions: dict[tuple[int, int], int] = defaultdict(int, known_versions.deals)
        game_versions = dict(known_versions.games)
        etags: dict[int, str] = {}
        pages: dict[int, str] = {}

        def save(game: BenchGame, number: int, values: dict[str, int]) -> bool:
            key = (game.game_id, number)
            form = {"csrf_token": csrf, "version": versions[key], "went_out": "0", **values}
            status, _headers, _body = client.request(
                "POST", f"/g/{game.edit_token}/deals/{number}", urllib.parse.urlencode(form)
            )
            if status != 303:
                return False
            versions[key] = game_versions[game.game_id]
            game_versions[game.game_id] += 1
            with tally.lock:
                acked.counts[key] += 1
                acked.last[key] = values
            return True

        def revalidate(path: str, game_id: int, seen: dict[int, str], cookies: bool) -> bool:
            """GET with the ETag of the copy already seen, as a browser does (304 if same)."""
            sent = {"If-None-Match": seen[game_id]} if game_id in seen else {}
            status, headers, _body = client.request("GET", path, headers=sent, cookies=cookies)
            if status == 200:
                seen[game_id] = headers.get("etag", "")
            return status in (200, 304)

        # A round is a save, a page and the polls. Each client starts at its own random point
        # of the round, as phones at different tables do: the server answers in turn, so
        # clients that all started with a save would stay in step, and every save would wait
        # behind the other clients' saves.
        round_length = 2 + polls
        for position in itertools.count(rng.randrange(round_length)):
            if stop.is_set():
                break
            step, moment = divmod(position, round_length)
            if moment == 0:
                game = own[step % len(own)]
                number = step // len(own) % 4 + 1
                timed(tally, "deal save", partial(save, game, number, deal_values(step + index)))
            elif moment == 1:
                watched = games[rng.randrange(len(games))]
                page = partial(revalidate, f"/g/{watched.view_token}", watched.game_id, pages, True)
                timed(tally, "scoreboard page", page)
            else:
                watched = games[rng.randrange(len(games))]
                # Without cookies, as the page's script polls (static/js/live.js).
                poll = partial(
                    revalidate, f"/g/{watched.view_token}/version", watched.game_id, etags, False
                )
                timed(tally, "poll (ETag)", poll)

    return work


def sheet_work(address: str) -> Callable[[int, Tally, threading.Event], None]:
    """A client asking for blank sheets with random names, one after the other: each one a new
    PDF to render. A refusal (429 or 503) is counted apart and not heeded: the next request
    follows at once."""

    def work(index: int, tally: Tally, stop: threading.Event) -> None:
        rng = random.Random(f"sheets-{index}")
        client = Client(address, index, SHEET_TIMEOUT_SECONDS)
        while not stop.is_set():
            names = "&".join(f"names={rng.getrandbits(48):x}" for _side in range(2))
            start = time.monotonic()
            try:
                status = client.request("GET", f"/sheets/{VARIANT}.pdf?sides=2&{names}")[0]
            except (http.client.HTTPException, OSError):
                status = 0
            kind = "sheet PDF" if status == 200 else "sheet refused"
            tally.add(kind, start, time.monotonic(), status in SHEET_ANSWERS)

    return work


def alternate(
    address: str,
    clients: int,
    games: tuple[BenchGame, ...],
    polls: int,
    processes: int,
    seconds: float,
    warmup: float,
    max_requests: int,
    slices: int,
    nice: int,
    pdf_clients: int,
    versions_now: Callable[[], StoredVersions],
) -> tuple[PhaseResult, PhaseResult, PhaseResult | None, Acknowledged]:
    """The floor, the app and the app with sheets in turns of ``seconds``, with the same
    clients, warm-up and processes; each phase's slices combined (no sheets phase without
    ``pdf_clients``), and the saves of every slice that played, in the order they ran.
    Each app slice starts from the deals' versions as stored (``versions_now``), as a phone
    opening a deal's form does: a save the server made as a slice ended, whose answer its
    client did not wait for, is not taken for a conflict in the next one."""
    floors: list[PhaseResult] = []
    loads: list[PhaseResult] = []
    with_sheets: list[PhaseResult] = []
    played: list[PhaseResult] = []
    """The app's slices, with and without sheets, in order: the last values saved last."""
    for number in range(slices):
        floor_phase = Phase("floor", address, clients, nice=nice)
        floors.append(run_phase(floor_phase, seconds, warmup, max_requests, processes))
        versions = versions_now()
        app_phase = Phase("app", address, clients, games, polls, versions, 2 * number, nice)
        loads.append(run_phase(app_phase, seconds, warmup, max_requests, processes))
        played.append(loads[-1])
        if pdf_clients:
            versions = versions_now()
            sheets_phase = Phase(
                "app", address, clients, games, polls, versions, 2 * number + 1, nice, pdf_clients
            )
            with_sheets.append(run_phase(sheets_phase, seconds, warmup, max_requests, processes))
            played.append(with_sheets[-1])
    sheets = combine(with_sheets) if with_sheets else None
    return combine(floors), combine(loads), sheets, combine(played).acked


# --- ten tables print at once -------------------------------------------------------------


@dataclass
class Printed:
    """What the tables that printed at once were answered: (status, seconds, a PDF) each."""

    answers: list[tuple[int, float, bool]] = field(default_factory=list)

    @property
    def refused(self) -> int:
        return sum(status in (429, 503) for status, _seconds, _pdf in self.answers)

    @property
    def errors(self) -> int:
        return sum(
            status not in (200, 429, 503) or (status == 200 and not pdf)
            for status, _seconds, pdf in self.answers
        )


def save_form(csrf: str, step: int) -> str:
    return urllib.parse.urlencode(
        {"csrf_token": csrf, "version": 0, "went_out": "0", **deal_values(step)}
    )


def tables_print(address: str, tables: list[BenchGame], deals: int) -> Printed:
    """Each table saves its game's last deal and asks once for the game's sheet, all at once.

    The deals before the last are saved first, one table after the other, untimed.
    """
    clients = [
        Client(address, 60_000 + index, SHEET_TIMEOUT_SECONDS) for index in range(len(tables))
    ]
    tokens = [client.start_session(game) for client, game in zip(clients, tables, strict=True)]
    for client, csrf, game in zip(clients, tokens, tables, strict=True):
        for number in range(1, deals):
            path = f"/g/{game.edit_token}/deals/{number}"
            if client.request("POST", path, save_form(csrf, number))[0] != 303:
                raise SystemExit(f"a table's deal {number} was not saved")
    together = threading.Barrier(len(tables))
    printed = Printed()

    def end_and_print(client: Client, csrf: str, game: BenchGame) -> None:
        together.wait(timeout=60)
        start = time.monotonic()
        try:
            path = f"/g/{game.edit_token}/deals/{deals}"
            saved = client.request("POST", path, save_form(csrf, deals))[0]
            if saved != 303:
                answer = (saved, time.monotonic() - start, False)
            else:
                status, _headers, body = client.request("GET", f"/g/{game.edit_token}/sheet.pdf")
                answer = (status, time.monotonic() - start, body.startswith(b"%PDF-"))
        except (http.client.HTTPException, OSError):
            answer = (0, time.monotonic() - start, False)
        with together_lock:
            printed.answers.append(answer)

    together_lock = threading.Lock()
    threads = [
        threading.Thread(target=end_and_print, args=(client, csrf, game), daemon=True)
        for client, csrf, game in zip(clients, tokens, tables, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return printed


def tables_print_under_load(
    address: str,
    tables: list[BenchGame],
    app_phase: Phase,
    warmup: float,
    max_requests: int,
    processes: int,
) -> tuple[Printed, PhaseResult]:
    """``tables_print`` while the app's clients play on (their figures are not reported;
    their saves are checked with the others)."""
    played: list[PhaseResult] = []
    playing = threading.Thread(
        target=lambda: played.append(
            run_phase(app_phase, TABLES_LOAD_SECONDS, warmup, max_requests, processes)
        ),
        daemon=True,
    )
    playing.start()
    time.sleep(warmup + 1.0)  # the clients are playing
    printed = tables_print(address, tables, deals=4)
    playing.join(timeout=TABLES_LOAD_SECONDS + 150)
    if not played:
        raise SystemExit("the clients playing beside the printing tables did not finish")
    return printed, played[0]


# --- the report -------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report_line(name: str, latencies: list[float], errors: int, elapsed: float) -> str:
    if not latencies:
        return f"{name:<18} {'-':>9} {'-':>9} {'-':>9} {errors:>7}"
    rps = len(latencies) / elapsed
    p50 = percentile(latencies, 0.50) * 1000
    p99 = percentile(latencies, 0.99) * 1000
    return f"{name:<18} {rps:>9.0f} {p50:>8.1f}ms {p99:>8.1f}ms {errors:>7}"


def lost_writes(
    acked: Acknowledged, stored: dict[tuple[int, int], tuple[int, dict[str, int]]]
) -> int:
    """Acknowledged saves missing from the database (a version short, or other values)."""
    lost = 0
    for key, count in acked.counts.items():
        version, values = stored.get(key, (0, {}))
        if version < count:
            lost += count - version
        elif values != acked.last[key]:
            lost += 1
    return lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="timed seconds per phase (at most 30)"
    )
    parser.add_argument(
        "--slices", type=int, default=4, help="turns each phase takes, floor and app alternating"
    )
    parser.add_argument("--max-requests", type=int, default=100_000, help="per phase")
    parser.add_argument(
        "--workers", type=int, default=0, help="default: scorekeeper/gunicorn_conf.py's"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        help="gunicorn threads a worker (gthread); default: scorekeeper/gunicorn_conf.py's",
    )
    parser.add_argument(
        "--warmup", type=float, default=1.0, help="untimed seconds before each slice (at most 10)"
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=0,
        help="processes the clients run in (default: one per client)",
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=CLIENT_NICE,
        help="how much lower the clients' priority is than the server's (0: the same)",
    )
    parser.add_argument("--games", type=int, default=0, help="default: two per client")
    parser.add_argument(
        "--polls", type=int, default=POLLS_PER_SAVE, help="ETag polls per deal save and page"
    )
    parser.add_argument(
        "--pdf-clients",
        type=int,
        default=PDF_CLIENTS,
        help="clients fetching sheets in the third phase (0: no such phase)",
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=TABLES,
        help="tables that end their game and print its sheet at once (0: none)",
    )
    parser.add_argument(
        "--no-sheet-limits",
        action="store_true",
        help="turn off the sheets' rate limit, render slots and low-priority rendering",
    )
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    args = parser.parse_args()
    seconds = min(args.seconds, 30.0)
    slices = max(1, args.slices)
    warmup = min(max(args.warmup, 0.0), 10.0)
    processes = args.client_processes or args.clients
    games_wanted = args.games or 2 * args.clients
    check_deal_values()

    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        with bench_database(args.postgres, workdir) as database_url:
            backend = database_url.split(":", 1)[0]
            instance = workdir / "instance"
            instance.mkdir()
            tables = max(0, args.tables)
            prepared = prepare(database_url, instance, games_wanted + tables)
            games, table_games = prepared[:games_wanted], prepared[games_wanted:]
            with gunicorn(
                database_url,
                instance,
                args.workers,
                args.threads,
                workdir / "gunicorn.log",
                sheet_limits=not args.no_sheet_limits,
            ) as address:
                floor_run, load_run, sheets_run, acked = alternate(
                    address,
                    args.clients,
                    tuple(games),
                    args.polls,
                    processes,
                    seconds / slices,
                    warmup,
                    args.max_requests // slices,
                    slices,
                    max(0, args.client_nice),
                    max(0, args.pdf_clients),
                    lambda: stored_versions(database_url),
                )
                printed = None
                if tables:
                    playing_on = Phase(
                        "app",
                        address,
                        args.clients,
                        tuple(games),
                        args.polls,
                        stored_versions(database_url),
                        2 * slices,
                        max(0, args.client_nice),
                    )
                    printed, played_on = tables_print_under_load(
                        address,
                        table_games,
                        playing_on,
                        warmup,
                        args.max_requests // slices,
                        processes,
                    )
                    acked = combine([PhaseResult(Tally(), 0.0, 0, acked), played_on]).acked
            lost = lost_writes(acked, stored_deals(database_url))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    floor, floor_time, floor_stuck = floor_run.tally, floor_run.elapsed, floor_run.stuck
    load, load_time, load_stuck = load_run.tally, load_run.elapsed, load_run.stuck
    settings = "scorekeeper/gunicorn_conf.py"
    if args.workers or args.threads:
        settings += f" with -w {args.workers or 'as set'} --threads {args.threads or 'as set'}"
    print(
        f"gunicorn ({settings}) on {HOST}, "
        f"{args.clients} concurrent clients in {min(processes, args.clients)} processes "
        f"(nice {max(0, args.client_nice)}), "
        f"{len(games)} games, {backend}, {seconds:g} s a phase in {slices} slices "
        f"(floor and app alternating), {warmup:g} s warm-up a slice"
    )
    print(f"{'':<18} {'req/s':>9} {'p50':>10} {'p99':>10} {'errors':>7}")
    print(
        report_line(
            "bare endpoint",
            floor.latencies["bare endpoint"],
            floor.errors["bare endpoint"],
            floor_time,
        )
        + "   (floor)"
    )
    total = [x for values in load.latencies.values() for x in values]
    print(report_line("app, all requests", total, sum(load.errors.values()), load_time))
    for kind in ("deal save", "scoreboard page", "poll (ETag)"):
        print(report_line(kind, load.latencies[kind], load.errors[kind], load_time))
    saves = sum(acked.counts.values())
    print(f"acknowledged saves (warm-ups and cool-downs included): {saves}, lost writes: {lost}")
    if floor.untimed_errors or load.untimed_errors:
        untimed = floor.untimed_errors + load.untimed_errors
        print(f"errors during the warm-ups and cool-downs: {untimed}")
    floor_p99 = percentile(floor.latencies["bare endpoint"], 0.99)
    save_p99 = percentile(load.latencies["deal save"], 0.99) if load.latencies["deal save"] else 0.0
    ratio = save_p99 / floor_p99 if floor_p99 else float("inf")
    errors = sum(load.errors.values()) + sum(floor.errors.values()) + floor_stuck + load_stuck
    errors += floor.untimed_errors + load.untimed_errors
    if sheets_run is not None:
        errors += report_sheets(sheets_run, save_p99, args.pdf_clients, args.no_sheet_limits)
    if printed is not None:
        errors += report_tables(printed)
    verdict = "met" if ratio <= P99_RATIO_TARGET and errors == 0 and lost == 0 else "MISSED"
    print(
        f"deal save p99 / bare p99 = {ratio:.2f} (target <= {P99_RATIO_TARGET:.0f}), "
        f"errors {errors}, lost writes {lost}: target {verdict}"
    )
    return 1 if errors or lost else 0


def report_tables(printed: Printed) -> int:
    """How the tables that printed at once were answered; the errors among them."""
    seconds = sorted(seconds for _status, seconds, _pdf in printed.answers)
    sheets = sum(status == 200 and pdf for status, _seconds, pdf in printed.answers)
    slowest = f"{seconds[-1]:.2f} s" if seconds else "-"
    median = f"{statistics.median(seconds):.2f} s" if seconds else "-"
    verdict = "met" if printed.refused == 0 and len(printed.answers) == sheets else "MISSED"
    print(
        f"{len(printed.answers)} tables saving their last deal and printing at once: "
        f"{sheets} sheets, {printed.refused} refused, {printed.errors} errors; last deal saved "
        f"to sheet received: median {median}, slowest {slowest} "
        f"(target: none refused): target {verdict}"
    )
    return printed.errors


def report_sheets(run: PhaseResult, save_p99: float, pdf_clients: int, unlimited: bool) -> int:
    """The app's figures while the PDF clients fetch sheets, and the deal save's p99 beside
    its p99 without them; the phase's errors."""
    tally = run.tally
    limits = "limits off" if unlimited else "limits on"
    print(f"with {pdf_clients} clients fetching sheets with random names ({limits}):")
    kinds = ("deal save", "scoreboard page", "poll (ETag)", "sheet PDF", "sheet refused")
    for kind in kinds:
        print(report_line(kind, tally.latencies[kind], tally.errors[kind], run.elapsed))
    saves = tally.latencies["deal save"]
    with_sheets = percentile(saves, 0.99) if saves else 0.0
    ratio = with_sheets / save_p99 if save_p99 else float("inf")
    verdict = "met" if ratio <= SHEETS_P99_RATIO_TARGET else "MISSED"
    print(f"{'deal save p99':<18} {'without sheets':>16} {'with sheets':>13} {'ratio':>8}")
    print(
        f"{'':<18} {save_p99 * 1000:>14.1f}ms {with_sheets * 1000:>11.1f}ms {ratio:>7.2f}x"
        f"   (target <= {SHEETS_P99_RATIO_TARGET:g}x): target {verdict}"
    )
    return sum(tally.errors.values()) + tally.untimed_errors + run.stuck


if __name__ == "__main__":
    sys.exit(main())
