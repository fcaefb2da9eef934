"""Entering a whole game at the table: taps, keys and pixels scrolled per deal, on a phone
whose on-screen keyboard takes part of the screen.

Starts the app on 127.0.0.1 (a free port, a temporary SQLite database built by the
migrations), then plays a four-deal pagat game for two teams of two in headless Chromium at
390x844, through the deal form, as a keeper would. Run by `make bench` (not by `make test`):

    .venv/bin/python bench/bench_entry.py [--viewport 390x844] [--keyboard 300]

The keeper's moves, counted the same way whatever the form looks like:
- a tap is a touch on the page: a "went out" choice, a field to type into, a - or + button,
  Save, "Enter deal N+1". Keys are touches on the phone's keyboard, counted apart: the digits,
  and its Next key, which moves to the next number field of the form (as Android's keyboard
  does; iPhone's has the same arrows above it). A field to change is reached with Next when it
  comes later in the form than the one being typed in, else with a tap (``--taps-only``: every
  field with a tap, as a keeper who never uses Next).
- a field already showing the value to enter (0 for an empty field) is not typed into.
- while a number field has the focus the keyboard is up: the screen is ``--keyboard`` pixels
  shorter (the viewport is shortened), and the field typed in must be seen whole above it.
- before each tap, and at each field reached with Next, the page is scrolled just enough for
  the control to be seen whole, above any bar stuck to the bottom of the screen; those scrolls
  are the pixels counted (whoever makes them: the keeper or the browser following the focus).
- a deal runs from its form to the tap that opens the next deal's form (after the last
  deal: until the winner is seen).

The floor beside each figure is the least any form could ask: the "went out" choice, Save
and the next deal's link, with no value typed and no scrolling; for keys, the digits of the
numbers that differ from what the form shows. The target is at most 10 taps and no scrolling
per deal, keyboard up; the run exits 1 when a deal misses it.
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
from scorekeeper.sheets import ahead  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]
TARGET_TAPS = 10
TARGET_SCROLL = 0
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
    nexts: int = 0
    digits_needed: int = 0
    scrolled: int = 0
    values: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class Screen:
    """The phone's screen: its size, and the keyboard's height when it is up."""

    width: int
    height: int
    keyboard: int
    keyboard_up: bool = False

    def show_keyboard(self, page: Page, up: bool) -> None:
        if up != self.keyboard_up:
            self.keyboard_up = up
            shown = self.height - (self.keyboard if up else 0)
            page.set_viewport_size({"width": self.width, "height": shown})


SCREEN = Screen(390, 844, 300)
USE_NEXT = True
_TYPED_INTO = "el => el.matches('input[type=number], input[type=text], textarea')"
# The number fields of the deal form as the keyboard's Next goes through them: in the form's
# order, those shown (a closed card counter's are not).
_FIELD_ORDER = """() => Array.from(document.querySelectorAll('#deal-form input[type=number]'))
  .filter(el => el.getClientRects().length > 0 && !el.closest('details:not([open])'))
  .map(el => el.name)"""


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
    typed_into = bool(control.evaluate(_TYPED_INTO))
    control.click(no_wait_after=False)  # in view already: the click itself does not scroll
    moves.taps += 1
    SCREEN.show_keyboard(page, typed_into)
    if typed_into:  # the keyboard came up: the field must still be seen above it
        bring_into_view(page, control, moves)


def next_key(page: Page, name: str, moves: Moves) -> None:
    """The keyboard's Next: the focus moves to the field ``name``, which the page shows."""
    control = page.locator(f'input[name="{name}"]')
    control.evaluate("el => el.focus({preventScroll: true})")
    moves.keys += 1
    moves.nexts += 1
    bring_into_view(page, control, moves)


def shown_value(page: Page, name: str) -> str:
    return page.locator(f'input[name="{name}"]').input_value().strip() or "0"


def type_value(page: Page, name: str, value: int, moves: Moves) -> None:
    control = page.locator(f'input[name="{name}"]')
    control.fill("")
    page.keyboard.type(str(value) if value else "")
    moves.keys += len(str(value)) if value else 1


def play_deal(
    page: Page, number: int, deal: tuple[int | None, dict[str, int], dict[str, int]]
) -> Moves:
    out, *sides = deal
    moves = Moves()
    choice = "stock" if out is None else str(out)
    tap(page, page.locator(f'input[name="went_out"][value="{choice}"]'), moves)
    wanted = {
        f"sides-{index}-{name}": values.get(name, 0)
        for index, values in enumerate(sides)
        for name in FIELDS
    }
    order = [name for name in page.evaluate(_FIELD_ORDER) if name in wanted]
    focused: int | None = None
    for position, name in enumerate(order):
        value = wanted[name]
        moves.values += bool(value)
        if shown_value(page, name) == str(value):
            continue
        moves.digits_needed += len(str(value)) if value else 1
        if focused is None or not USE_NEXT:
            tap(page, page.locator(f'input[name="{name}"]'), moves)
        else:
            for between in order[focused + 1 : position + 1]:
                next_key(page, between, moves)
        type_value(page, name, value, moves)
        focused = position
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
    parser.add_argument(
        "--keyboard", type=int, default=300, help="the on-screen keyboard's height in pixels"
    )
    parser.add_argument(
        "--taps-only", action="store_true", help="reach every field with a tap, never with Next"
    )
    args = parser.parse_args()
    width, height = (int(part) for part in args.viewport.split("x"))
    SCREEN.width, SCREEN.height, SCREEN.keyboard = width, height, args.keyboard
    global USE_NEXT
    USE_NEXT = not args.taps_only
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
        print(
            f"pagat, 2 teams of 2, four deals through the deal form at {width}x{height}, "
            f"the keyboard {args.keyboard} px high while a number field has the focus"
            + (", every field reached with a tap" if args.taps_only else "")
        )
        for number, deal in enumerate(DEALS, start=1):
            height_px = page.evaluate("document.documentElement.scrollHeight")
            moves = play_deal(page, number, deal)
            floor = 2 + (1 if number < len(DEALS) else 0)
            met = moves.taps <= TARGET_TAPS and moves.scrolled <= TARGET_SCROLL
            ok &= met
            print(
                f"  deal {number}: {moves.taps:>2} taps (floor {floor}), "
                f"{moves.keys:>2} keys typed ({moves.nexts} of them Next; floor "
                f"{moves.digits_needed}), {moves.scrolled:>4} px scrolled (floor 0)   "
                f"form {height_px} px high   target <= {TARGET_TAPS} taps, "
                f"{TARGET_SCROLL} px{'' if met else '   MISSED'}"
            )
            for note in moves.notes:
                print(f"    {note}")
        browser.close()
        server.shutdown()
        ahead.wait_until_made(120)  # the finished game's sheet, made after its last deal
        with app.app_context():
            db.engine.dispose()
    if not ok:
        print("missed the target")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
