"""Score sheet PDFs: a blank sheet's first and repeat request, and a finished game's sheet.

Each figure is printed beside the floor measured in the same run: the time WeasyPrint takes to
render a one-line page. The process is pinned to one core, as the target is stated for one.

    make bench        or        .venv/bin/python bench/bench_sheets.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FILLED_TARGET_S = 0.5
REPEATS = 7


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "all cores (this system cannot pin a process)"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"core {core}"


Timing = tuple[float, float]
"""Wall-clock and CPU seconds."""


def timed(action: Callable[[], object]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def median_of(action: Callable[[], object], times: int = REPEATS) -> Timing:
    runs = [timed(action) for _ in range(times)]
    return (
        statistics.median(wall for wall, _ in runs),
        statistics.median(cpu for _, cpu in runs),
    )


def ms(timing: Timing) -> str:
    wall, cpu = timing
    return f"{wall * 1000:7.1f} ms ({cpu * 1000:6.1f} cpu)"


def main() -> int:
    core = pin_to_one_core()
    with tempfile.TemporaryDirectory(prefix="bench-sheets-") as folder:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
        from flask import url_for

        from scorekeeper import create_app
        from scorekeeper.extensions import db
        from scorekeeper.games.service import start_game
        from scorekeeper.games.writes import write_deal
        from scorekeeper.rules.entry import DealEntry, SideEntry
        from scorekeeper.rules.variants import get_variant
        from scorekeeper.sheets import pdf, views

        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
                # The render itself is measured, many times over, in this process (its CPU
                # time is the figure): no client limit, no low-priority render process.
                "LIMIT_SHEETS": "off",
                "SHEET_RENDER_NICE": 0,
            }
        )
        variant = get_variant("gamerules")
        with app.app_context():
            db.create_all()
            table = variant.table_for(7)
            assert table is not None
            game = start_game(variant, table, [f"Player {n}" for n in range(1, 8)], "Bench")
            db.session.commit()
            for number in range(1, 5):
                sides = tuple(
                    SideEntry(
                        meld_points=400 + 35 * side + number,
                        clean_books=1 + side % 3,
                        dirty_books=1 + side % 2,
                        wild_books=int(side == 0),
                        red_threes_down=side % 3,
                        red_threes_held=int(side == 4),
                        cards_left_points=0 if side == 0 else 15 * side,
                        went_out=side == 0,
                    )
                    for side in range(7)
                )
                entry = DealEntry(variant, number, sides, players=table.players)
                write_deal(game, entry, based_on=0)
            db.session.commit()
            game_id = game.id

        client = app.test_client()

        def one_line_page() -> bytes:
            with app.test_request_context("/"):
                return pdf.render_html("<p>One line.</p>", views.render_context())

        def get(url: str) -> None:
            response = client.get(url)
            if response.status_code != 200:
                raise SystemExit(f"{url} answered {response.status_code}")

        blank_url = "/sheets/gamerules.pdf?sides=7&size=letter"
        with app.test_request_context():
            filled_url = url_for("sheets.game_pdf", game_id=game_id, size="letter")
            # No sheet of this paper size was made yet: it is measured before it is made.
            filled_new_shape_url = url_for("sheets.game_pdf", game_id=game_id, size="a4")

        def render_filled() -> None:
            views.made_pdfs.clear()  # the page is made again, not sent from memory
            get(filled_url)

        floor_first = timed(one_line_page)
        blank_first = timed(lambda: get(blank_url))
        floor = median_of(one_line_page)
        blank_repeat = median_of(lambda: get(blank_url))
        filled_first = timed(lambda: get(filled_url))
        filled_render = median_of(render_filled)
        filled_same = median_of(lambda: get(filled_url))
        filled_new_shape = timed(lambda: get(filled_new_shape_url))
        floor_after = median_of(one_line_page)

    floor_warm = min(floor, floor_after)
    load = ", ".join(f"{n:.2f}" for n in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"WeasyPrint score sheets, pinned to {core}; load average {load}")
    print(f"medians of {REPEATS} runs, except the lines marked 'once'")
    print(f"{'':52}{'time':>24}   {'floor: one-line page':>27}")
    rows = [
        ("blank, 7 sides, Letter: first request (once)", blank_first, floor_first, "cold"),
        ("blank, same options again: from memory", blank_repeat, floor_warm, "warm"),
        ("filled, finished 7-side game, Letter (once)", filled_first, floor_warm, "warm"),
        ("filled, same game made again", filled_render, floor_warm, "warm"),
        ("filled, same game, same page: from memory", filled_same, floor_warm, "warm"),
        ("filled, A4: shape measured first (once)", filled_new_shape, floor_warm, "warm"),
    ]
    for label, figure, base, kind in rows:
        print(f"{label:52}{ms(figure)}   {ms(base)} {kind}")
    worst = max(filled_first[1], filled_render[1], filled_new_shape[1])
    verdict = "within" if worst < FILLED_TARGET_S else "OVER"
    print(
        f"filled sheet made, slowest CPU time {worst * 1000:.0f} ms: {verdict} the "
        f"{FILLED_TARGET_S * 1000:.0f} ms target (one core)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
