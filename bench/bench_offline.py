"""What the offline app weighs on a phone: the bytes the server sends for a game's pages with
and without the service worker, the worker's own first visit, and what its cache holds.

Headless Chromium at 390x844 against the app on a real server on 127.0.0.1 (a temporary SQLite
database built by the migrations); every byte is counted at the server (bodies, uncompressed),
so the worker's own requests count too. The floor, measured in the same run: the same page's
HTML alone. Run by `make bench` (not by `make test`):

    .venv/bin/python bench/bench_offline.py

Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402
from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402

PHONE = {"width": 390, "height": 844}
OFFLINE_SCRIPTS = ("/sw.js", "/static/js/offline", "/static/js/drafts.js")
CACHE_SIZE = """async () => {
  const sizes = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    let bytes = 0, entries = 0;
    for (const request of await cache.keys()) {
      bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
      entries += 1;
    }
    sizes[name.startsWith("shell-") ? "shell" : name] = [entries, bytes];
  }
  return sizes;
}"""


class ByteCounter:
    """WSGI middleware: the body bytes sent for each path since the last ``take``."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.sent: dict[str, int] = defaultdict(int)
        self.lock = threading.Lock()

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterator[bytes]:
        path = environ.get("PATH_INFO", "")
        for chunk in self.app(environ, start_response):
            with self.lock:
                self.sent[path] += len(chunk)
            yield chunk

    def take(self) -> dict[str, int]:
        with self.lock:
            sent, self.sent = dict(self.sent), defaultdict(int)
        return sent


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def report(label: str, sent: dict[str, int], html_path: str) -> None:
    if "-v" in sys.argv:
        print(sorted(sent.items()))
    total = sum(sent.values())
    offline = sum(size for path, size in sent.items() if path.startswith(OFFLINE_SCRIPTS))
    floor = sent.get(html_path, 0)
    print(
        f"  {label:<44} {kb(total):>9}  (offline scripts {kb(offline)}; "
        f"{len(sent)} addresses)   floor {kb(floor)} (the page's HTML)"
    )


def settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)


def start_game(page: Page, server: str) -> str:
    page.goto(server + "/games/new")
    page.get_by_label("Team 1", exact=True).fill("Ann & Bob")
    page.get_by_label("Team 2", exact=True).fill("Cy & Di")
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url("**/deals/1")
    return page.url.rsplit("/deals/", 1)[0]


def phone(browser: Any, workers: bool) -> BrowserContext:
    return browser.new_context(
        viewport=PHONE, locale="en-US", service_workers="allow" if workers else "block"
    )


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-offline-"))
    app = create_app(
        {
            "SECRET_KEY": "bench-offline",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
            "LIMIT_GAMES": "off",
        }
    )
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    counter = ByteCounter(app.wsgi_app)
    app.wsgi_app = counter  # type: ignore[method-assign]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_URL"] = base
    threading.Thread(target=server.serve_forever, daemon=True).start()
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            setup = phone(browser, workers=False).new_page()
            game = start_game(setup, base)
            deal = game + "/deals/1"
            counter.take()
            print("a game's pages at 390x844, pagat, 2 teams of 2 (bytes sent by the server)")
            for label, url, path in (
                ("scoreboard, worker blocked", game, game.replace(base, "")),
                ("deal form, worker blocked", deal, deal.replace(base, "")),
            ):
                page = phone(browser, workers=False).new_page()
                page.goto(url)
                settle(page)
                report(label, counter.take(), path)
                page.context.close()

            context = phone(browser, workers=True)
            page = context.new_page()
            page.goto(game)
            page.wait_for_selector("html[data-pages-kept]", state="attached")
            settle(page)
            first = counter.take()
            report("scoreboard, first visit with the worker", first, game.replace(base, ""))
            worker_script = first.get("/sw.js", 0)
            print(f"    of which the worker script {kb(worker_script)}")
            sizes = page.evaluate(CACHE_SIZE)
            for name, (entries, size) in sorted(sizes.items()):
                print(f"  cache {name:<38} {kb(size):>9}  ({entries} entries)")
            for label, url in (
                ("scoreboard again, with the worker", game),
                ("deal form, with the worker", deal),
            ):
                page.goto(url)
                settle(page)
                report(label, counter.take(), url.replace(base, ""))
            context.set_offline(True)
            page.goto(game)
            settle(page)
            report("scoreboard offline (from the cache)", counter.take(), game.replace(base, ""))
            context.close()
            browser.close()
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
