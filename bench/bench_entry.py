"""Entering a whole game at the table: taps and pixels scrolled per deal, on a phone.

Starts the app on 127.0.0.1 (a free port, a temporary SQLite database built by the
migrations), then plays a four-deal pagat game for two teams of two in headless Chromium at
390x844, through the deal form, as a keeper would. Run by `make bench` (not by `make test`):

    .venv/bin/python bench/bench_entry.py [--viewport 390x844]

The keeper's moves, counted the same way whatever the form looks like:
- a tap is a touch on the page: a "went out" choice, a field to type into, a - or + button,
  Save, "Enter deal N+1". Digits typed on the phone's keyboard are keys, counted apart.
- a field already showing the value to enter (0 for an empty field) is not touched.
- before each tap the page is scrolled just enough for the control to be seen whole above
  any bar stuck to the bottom of the screen; those scrolls are the pixels counted.
- the fields are filled top to bottom, then left to right, as the form reads.
- a deal runs from its form to the tap that opens the next deal's form (after the last
  deal: until the winner is seen).

The floor beside each figure is the least any form could ask: the "went out" choice, Save
and the next deal's link, with no value typed and no scrolling. The target is
at most 12 taps and one screen height of scrolling per deal; the run exits 1 when a deal
misses it.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402
from playwright.sync_api import Locator, Page, sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]
TARGET_TAPS = 12
TEAMS = ("Ann & Bob", "Cy & Di")
FIELDS = (
    "meld_points",
    "clean_books",
    "dirty_books",
    "wild_books",
    "red_threes_down",
    "red_threes_held",
    "cards_left_points",
)

# The four deals: who went out (a side's index, None when the stock ran out) and each side's
# numbers, by field name. Fields not named stay 0.
DEALS: tuple[tuple[int | None, dict[str, int], dict[str, int]], ...] = (
    (
        0,
        dict(
            meld_points=1210,
            clean_books=2,
            dirty_books=2,
            wild_books=1,
            red_threes_down=2,
            cards_left_points=15,
        ),
        dict(
            meld_points=600,
            clean_books=1,
            dirty_books=1,
            red_threes_down=1,
            red_threes_held=1,
            cards_left_points=120,
        ),
    ),
    (
        None,
        dict(meld_points=500, clean_books=1, red_threes_down=1, cards_left_points=40),
        dict(meld_points=300, dirty_books=1, cards_left_points=85),
    ),
    (
        1,
        dict(
            meld_points=400, clean_books=1, dirty_books=1, red_threes_down=1, cards_left_points=60
        ),
        dict(meld_points=1500, clean_books=2, dirty_books=2, wild_books=1, cards_left_points=25),
    ),
    (
        0,
        dict(
            meld_points=1800,
            clean_books=3,
            dirty_books=2,
            wild_books=1,
            red_threes_down=2,
            cards_left_points=20,
        ),
        dict(
            meld_points=700, clean_books=1, dirty_books=1, red_threes_held=1, cards_left_points=150
        ),
    ),
)

# How far a control must be scrolled to be seen whole: above the bars stuck to the bottom
# of the screen and below those stuck to its top.
_SCROLL_NEEDED = """el => {
  const rect = el.getBoundingClientRect();
  let top = 0, bottom = window.innerHeight;
  for (const bar of document.querySelectorAll('body *')) {
    const position = getComputedStyle(bar).position;
    if ((position !== 'sticky' && position !== 'fixed') || bar.contains(el)) continue;
    const box = bar.getBoundingClientRect();
    if (box.height === 0 || box.height > window.innerHeight / 2) continue;
    if (box.bottom >= window.innerHeight - 1 && box.top > window.innerHeight / 2) {
      bottom = Math.min(bottom, box.top);
    } else if (box.top <= 1 && box.bottom < window.innerHeight / 2) {
      top = Math.max(top, box.bottom);
    }
  }
  if (rect.top < top) return rect.top - top;
  if (rect.bottom > bottom) return Math.min(rect.bottom - bottom, rect.top - top);
  return 0;
}"""


@dataclass
class Moves:
    taps: int = 0
    keys: int = 0
    scrolled: int = 0
    values: int = 0
    notes: list[str] = field(default_factory=list)


def scroll_y(page: Page) -> int:
    return int(page.evaluate("window.scrollY"))


def bring_into_view(page: Page, control: Locator, moves: Moves) -> None:
    before = scroll_y(page)
    distance = control.evaluate(_SCROLL_NEEDED)
    if distance:
        page.evaluate("d => window.scrollBy(0, d)", distance)
    moves.scrolled += abs(scroll_y(page) - before)


def tap(page: Page, control: Locator, moves: Moves) -> None:
    bring_into_view(page, control, moves)
    control.click(no_wait_after=False)  # in view already: the click itself does not scroll
    moves.taps += 1


def enter_value(page: Page, name: str, value: int, moves: Moves) -> None:
    """Type ``value`` into the field unless it shows it already (empty shows 0)."""
    control = page.locator(f'input[name="{name}"]')
    shown = control.input_value().strip() or "0"
    if value:
        moves.values += 1
    if shown == str(value):
        return
    tap(page, control, moves)
    control.fill("")
    page.keyboard.type(str(value) if value else "")
    moves.keys += len(str(value)) if value else 1


def in_reading_order(page: Page, sides: list[dict[str, int]]) -> list[tuple[str, int]]:
    """Every side's fields, as the keeper reads the form: top to bottom, then left to right
    (a side at a time where the sides are stacked, a line at a time where they stand side by
    side)."""
    fields = [
        (f"sides-{index}-{name}", values.get(name, 0))
        for index, values in enumerate(sides)
        for name in FIELDS
    ]
    where = page.evaluate(
        """names => names.map(name => {
          const box = document.querySelector(`input[name="${name}"]`).getBoundingClientRect();
          return [box.top + window.scrollY, box.left];
        })""",
        [name for name, _value in fields],
    )
    order = sorted(range(len(fields)), key=lambda i: (round(where[i][0] / 8), where[i][1]))
    return [fields[i] for i in order]


def play_deal(
    page: Page, number: int, deal: tuple[int | None, dict[str, int], dict[str, int]]
) -> Moves:
    out, *sides = deal
    moves = Moves()
    choice = "stock" if out is None else str(out)
    tap(page, page.locator(f'input[name="went_out"][value="{choice}"]'), moves)
    for name, value in in_reading_order(page, sides):
        enter_value(page, name, value, moves)
    tap(page, page.locator('button[name="save"]'), moves)
    page.wait_for_load_state("load")
    if number < len(DEALS):
        link = page.get_by_role("link", name=f"Enter deal {number + 1}", exact=True).first
        tap(page, link, moves)
        page.wait_for_url(f"**/deals/{number + 1}")
    else:
        winner = page.locator(".final-result, .result").first
        bring_into_view(page, winner, moves)
        moves.notes.append(winner.inner_text().strip())
    return moves


def start_game(page: Page, base: str) -> None:
    page.goto(base + "/games/new")
    page.get_by_label("Partnership (pagat.com)").check()
    page.get_by_label("Team 1", exact=True).fill(TEAMS[0])
    page.get_by_label("Team 2", exact=True).fill(TEAMS[1])
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url("**/deals/1")


def serve(folder: str) -> tuple[str, object]:
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"}
    )
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config["PUBLIC_URL"] = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app.config["PUBLIC_URL"], (server, app)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewport", default="390x844")
    args = parser.parse_args()
    width, height = (int(part) for part in args.viewport.split("x"))
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if executable is None:
        print("Chromium is not installed: `make test` installs it")
        return 1
    logging.disable(logging.INFO)
    ok = True
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, (server, app) = serve(folder)
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        page = context.new_page()
        start_game(page, base)
        print(f"pagat, 2 teams of 2, four deals through the deal form at {width}x{height}")
        for number, deal in enumerate(DEALS, start=1):
            height_px = page.evaluate("document.documentElement.scrollHeight")
            moves = play_deal(page, number, deal)
            floor = 2 + (1 if number < len(DEALS) else 0)
            met = moves.taps <= TARGET_TAPS and moves.scrolled <= height
            ok &= met
            print(
                f"  deal {number}: {moves.taps:>2} taps ({moves.keys} keys typed), "
                f"{moves.scrolled:>5} px scrolled   form {height_px} px high   "
                f"floor {floor} taps, 0 px   target <= {TARGET_TAPS} taps, <= {height} px"
                f"{'' if met else '   MISSED'}"
            )
            for note in moves.notes:
                print(f"    {note}")
        browser.close()
        server.shutdown()
        with app.app_context():
            db.engine.dispose()
    if not ok:
        print("missed the target")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
