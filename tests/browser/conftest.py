"""Browser fixtures: Debian's Chromium driven by Playwright, and an app on a real server.

``browser`` launches /usr/bin/chromium (the Debian package that `make test` installs) with the
flags below; Playwright gives each launch a fresh temporary profile (--user-data-dir), so no
state survives between runs. ``migrated_server`` serves the app on a free loopback port with a
temporary database (SQLite, unless the run uses a server) built by running the Alembic
migrations, as `make run` builds it.
"""

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium_setup import CHROMIUM, CHROMIUM_ARGS
from flask import Flask
from flask_migrate import upgrade
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.extensions import db
from scorekeeper.live import poll

PHONE_VIEWPORT = {"width": 390, "height": 844}

# What a page is expected to show, it is given 20 s to show (Playwright's own default: 5 s): a
# page on a busy machine, beside the other processes of the run, may take longer than 5 s, and
# a right page that is slow must not fail. A wrong page still fails, only later.
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if executable is None:
        pytest.fail("Chromium is not installed: `make test` installs it (Debian package chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def migrated_app(database_url: str) -> Iterator[Flask]:
    """The app with CSRF on and a database made only by the migrations."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test-secret-key",
            "SQLALCHEMY_DATABASE_URI": database_url,
        }
    )
    with app.app_context():
        upgrade(directory=str(PROJECT_ROOT / "migrations"))
    yield app
    poll.stop(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def migrated_server(migrated_app: Flask) -> Iterator[str]:
    """``migrated_app`` served by a real server thread on a free port; yields its base URL."""
    server = make_server("127.0.0.1", 0, migrated_app, threaded=True)
    migrated_app.config["PUBLIC_URL"] = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield migrated_app.config["PUBLIC_URL"]
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture
def page(browser):
    """A fresh phone-sized page with no cookies."""
    context = browser.new_context(viewport=PHONE_VIEWPORT, locale="en-US")
    page = context.new_page()
    yield page
    context.close()
