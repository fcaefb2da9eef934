"""A card table's statistics page with 1,000 finished games, on SQLite and PostgreSQL.

The games are bot games (``history.demo.store_season``) with eight players taking turns, spread
over the days before today. Each figure is printed beside its floor, measured in the same run:
a bare Flask endpoint of the same app. The statistics are stored with the table and changed by
every change to its games, in its transaction (``store.table_statistics``): the first request
since a change reads them and draws the numbers (standings, charts), and keeps what it drew in
the database once the page is sent (``store.kept_pages``: untimed, as the reader does not wait
for it); the first request of another worker reads that; later
requests find it in memory. The first request is timed after everything kept of any table in
memory is dropped (``forget_kept``, what a new worker starts with), several times; then also
with no page kept in the database (drawn again: shown, not a target); then right after a change
(a deal of the newest finished game edited, the save itself timed: it changes the table's
statistics, and its first request draws them); then with no statistics stored (a
table the migration missed: the page reads the summaries stored with the games,
``store.summaries``), and once more with the stored summaries hidden too, which makes the page
score every game again, as it did before summaries were stored; the templates are compiled
beforehand on another table's page. Targets: later requests under 100 ms median, and the first
(of a process, and after a change) within 3 times a later one, by the wall clock. Run by
`make bench` (not by `make test`):

    .venv/bin/python bench/bench_history.py [--games N] [--requests N] [--postgres URL]

PostgreSQL is measured when a server answers at --postgres (default: the tests' server), in a
database of its own, dropped at the end. Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import create_engine, delete, make_url, select, text  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.history.demo import store_season  # noqa: E402
from scorekeeper.history.pages import forget_kept  # noqa: E402
from scorekeeper.rules.variants import get_variant  # noqa: E402
from scorekeeper.store import summaries as stored_summaries  # noqa: E402
from scorekeeper.store.deal_writes import write_deal  # noqa: E402
from scorekeeper.store.games import Deal, Game  # noqa: E402
from scorekeeper.store.kept_pages import KeptStatsPage  # noqa: E402
from scorekeeper.store.scores import deal_entry, game_variant  # noqa: E402
from scorekeeper.store.table_service import new_table  # noqa: E402
from scorekeeper.store.table_statistics import StoredStatistics  # noqa: E402

BUDGET_MS = 100.0
FIRST_WITHIN = 3.0
"""The first request of a process, at most this many times a later one."""
COLD_STARTS = 5
FLOOR_PATH = "/__bench_floor"
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
DISTINCT_GAMES = 40
"""Bot games actually played; the others repeat their deals with other players."""


CPU_TIMES: dict[str, list[float]] = {"first": [], "later": []}
"""The processor time of each request timed (``time.thread_time``, in ms), which neighbours on
a shared machine disturb less than the wall clock: cold starts under "first", the others
under "later" (the bench's own runs of the page only)."""


def timed(
    client: FlaskClient, path: str, requests: int, cpu: str | None = None
) -> tuple[float, list[float]]:
    """The first request's time, and each later one's, in ms (their processor times kept in
    ``CPU_TIMES[cpu]``)."""
    times = []
    for _ in range(requests + 1):
        start, start_cpu = time.perf_counter(), time.thread_time()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        if cpu is not None:
            CPU_TIMES[cpu].append((time.thread_time() - start_cpu) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        response.close()  # as a server closes it once sent: what is kept then is kept
    return times[0], times[1:]


def cold(client: FlaskClient, path: str, cpu: str | None = None) -> float:
    """A request of the page by a process that has kept nothing of any table, in ms."""
    forget_kept()
    first, _later = timed(client, path, 0, cpu)
    return first


def drawing(app: Flask, client: FlaskClient, path: str) -> float:
    """A request of the page by a process that has kept nothing of any table, with no page
    kept in the database either (the first since the table changed): its numbers drawn, in
    ms."""
    with app.app_context():
        db.session.execute(delete(KeptStatsPage))
        db.session.commit()
    return cold(client, path)


def after_a_change(
    app: Flask, client: FlaskClient, path: str, table_id: int
) -> tuple[float, float]:
    """A deal of the table's newest finished game edited (its sides' meld points five more or
    five less each time), then the page's first request after it: both times in ms."""
    with app.app_context():
        game = db.session.scalars(
            select(Game).where(Game.table_id == table_id).order_by(Game.created_at.desc())
        ).first()
        assert game is not None
        deal = game.deals[-1]
        entry = deal_entry(game, deal, game_variant(game))
        step = 5 if entry.sides[0].meld_points % 10 == 0 else -5
        changed = replace(
            entry,
            sides=tuple(replace(side, meld_points=side.meld_points + step) for side in entry.sides),
        )
        version = db.session.scalar(select(Deal.version).where(Deal.id == deal.id))
        start = time.perf_counter()
        write_deal(game, changed, based_on=version or 0)
        db.session.commit()
        saved = (time.perf_counter() - start) * 1000
    first, _later = timed(client, path, 0)
    return saved, first


def without_stored_statistics(app: Flask, client: FlaskClient, path: str) -> float:
    """A first request that finds no statistics stored with the table (one the migration
    missed): every game's stored summary read; its time in ms."""
    with app.app_context():
        db.session.execute(delete(StoredStatistics))
        db.session.execute(delete(KeptStatsPage))
        db.session.commit()
    return cold(client, path)


def without_stored_summaries(app: Flask, client: FlaskClient, path: str) -> tuple[float, int]:
    """A first request that finds no stored summary current (as before they were stored, every
    game read and scored): its time in ms, and the summaries it made again."""
    made = stored_summaries.rebuilt_summaries.count
    original = stored_summaries.SUMMARY_FORMAT
    stored_summaries.SUMMARY_FORMAT = original + 1  # every stored one reads as out of date
    try:
        took = without_stored_statistics(app, client, path)
    finally:
        stored_summaries.SUMMARY_FORMAT = original
    return took, stored_summaries.rebuilt_summaries.count - made


def measure(label: str, url: str, games: int, requests: int) -> bool:
    app: Flask = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    app.add_url_rule(FLOOR_PATH, "bench_floor", lambda: "ok")
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        logging.disable(logging.INFO)
        with app.test_request_context(method="POST"):
            table, _token = new_table("Bench table")
            other, _other_token = new_table("Warm-up table")
            db.session.commit()
            started = time.perf_counter()
            store_season(table, get_variant("pagat"), games, distinct=DISTINCT_GAMES)
            store_season(other, get_variant("pagat"), 2)
            stored_s = time.perf_counter() - started
            view, warm_up, table_id = table.view_token, other.view_token, table.id
    client = app.test_client()
    timed(client, f"/t/{warm_up}/stats", 1)  # the templates compiled, as in a worker's life
    path = f"/t/{view}/stats"
    made = stored_summaries.rebuilt_summaries.count
    for times in CPU_TIMES.values():
        times.clear()
    firsts = [cold(client, path, "first") for _ in range(COLD_STARTS)]
    drawings = [drawing(app, client, path) for _ in range(COLD_STARTS)]
    timed(client, path, 1)
    changes = [after_a_change(app, client, path, table_id) for _ in range(COLD_STARTS)]
    rebuilt = stored_summaries.rebuilt_summaries.count - made
    _first, warm = timed(client, path, requests, "later")
    making = without_stored_statistics(app, client, path)
    scored, scored_games = without_stored_summaries(app, client, path)
    _first_floor, floor = timed(client, FLOOR_PATH, requests)
    median, floor_median = statistics.median(warm), statistics.median(floor)
    first = statistics.median(firsts)
    drawn = statistics.median(drawings)
    p95 = statistics.quantiles(warm, n=20)[-1]
    ratio = first / median
    saves = statistics.median([saved for saved, _first in changes])
    first_after = statistics.median([after for _saved, after in changes])
    ratio_after = first_after / median
    print(
        f"{label}: statistics page of a table with {games} finished games "
        f"(stored in {stored_s:.0f} s)"
    )
    print(
        f"  first request of a process  {first:>6.1f} ms median of {COLD_STARTS}"
        f" ({', '.join(f'{t:.0f}' for t in firsts)}; the numbers read as another worker"
        f" drew them)"
    )
    print(
        f"  first request drawing them  {drawn:>6.1f} ms median of {COLD_STARTS}"
        f" ({', '.join(f'{t:.0f}' for t in drawings)}; none kept: the table's stored"
        f" statistics read), {drawn / statistics.median(warm):.1f} x a later one"
    )
    print(
        f"  later requests              {median:>6.1f} ms median, {p95:.1f} ms p95 over {requests}"
        f" (budget {BUDGET_MS:.0f} ms)   floor {floor_median:.2f} ms median"
    )
    print(
        f"  first / later               {ratio:>6.1f} x (target {FIRST_WITHIN:.0f} x):"
        f" {first:.1f} ms beside {median:.1f} ms"
    )
    print(
        f"  first request after a change {first_after:>6.1f} ms median of {COLD_STARTS}"
        f" ({', '.join(f'{after:.0f}' for _saved, after in changes)}): {ratio_after:.1f} x a"
        f" later one (target {FIRST_WITHIN:.0f} x)"
    )
    print(
        f"  the change itself            {saves:>6.1f} ms median (a deal of a finished game"
        f" edited and committed: the table's statistics changed with it)"
    )
    cpu_first = statistics.median(CPU_TIMES["first"])
    cpu_later = statistics.median(CPU_TIMES["later"][1:])
    print(
        f"  processor time              {cpu_first / cpu_later:>6.1f} x:"
        f" first {cpu_first:.1f} ms beside later {cpu_later:.1f} ms (medians)"
    )
    print(
        f"  first request with no statistics stored (every game's stored summary read,"
        f" {rebuilt} made again)  {making:>7.1f} ms"
    )
    print(
        f"  first request with no stored summary current (every game read and scored,"
        f" {scored_games} made again)  {scored:>7.1f} ms"
    )
    with app.app_context():
        db.engine.dispose()
    return (
        median <= BUDGET_MS
        and ratio <= FIRST_WITHIN
        and ratio_after <= FIRST_WITHIN
        and rebuilt == 0
    )


def postgres_database(server: str) -> tuple[str, str] | None:
    """A new database on the server (its URL and name), or None when no server answers."""
    name = f"scorekeeper_bench_{os.getpid()}"
    try:
        engine = create_engine(server, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        engine.dispose()
    except OperationalError:
        return None
    url = make_url(server).set(database=name).render_as_string(hide_password=False)
    return url, name


def drop_database(server: str, name: str) -> None:
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument(
        "--postgres",
        default=DEFAULT_POSTGRES,
        help="the PostgreSQL server's URL; empty to measure SQLite only",
    )
    parser.add_argument("--no-sqlite", action="store_true", help="measure PostgreSQL only")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        if args.no_sqlite:
            folder = ""
        if folder:
            sqlite = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            ok &= measure("SQLite", sqlite, args.games, args.requests)
    made = postgres_database(args.postgres) if args.postgres else None
    if made is None:
        print("PostgreSQL: not measured" + (": no server answers" if args.postgres else ""))
    else:
        url, name = made
        try:
            ok &= measure("PostgreSQL", url, args.games, args.requests)
        finally:
            drop_database(args.postgres, name)
    if not ok:
        print("over budget")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
