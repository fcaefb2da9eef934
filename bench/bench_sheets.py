"""Score sheet PDFs: a blank sheet's first and repeat request, and a finished game's sheet.

Each figure is printed beside the floor measured in the same run: the time WeasyPrint takes to
render a one-line page. The filled sheet's render is also set beside a bare WeasyPrint table of
the very same cells (its texts, no style sheet, no fonts of its own), the two rendered in turn:
the sheet's layout, fonts and style may cost at most half as much again
(``FILLED_TO_BARE_TARGET``). The process is pinned to one core, as the target is stated for one.

    make bench        or        .venv/bin/python bench/bench_sheets.py
"""

from __future__ import annotations

import html
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FILLED_TARGET_S = 0.5
FILLED_TO_BARE_TARGET = 1.5
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


class _TableCells(HTMLParser):
    """The text of every cell of a page's tables, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") and self.rows:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def bare_table(page: str) -> tuple[str, int, int]:
    """A page of one unstyled table holding the cells of `page`: (HTML, rows, most cells)."""
    cells = _TableCells()
    cells.feed(page)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(text)}</td>" for text in row) + "</tr>"
        for row in cells.rows
    )
    return f"<table>{rows}</table>", len(cells.rows), max(map(len, cells.rows))


def in_turn(first: Callable[[], object], second: Callable[[], object]) -> tuple[Timing, Timing]:
    """Medians of the two, run one after the other: both meet the machine in the same state."""
    runs = [(timed(first), timed(second)) for _ in range(REPEATS)]
    return (
        (
            statistics.median(a[0] for a, _ in runs),
            statistics.median(a[1] for a, _ in runs),
        ),
        (
            statistics.median(b[0] for _, b in runs),
            statistics.median(b[1] for _, b in runs),
        ),
    )


def main() -> int:
    core = pin_to_one_core()
    with tempfile.TemporaryDirectory(prefix="bench-sheets-") as folder:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
        from flask import url_for
        from sqlalchemy import delete

        from scorekeeper import create_app
        from scorekeeper.extensions import db
        from scorekeeper.printing import kept, pdf
        from scorekeeper.printing.context import render_context
        from scorekeeper.printing.geometry import PAPERS
        from scorekeeper.rules.entry import DealEntry, SideEntry
        from scorekeeper.rules.variants import get_variant
        from scorekeeper.sheets import views
        from scorekeeper.store.deal_writes import write_deal
        from scorekeeper.store.game_service import load_game, start_game
        from scorekeeper.store.kept_sheets import KeptSheet

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
                return pdf.render_html("<p>One line.</p>", render_context())

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
            # The page is made again, not sent from memory, the instance folder or the database.
            views.made_pdfs.clear()
            shutil.rmtree(Path(folder) / kept.FOLDER, ignore_errors=True)
            with app.app_context():
                db.session.execute(delete(KeptSheet))
                db.session.commit()
            get(filled_url)

        with app.test_request_context("/"):
            context = render_context()
            sheet = views._game_sheet(load_game(game_id), PAPERS["letter"])
            filled_page = views._html(sheet, pdf.measure_row_height(views._source(sheet), context))
            bare_page, bare_rows, bare_columns = bare_table(filled_page)

            def render_page(page: str, stylesheets: tuple[str, ...] = ()) -> Callable[[], bytes]:
                return lambda: pdf.render_html(page, context, stylesheets=stylesheets)

            # The sheet rendered as the app renders it: its style sheet parsed once a process.
            render_filled_page = render_page(filled_page, views.STYLESHEETS)

            render_page(bare_page)()
            render_filled_page()
            bare_render, filled_layout = in_turn(render_page(bare_page), render_filled_page)

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
        ("filled, its HTML rendered (in turn with the next)", filled_layout, floor_warm, "warm"),
        (f"bare table of its {bare_rows} x {bare_columns} cells", bare_render, floor_warm, "warm"),
        ("filled, same game, same page: from memory", filled_same, floor_warm, "warm"),
        ("filled, A4: shape measured first (once)", filled_new_shape, floor_warm, "warm"),
    ]
    for label, figure, base, kind in rows:
        print(f"{label:52}{ms(figure)}   {ms(base)} {kind}")
    worst = max(filled_first[1], filled_render[1], filled_new_shape[1])
    ratio = filled_layout[1] / bare_render[1]
    verdict = "within" if ratio <= FILLED_TO_BARE_TARGET else "OVER"
    print(
        f"filled sheet's render / bare table of the same cells (CPU): {ratio:.2f}x, {verdict} "
        f"the {FILLED_TO_BARE_TARGET}x target"
    )
    verdict = "within" if worst < FILLED_TARGET_S else "OVER"
    print(
        f"filled sheet made, slowest CPU time {worst * 1000:.0f} ms: {verdict} the "
        f"{FILLED_TARGET_S * 1000:.0f} ms target (one core)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
