"""The finished game page: its weight over the wire and its render time on the server.

Each figure is printed beside its floor, measured in the same run: a bare Flask endpoint of the
same app that returns a tiny string. Run by `make bench` (not by `make test`):

    .venv/bin/python bench/bench_game_page.py [--requests N]

Exits 1 when a page is over its budget: 60 KB (HTML + CSS + JS, uncompressed) and 20 ms, the
median for a finished game page, the p95 for the deal form (the seven-player form is the
heaviest). Beside each wall-clock time, the processor time the request took in this process
(``time.thread_time``), which neighbours on a shared machine disturb less.
"""

from __future__ import annotations

import argparse
import logging
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.capabilities import issue_edit_token  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.rules.entry import DealEntry, SideEntry  # noqa: E402
from scorekeeper.rules.validation import validate_deal  # noqa: E402
from scorekeeper.rules.variants import get_variant  # noqa: E402
from scorekeeper.store.deal_writes import write_deal  # noqa: E402
from scorekeeper.store.game_service import start_game  # noqa: E402

WEIGHT_BUDGET = 60 * 1024
RENDER_BUDGET_MS = 20.0
FLOOR_PATH = "/__bench_floor"
ASSET = re.compile(r'<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="([^"]+)"')


def finished_game(variant_id: str, sides: int, players: int) -> tuple[str, str]:
    """Store a game of four valid deals; return its view and edit tokens."""
    variant = get_variant(variant_id)
    table = variant.table_for(sides, players)
    assert table is not None
    names = [f"Side {n}" for n in range(1, sides + 1)]
    game = start_game(variant, table, names, f"Bench {variant_id} {sides}")
    db.session.flush()
    left = 5 * (table.players_per_side - 1) or 0
    for number in range(1, variant.deals + 1):
        out = SideEntry(
            meld_points=1210,
            clean_books=2,
            dirty_books=2,
            wild_books=1 if variant.wild_books else 0,
            red_threes_down=1 if variant.red_threes_laid_down else 0,
            cards_left_points=left,
            went_out=True,
        )
        others = [
            SideEntry(meld_points=300, clean_books=0, dirty_books=1, cards_left_points=85)
            for _ in range(sides - 1)
        ]
        sides_entries = others[: number % sides] + [out] + others[number % sides :]
        entry = DealEntry(variant, number, tuple(sides_entries), players=players)
        assert validate_deal(entry, names).ok, validate_deal(entry, names).errors
        write_deal(game, entry, based_on=0)
    edit_token = issue_edit_token(game)
    db.session.commit()
    return game.view_token, edit_token


def timed(client: FlaskClient, path: str, requests: int) -> tuple[list[float], list[float]]:
    """Each request's wall-clock time and processor time, in ms."""
    client.get(path)  # warm up: templates compiled, connections opened
    times, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.thread_time()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return times, cpu


def weight(client: FlaskClient, path: str) -> dict[str, int]:
    """Bytes of the page and of every stylesheet and script it loads (uncompressed)."""
    html = client.get(path).get_data()
    sizes = {"html": len(html), "css": 0, "js": 0}
    for url in ASSET.findall(html.decode("utf-8")):
        response = client.get(url)
        body = response.get_data()
        response.close()
        sizes["css" if url.endswith(".css") else "js"] += len(body)
    return sizes


def kb(size: float) -> str:
    return f"{size / 1024:.1f} KB"


def report(client: FlaskClient, label: str, path: str, requests: int, on_p95: bool = False) -> bool:
    """Print the page's figures beside the floor's; whether they are within the budget (the
    render time's median, or its p95 with ``on_p95``)."""
    sizes = weight(client, path)
    total = sum(sizes.values())
    floor_size = len(client.get(FLOOR_PATH).get_data())
    page_ms, page_cpu = timed(client, path, requests)
    floor_ms, floor_cpu = timed(client, FLOOR_PATH, requests)
    median, floor_median = statistics.median(page_ms), statistics.median(floor_ms)
    p95 = statistics.quantiles(page_ms, n=20)[-1]
    cpu_median, cpu_p95 = statistics.median(page_cpu), statistics.quantiles(page_cpu, n=20)[-1]
    measure = "p95" if on_p95 else "median"
    print(label)
    print(
        f"  weight  {kb(total):>9}  (HTML {kb(sizes['html'])} + CSS {kb(sizes['css'])}"
        f" + JS {kb(sizes['js'])}; budget {kb(WEIGHT_BUDGET)})   floor {floor_size} B"
    )
    print(
        f"  render  {median:>6.2f} ms median, {p95:.2f} ms p95 over {requests} requests"
        f" (budget {RENDER_BUDGET_MS:.0f} ms {measure})   floor {floor_median:.2f} ms median"
    )
    print(
        f"  cpu     {cpu_median:>6.2f} ms median, {cpu_p95:.2f} ms p95"
        f"   floor {statistics.median(floor_cpu):.2f} ms median"
    )
    shown = p95 if on_p95 else median
    return total <= WEIGHT_BUDGET and shown <= RENDER_BUDGET_MS


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        app: Flask = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
            }
        )
        app.add_url_rule(FLOOR_PATH, "bench_floor", lambda: "ok")
        with app.app_context():
            upgrade(directory=str(ROOT / "migrations"))
            logging.disable(logging.INFO)
            partnership = finished_game("pagat", 2, 4)
            seven = finished_game("simpson", 7, 7)
        client = app.test_client()
        ok = True
        for (view, edit), label in (
            (partnership, "2 teams of 2 (pagat)"),
            (seven, "7 players (simpson)"),
        ):
            ok &= report(
                client, f"finished game page, {label}, view link", f"/g/{view}", args.requests
            )
            ok &= report(
                client,
                f"finished game page, {label}, edit link (share panel, QR codes)",
                f"/g/{edit}",
                args.requests,
            )
            ok &= report(
                client, f"deal form, {label}", f"/g/{edit}/deals/4", args.requests, on_p95=True
            )
        with app.app_context():
            db.engine.dispose()
    if not ok:
        print("over budget")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
