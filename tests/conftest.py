"""Fixtures shared by every test folder.

unit/     the pure rules and engine: no app needed
web/      the app through Flask's test client (``app``, ``client``, ``runner``)
browser/  real pages in headless Chromium (``migrated_server``, ``page``); marked ``browser``

The apps use a fresh SQLite file per test. With SCOREKEEPER_TEST_DATABASE_URL set to a
PostgreSQL server (``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``), they use a
database of their own on that server instead: made under a unique name when the run starts,
emptied before each test that builds an app, and dropped when the run ends.
"""

import os
import secrets
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from database_use import DatabaseUse
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from server_database import ServerDatabase
from sqlalchemy import create_engine, make_url, text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.live import poll
from scorekeeper.printing import pdf
from scorekeeper.printing.pdf import StaticFileFetcher
from scorekeeper.sheets import ahead as sheets_ahead

TESTS_DIR = Path(__file__).resolve().parent
ARTIFACTS_DIR = TESTS_DIR / "artifacts"
TEST_DATABASE_ENV = "SCOREKEEPER_TEST_DATABASE_URL"
SETTINGS_FROM_ENVIRONMENT = (
    "SCOREKEEPER_DATABASE_URL",
    "SCOREKEEPER_SECRET_KEY",
    "SCOREKEEPER_SECURE_COOKIES",
    "SCOREKEEPER_PUBLIC_URL",
)
TEST_PUBLIC_URL = "http://localhost"
"""The test apps' public address: the test client's own host."""

# No property test depends on the clock: Hypothesis's deadline (200 ms an example) and its check
# that examples are made quickly enough fail on a loaded machine, with nothing wrong in the code.
settings.register_profile(
    "scorekeeper", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("scorekeeper")


@pytest.fixture(scope="session", autouse=True)
def _server_database() -> Iterator[None]:
    """With SCOREKEEPER_TEST_DATABASE_URL set: this run's own database on that server."""
    admin_url = os.environ.get(TEST_DATABASE_ENV, "")
    if not admin_url:
        yield
        return
    admin = make_url(admin_url)
    name = f"scorekeeper_test_{os.getpid()}_{secrets.token_hex(4)}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        ServerDatabase.url = admin.set(database=name)
        yield
    finally:
        ServerDatabase.url = None
        ServerDatabase.tables_ready = False
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.fixture(autouse=True)
def _database_use(request: pytest.FixtureRequest) -> Iterator[None]:
    """Counts the statements the test sends (tests/database_use.py): a test marked
    ``no_database`` fails when it sends one."""
    DatabaseUse.start()
    yield
    sent = DatabaseUse.statements
    request.node.user_properties.append(("database_statements", len(sent)))
    if sent and request.node.get_closest_marker("no_database"):
        pytest.fail(
            f"marked no_database (left out of the PostgreSQL run), yet sent {len(sent)}"
            f" statements, the first: {sent[0][:200]}"
        )


@pytest.fixture(autouse=True)
def _fresh_server_database() -> None:
    """Each test starts from an empty server database (emptied when it first builds an app)."""
    ServerDatabase.needs_reset = True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    browser_dir = TESTS_DIR / "browser"
    on_server = bool(os.environ.get(TEST_DATABASE_ENV))
    skip_sqlite = pytest.mark.skip(reason="checks SQLite itself; this run uses PostgreSQL")
    skip_postgresql = pytest.mark.skip(reason="checks PostgreSQL itself; this run uses SQLite")
    for item in items:
        if browser_dir in item.path.parents:
            item.add_marker(pytest.mark.browser)
        if on_server and item.get_closest_marker("sqlite"):
            item.add_marker(skip_sqlite)
        if not on_server and item.get_closest_marker("postgresql"):
            item.add_marker(skip_postgresql)


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's settings or writes into the project's instance folder."""
    for name in SETTINGS_FROM_ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))


def make_test_app(tmp_path: Path, *, tables: bool = True, **overrides: object) -> Flask:
    """An app on the test's database; ``tables=False`` leaves it empty (for migrations)."""
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "SQLALCHEMY_DATABASE_URI": ServerDatabase.test_url(tmp_path, empty=not tables),
        "WTF_CSRF_ENABLED": False,
        "PUBLIC_URL": TEST_PUBLIC_URL,
        # Finished games' sheets are made ahead only where a test asks for it
        # (tests/web/test_sheets_ahead.py): elsewhere they would only cost renders.
        "SHEETS_AHEAD": False,
        **overrides,
    }
    sqlite_file = tmp_path / ServerDatabase.SQLITE_FILE
    if tables and ServerDatabase.url is None and not sqlite_file.exists():
        shutil.copyfile(_sqlite_template(tmp_path.parent, config), sqlite_file)
        return create_app(config)
    app = create_app(config)
    if tables:
        with app.app_context(), DatabaseUse.paused():
            db.create_all()
        ServerDatabase.made_tables()
    return app


_sqlite_templates: dict[Path, Path] = {}


def _sqlite_template(folder: Path, config: dict[str, object]) -> Path:
    """An empty SQLite database with every table, made once a process: a test's own database
    starts as a copy of it, which takes far less time than making the tables again."""
    if folder not in _sqlite_templates:
        template = folder / f"template-{os.getpid()}.sqlite3"
        template.unlink(missing_ok=True)
        maker = create_app({**config, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{template}"})
        with maker.app_context(), DatabaseUse.paused():
            db.create_all()
        _dispose(maker)
        _sqlite_templates[folder] = template
    return _sqlite_templates[folder]


def _dispose(app: Flask) -> None:
    assert sheets_ahead.wait_until_made(120), "sheets still being made ahead after 120 s"
    poll.stop(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_test_app(tmp_path)
    yield app
    _dispose(app)


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The current test's database: a SQLite file in ``tmp_path``, or the server database."""
    return ServerDatabase.test_url(tmp_path)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def empty_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty database: no tables until the migrations make them."""
    app = make_test_app(tmp_path, tables=False)
    yield app
    _dispose(app)


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[Flask]:
    """An app for the browser: CSRF on, as a person meets it."""
    app = make_test_app(tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    _dispose(app)


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes apps with settings of their own (``make_app(LIMIT_GAMES="1/hour")``)."""
    made: list[Flask] = []

    def make(**overrides: object) -> Flask:
        made.append(make_test_app(tmp_path, **overrides))
        return made[-1]

    yield make
    for app in made:
        _dispose(app)


@pytest.fixture
def fetched_urls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every URL a sheet's render asks WeasyPrint's fetcher for. Only renders in the test's own
    process are seen: make the app with ``SHEET_RENDER_NICE=0``."""
    fetched: list[str] = []
    original = StaticFileFetcher.fetch

    def recording(self: StaticFileFetcher, url: str, headers: object = None) -> object:
        fetched.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(StaticFileFetcher, "fetch", recording)
    pdf.fitted_rows.clear()
    return fetched


@pytest.fixture
def artifacts_dir() -> Path:
    """Where browser tests leave screenshots for a person to look at (ignored by git)."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR
