"""Fixtures shared by every test folder.

unit/     the pure rules and engine: no app needed
web/      the app through Flask's test client (``app``, ``client``, ``runner``)
browser/  real pages in headless Chromium (``live_server``, ``page``); marked ``browser``
"""

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

TESTS_DIR = Path(__file__).resolve().parent
ARTIFACTS_DIR = TESTS_DIR / "artifacts"
PHONE_VIEWPORT = {"width": 390, "height": 844}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    browser_dir = TESTS_DIR / "browser"
    for item in items:
        if browser_dir in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's settings or writes into the project's instance folder."""
    for name in ("SCOREKEEPER_DATABASE_URL", "SCOREKEEPER_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))


def make_test_app(tmp_path: Path, **overrides: object) -> Flask:
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
        **overrides,
    }
    app = create_app(config)
    with app.app_context():
        db.create_all()
    return app


def _dispose(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_test_app(tmp_path)
    yield app
    _dispose(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[Flask]:
    """An app for the browser: CSRF on, as a person meets it."""
    app = make_test_app(tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    _dispose(app)


@pytest.fixture
def live_server(live_app: Flask) -> Iterator[str]:
    """``live_app`` served on a free loopback port; yields its base URL."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Chromium is not installed: `make test` installs it (Debian package chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh phone-sized page with no cookies."""
    context = browser.new_context(viewport=PHONE_VIEWPORT, locale="en-US")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def artifacts_dir() -> Path:
    """Where browser tests leave screenshots for a person to look at (ignored by git)."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR
