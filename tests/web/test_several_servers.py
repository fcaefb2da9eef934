"""Several servers on one database behave as one.

Two apps on the test's database stand for two servers behind one proxy: a browser's requests
land on either. Its session and forms, the links, the rate limits, the live poll and the
statistics give the same answers on both. A server that would make a secret key of its own
while the database may be shared refuses to start, and the live poll keeps working when the
listener hears no notifications (a transaction-pooling PgBouncer).
"""

from __future__ import annotations

import html
import io
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import save, start_game
from pypdf import PdfReader
from server_database import ServerDatabase
from sqlalchemy import select
from sqlalchemy.engine import URL

from bench.bench_load import free_port
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.live import feed as feed_module
from scorekeeper.live import poll as poll_module
from scorekeeper.printing import kept, pdf
from scorekeeper.sheets import ahead as sheets_ahead
from scorekeeper.sheets import views as sheet_views
from scorekeeper.store.players import Player

CSRF_RE = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
SESSION_COOKIE = "session"
WAIT_SECONDS = 30.0


def wait_for(condition: Callable[[], bool], seconds: float = WAIT_SECONDS) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def carry_cookies(source: FlaskClient, target: FlaskClient) -> None:
    """The browser's cookies, sent to the other server as a proxy would."""
    cookie = source.get_cookie(SESSION_COOKIE)
    assert cookie is not None
    target.set_cookie(SESSION_COOKIE, cookie.value, domain=cookie.domain)


@pytest.fixture
def servers(make_app: Callable[..., Flask]) -> tuple[Flask, Flask]:
    """Two servers on one database, with the same secret key, CSRF on as a browser meets it."""
    return make_app(WTF_CSRF_ENABLED=True), make_app(WTF_CSRF_ENABLED=True)


def new_game_on(client: FlaskClient, name: str, *players: str) -> int:
    page = client.get("/games/new").get_data(as_text=True)
    data = {
        "csrf_token": CSRF_RE.search(page).group(1),
        "variant": "pagat",
        "table": "2x4",
        "name": name,
        "start": "1",
    }
    for index, player in zip((0, 1, 3, 4), players, strict=False):
        data[f"player_names-{index}"] = player
    return client.post("/games/new", data=data).status_code


def test_a_browser_keeps_its_games_and_its_forms_whichever_server_answers(servers) -> None:
    first, second = servers
    on_first, on_second = first.test_client(), second.test_client()
    assert new_game_on(on_first, "Made on the first", "Ann", "Bob", "Cy", "Dee") == 303
    carry_cookies(on_first, on_second)

    listed = on_second.get("/").get_data(as_text=True)
    assert "Made on the first" in listed  # the session the first server sealed is read

    # A form of the first server is accepted by the second (its CSRF token and session).
    page = on_first.get("/games/new").get_data(as_text=True)
    token = CSRF_RE.search(page).group(1)
    made = on_second.post(
        "/games/new",
        data={
            "csrf_token": token,
            "variant": "pagat",
            "table": "2x4",
            "name": "Second",
            "start": "1",
        },
    )
    assert made.status_code == 303
    carry_cookies(on_second, on_first)
    listed = on_first.get("/").get_data(as_text=True)
    assert "Made on the first" in listed and "Second" in listed


def test_links_made_on_one_server_open_on_the_other(make_app) -> None:
    first, second = make_app(), make_app()
    links = start_game(first, first.test_client(), name="Friday")
    other = second.test_client()

    assert save(other, links, 1, 0).status_code == 303
    page = other.get(links.view_path)
    assert page.status_code == 200
    assert "Friday" in page.get_data(as_text=True)
    assert other.get(f"{links.edit_path}/deals/1").status_code == 200


def test_rate_limits_count_the_requests_of_both_servers(make_app) -> None:
    first, second = make_app(LIMIT_GAMES="2/hour"), make_app(LIMIT_GAMES="2/hour")

    statuses = [
        new_game_on(client, f"Game {n}")
        for n, client in enumerate(
            (first.test_client(), second.test_client(), first.test_client(), second.test_client())
        )
    ]

    assert statuses == [303, 303, 429, 429]


def test_a_watcher_on_one_server_sees_a_deal_saved_on_the_other(make_app) -> None:
    first, second = make_app(), make_app()
    watcher = first.test_client()
    links = start_game(second, second.test_client())
    assert watcher.get(f"{links.view_path}/version").get_json() == {"version": 1}

    assert save(second.test_client(), links, 1, 0).status_code == 303

    assert wait_for(lambda: watcher.get(f"{links.view_path}/version").get_json() == {"version": 2})


def test_a_sheet_made_ahead_on_one_server_is_printed_by_the_other_without_a_layout(
    make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = make_app(SHEETS_AHEAD=True)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "second-server"))
    second = make_app()
    assert first.instance_path != second.instance_path
    table = first.test_client()
    links = start_game(first, table, name="Club night")
    for number in range(1, 5):
        assert save(table, links, number, 0).status_code == 303
    assert sheets_ahead.wait_until_made(WAIT_SECONDS)
    # The second server's processes have measured and made nothing yet.
    sheet_views.made_pdfs.clear()
    pdf.fitted_rows.clear()
    layouts: list[str] = []
    real = pdf.RenderContext.run

    def counted(context: pdf.RenderContext, work, *args: object):  # noqa: ANN001, ANN202
        layouts.append(work.__name__)
        return real(context, work, *args)

    monkeypatch.setattr(pdf.RenderContext, "run", counted)

    printed = second.test_client().get(f"{links.edit_path}/sheet.pdf")

    assert printed.status_code == 200
    assert layouts == []
    assert list((Path(second.instance_path) / kept.FOLDER).glob("*" + kept.PDF_SUFFIX)) == []
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(printed.data)).pages)
    assert "Club night" in text and "Deal 4" in text


def standings(page: str) -> dict[str, list[str]]:
    """The rows of the statistics page's standings: name -> its cells."""
    part = page.split('id="standings"')[1].split("</section>")[0]
    return {
        html.unescape(match.group(1)): re.findall(r'<td class="num">([^<]*)</td>', match.group(2))
        for match in re.finditer(r'<tr>\s*<th scope="row">([^<]+)</th>(.*?)</tr>', part, re.S)
    }


def test_statistics_on_one_server_follow_changes_made_on_the_other(make_app) -> None:
    first, second = make_app(), make_app()
    reader, writer = first.test_client(), second.test_client()
    players = {
        "player_names-0": "Ann",
        "player_names-1": "Bob",
        "player_names-3": "Cy",
        "player_names-4": "Dee",
    }
    links = start_game(second, writer, name="Season", **players)
    table = re.search(r'href="/t/([A-Za-z0-9_-]+)"', writer.get("/").get_data(as_text=True))
    stats = f"/t/{table.group(1)}/stats"
    for number in range(1, 5):  # a finished game: the statistics count it
        assert save(writer, links, number, 0).status_code == 303
    before = standings(reader.get(stats).get_data(as_text=True))
    with second.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))

    renamed = writer.post(f"/t/{table.group(1)}/players/{ann}/name", data={"name": "Annie"})

    assert renamed.status_code in (302, 303)
    renamed_rows = standings(reader.get(stats).get_data(as_text=True))
    assert "Ann" not in renamed_rows
    assert renamed_rows["Annie"] == before["Ann"]

    assert save(writer, links, 1, 1, **{"sides-0-meld_points": "2010"}).status_code == 303

    after = standings(reader.get(stats).get_data(as_text=True))
    # 800 more meld points in deal 1: best deal 4,595 -> 5,395, the game 18,380 -> 19,180.
    assert before["Ann"] == ["1", "1", "100%", "4,595", "4,595", "18,380"]
    assert after["Annie"] == ["1", "1", "100%", "4,795", "5,395", "19,180"]


def test_a_server_on_a_shared_database_will_not_make_a_secret_key_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "postgresql+psycopg://app@db.invalid/scores")

    with pytest.raises(ValueError, match="SCOREKEEPER_SECRET_KEY is not set"):
        create_app()


def test_a_server_on_a_shared_database_keeps_the_key_it_made_before(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    key_file = tmp_path / "instance" / "secret_key"
    key_file.parent.mkdir()
    key_file.write_text("made-before\n")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "postgresql+psycopg://app@db.invalid/scores")

    assert create_app().secret_key == "made-before"


def test_on_sqlite_a_server_still_makes_its_own_key(tmp_path: Path) -> None:
    app = create_app()

    assert len(app.secret_key) == 64


def test_settings_come_from_files_beside_the_plain_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    key = tmp_path / "key.txt"
    key.write_text("from-a-file\n")
    url = tmp_path / "url.txt"
    url.write_text(f"sqlite:///{tmp_path / 'from-file.sqlite3'}\n")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY_FILE", str(key))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL_FILE", str(url))

    app = create_app()

    assert app.secret_key == "from-a-file"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'from-file.sqlite3'}"
    assert app.config["SECRET_KEY_ORIGIN"] == f"in the file {key} (SCOREKEEPER_SECRET_KEY_FILE)"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "SCOREKEEPER_SECRET_KEY_FILE names a file that cannot be read"),
        ("\n", "SCOREKEEPER_SECRET_KEY_FILE names an empty file"),
    ],
)
def test_a_settings_file_that_cannot_be_used_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: str | None, message: str
) -> None:
    key = tmp_path / "key.txt"
    if content is not None:
        key.write_text(content)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY_FILE", str(key))

    with pytest.raises(ValueError, match=message):
        create_app()


def test_a_setting_and_its_file_together_stop_the_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    key = tmp_path / "key.txt"
    key.write_text("one")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "other")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY_FILE", str(key))

    with pytest.raises(
        ValueError, match="Set SCOREKEEPER_SECRET_KEY or SCOREKEEPER_SECRET_KEY_FILE"
    ):
        create_app()


class TransactionPooledFeed(feed_module.GameFeed):
    """As behind a transaction-pooling PgBouncer: LISTEN succeeds, and nothing ever arrives."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.listen_statement = "LISTEN scorekeeper_nobody_sends_here"


@pytest.mark.postgresql
def test_polls_fall_back_to_the_database_when_no_notification_arrives(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(poll_module, "GameFeed", TransactionPooledFeed)
    monkeypatch.setattr(feed_module, "PROBE_SECONDS", 0.5)
    links = start_game(app, client)
    assert client.get(f"{links.view_path}/version").get_json() == {"version": 1}
    feed = app.extensions[poll_module.EXTENSION].feed

    assert feed.unheard.wait(WAIT_SECONDS)  # its probe never came back
    assert not feed.listening.is_set()
    assert client.get(f"{links.view_path}/version").get_json() == {"version": 1}
    assert save(client, links, 1, 0).status_code == 303

    assert wait_for(lambda: client.get(f"{links.view_path}/version").get_json() == {"version": 2})


@pytest.mark.postgresql
def test_a_listener_that_hears_its_probe_counts_as_listening(app: Flask, client) -> None:
    links = start_game(app, client)
    client.get(f"{links.view_path}/version")
    feed = app.extensions[poll_module.EXTENSION].feed

    assert feed.listening.wait(WAIT_SECONDS)
    assert not feed.unheard.is_set()


@pytest.mark.postgresql
def test_the_listener_may_have_a_connection_of_its_own(make_app) -> None:
    app = make_app(FEED_DATABASE_URL="postgresql+psycopg://listener:pw@direct.example:5433/db")

    assert feed_module.conninfo_of(app) == "postgresql://listener:pw@direct.example:5433/db"


PGBOUNCER_CONFIG = """\
[databases]
* = host={host} port={port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {listen}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/users.txt
pool_mode = transaction
default_pool_size = 2
ignore_startup_parameters = extra_float_digits,application_name
"""


@pytest.fixture
def transaction_pooler(tmp_path: Path) -> Iterator[str]:
    """A PgBouncer in transaction-pooling mode in front of the test's server, with fewer server
    connections than clients: the URL of the test's database through it."""
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if ServerDatabase.url is None or not os.access(binary, os.X_OK):
        pytest.skip("needs PostgreSQL and pgbouncer (make test installs it)")
    switch_user: list[str] = []
    if os.geteuid() == 0:  # PgBouncer will not run as root
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root, with no postgres user for pgbouncer to run as")
        switch_user = ["-u", "postgres"]
    ServerDatabase.test_url(tmp_path)  # emptied now: no later reset cuts the pooler's links
    server = ServerDatabase.url
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pgbouncer-"))
    folder.chmod(0o755)
    (folder / "users.txt").write_text(f'"{server.username}" ""\n')
    (folder / "users.txt").chmod(0o644)
    log_path = tmp_path / "pgbouncer.log"
    process: subprocess.Popen[bytes] | None = None
    try:
        for _attempt in range(3):  # a free port may be taken before PgBouncer binds it
            listen = free_port()
            config = folder / "pgbouncer.ini"
            config.write_text(
                PGBOUNCER_CONFIG.format(
                    host=server.host or "127.0.0.1",
                    port=server.port or 5432,
                    listen=listen,
                    folder=folder,
                )
            )
            config.chmod(0o644)
            with log_path.open("ab") as log:
                process = subprocess.Popen(
                    [binary, *switch_user, str(config)], stdout=log, stderr=subprocess.STDOUT
                )
            pooled = server.set(host="127.0.0.1", port=listen)
            answered = wait_for(partial(_answers, process, pooled))
            if process.poll() is None:
                assert answered, "pgbouncer did not answer"
                break
        assert process is not None and process.poll() is None, log_path.read_text()
        yield pooled.render_as_string(hide_password=False)
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait(30)
        shutil.rmtree(folder)


def _answers(process: subprocess.Popen[bytes], url: URL) -> bool:
    """Whether the pooler takes connections; True too once it has stopped (nothing to wait for)."""
    if process.poll() is not None:
        return True
    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        psycopg.connect(conninfo, connect_timeout=2).close()
    except psycopg.OperationalError:
        return False
    return True


@pytest.mark.postgresql
def test_behind_a_transaction_pooling_pgbouncer_pages_saves_and_the_live_poll_work(
    make_app: Callable[..., Flask], transaction_pooler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_module, "PROBE_SECONDS", 1.0)
    app = make_app(SQLALCHEMY_DATABASE_URI=transaction_pooler)
    client = app.test_client()
    links = start_game(app, client)
    assert client.get(f"{links.view_path}/version").get_json() == {"version": 1}
    feed = app.extensions[poll_module.EXTENSION].feed
    assert feed.unheard.wait(WAIT_SECONDS)  # LISTEN went through, and nothing comes back
    assert not feed.listening.is_set()

    # Eight clients at once on two server connections: each query may meet another
    # connection than the one before.
    with ThreadPoolExecutor(8) as clients:
        pages = list(
            clients.map(lambda _n: app.test_client().get(links.view_path).status_code, range(160))
        )

    assert pages == [200] * 160
    assert save(client, links, 1, 0).status_code == 303
    assert wait_for(lambda: client.get(f"{links.view_path}/version").get_json() == {"version": 2})
