"""What the operator reads: /metrics, request ids, log lines, the client's address behind a
proxy, and the version."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from game_helpers import save, start_game
from prometheus_client.parser import text_string_to_metric_families

from bench.bench_load import free_port
from scorekeeper import create_app
from scorekeeper.limits.slots import render_slots
from scorekeeper.operations import logs
from scorekeeper.operations.version import app_version

TOKEN = "metrics-token-for-the-tests"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
ROOT = Path(__file__).resolve().parents[2]


def scrape(client: FlaskClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics: (name, sorted labels) -> value."""
    response = client.get("/metrics", headers=BEARER)
    assert response.status_code == 200, response.status_code
    samples = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def metered(make_app: Callable[..., Flask]) -> Flask:
    return make_app(METRICS_TOKEN=TOKEN)


def blank_sheet(client: FlaskClient) -> int:
    """A sheet never made before (names of its own), so it is rendered."""
    names = "&".join(f"names={secrets.token_hex(4)}" for _ in range(2))
    return client.get(f"/sheets/pagat.pdf?sides=2&{names}").status_code


# --- /metrics -------------------------------------------------------------------------------


def test_metrics_are_off_without_a_token(client: FlaskClient) -> None:
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers=BEARER).status_code == 404


@pytest.mark.parametrize(
    "authorization", [None, "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer "]
)
def test_metrics_need_the_bearer_token(metered: Flask, authorization: str | None) -> None:
    headers = {"Authorization": authorization} if authorization is not None else {}

    response = metered.test_client().get("/metrics", headers=headers)

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "scorekeeper_requests_total" not in response.get_data(as_text=True)


def test_metrics_with_the_token_need_no_session_and_set_no_cookie(metered: Flask) -> None:
    metered.test_client().get("/healthz")  # a request counted before, whatever ran before
    response = metered.test_client().get("/metrics", headers=BEARER)

    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert "Set-Cookie" not in response.headers
    assert "# TYPE scorekeeper_requests_total counter" in response.get_data(as_text=True)


def test_requests_are_counted_and_timed_by_endpoint(metered: Flask) -> None:
    client = metered.test_client()
    before = scrape(client)

    for _ in range(3):
        assert client.get("/rules/").status_code == 200
    assert client.get("/no-such-page").status_code == 404
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert (
        grew("scorekeeper_requests_total", endpoint="handbook.index", method="GET", status="200")
        == 3
    )
    assert grew("scorekeeper_requests_total", endpoint="none", method="GET", status="404") == 1
    assert grew("scorekeeper_request_duration_seconds_count", endpoint="handbook.index") == 3
    assert (
        grew("scorekeeper_request_duration_seconds_bucket", endpoint="handbook.index", le="+Inf")
        == 3
    )


def test_saves_conflicts_and_polls_answered_from_memory_are_counted(metered: Flask) -> None:
    client = metered.test_client()
    links = start_game(metered, client)
    before = scrape(client)

    assert save(client, links, 1, 0).status_code == 303
    # made from a version since replaced, with other numbers: a conflict
    other = {"sides-1-cards_left_points": "205"}
    assert save(client, links, 1, 0, **other).status_code == 409
    poll = f"{links.view_path}/version"
    etag = client.get(poll).headers["ETag"]
    metered.config["POLL_FRESH_SECONDS"] = 60  # memory vouches: answered before Flask
    assert client.get(poll, headers={"If-None-Match": etag}).status_code == 304
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("scorekeeper_deal_saves_total") == 1
    assert grew("scorekeeper_conflicts_total", endpoint="games.deal") == 1
    assert (
        grew("scorekeeper_requests_total", endpoint="games.deal", method="POST", status="409") == 1
    )
    assert (
        grew("scorekeeper_requests_total", endpoint="sharing.version", method="GET", status="304")
        == 1
    )


def test_renders_and_their_refusals_are_counted(make_app: Callable[..., Flask]) -> None:
    app = make_app(
        METRICS_TOKEN=TOKEN,
        LIMIT_SHEETS="1/minute",
        SHEET_RENDERS_AT_ONCE=1,
        SHEET_RENDER_WAIT_SECONDS=0,
    )
    client = app.test_client()
    before = scrape(client)
    with app.app_context():
        slots = render_slots()

    with slots.held():
        assert blank_sheet(client) == 503  # no free render slot
    assert blank_sheet(client) == 200
    assert blank_sheet(client) == 429  # over the client's limit
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("scorekeeper_pdf_renders_total") == 1
    assert grew("scorekeeper_pdf_refusals_total", reason="busy") == 1
    assert grew("scorekeeper_pdf_refusals_total", reason="rate_limited") == 1
    assert grew("scorekeeper_rate_limited_total", limit="sheets") == 1


def test_rate_limit_refusals_are_counted_by_limit(make_app: Callable[..., Flask]) -> None:
    app = make_app(METRICS_TOKEN=TOKEN, LIMIT_GAMES="1/hour")
    client = app.test_client()
    before = scrape(client)
    start_game(app, client)

    refused = client.post("/games/new", data={"variant": "pagat", "table": "2x4", "start": "1"})

    assert refused.status_code == 429
    after = scrape(client)
    assert (
        value(after, "scorekeeper_rate_limited_total", limit="games")
        - value(before, "scorekeeper_rate_limited_total", limit="games")
        == 1
    )


# --- request ids and log lines ----------------------------------------------------------------


def test_every_answer_carries_a_request_id_of_its_own(client: FlaskClient) -> None:
    first = client.get("/rules/").headers["X-Request-ID"]
    second = client.get("/no-such-page").headers["X-Request-ID"]

    assert re.fullmatch(r"[0-9a-f]{32}", first)
    assert re.fullmatch(r"[0-9a-f]{32}", second)
    assert first != second


@pytest.mark.parametrize(
    ("trusted", "offered", "kept"),
    [
        (1, "proxy-7f3a.b:9", True),
        (1, "has space", False),
        (1, "x" * 129, False),
        (1, "<script>", False),
        (0, "proxy-7f3a.b:9", False),  # no trusted proxy: anyone could have sent it
    ],
)
def test_a_sane_request_id_from_a_trusted_proxy_is_kept(
    make_app: Callable[..., Flask], trusted: int, offered: str, kept: bool
) -> None:
    app = make_app(TRUSTED_PROXIES=trusted)

    answered = app.test_client().get("/rules/", headers={"X-Request-ID": offered})

    assert (answered.headers["X-Request-ID"] == offered) is kept
    if not kept:
        assert re.fullmatch(r"[0-9a-f]{32}", answered.headers["X-Request-ID"])


def logging_app(make_app: Callable[..., Flask], **settings: object) -> Flask:
    """An app that writes a log line naming the address of every request."""
    app = make_app(**settings)

    @app.before_request
    def note() -> None:
        app.logger.warning("opened %s", request.path)

    return app


def test_json_log_lines_carry_the_request_id_and_no_token(
    make_app: Callable[..., Flask], capsys: pytest.CaptureFixture[str]
) -> None:
    app = logging_app(make_app, LOG_FORMAT="json")
    client = app.test_client()
    links = start_game(app, client)
    capsys.readouterr()

    answered = client.get(links.view_path)

    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line]
    opened = [line for line in lines if line["message"].startswith("opened")]
    assert opened == [
        {
            "time": opened[0]["time"],
            "level": "WARNING",
            "logger": app.logger.name,
            "message": "opened /g/[token]",
            "request_id": answered.headers["X-Request-ID"],
        }
    ]
    assert links.view not in capsys.readouterr().err


def test_text_log_lines_carry_the_request_id_and_no_token(
    make_app: Callable[..., Flask], capsys: pytest.CaptureFixture[str]
) -> None:
    app = logging_app(make_app)
    client = app.test_client()
    links = start_game(app, client)
    capsys.readouterr()

    answered = client.get(links.edit_path)

    err = capsys.readouterr().err
    assert (
        f"WARNING {app.logger.name} [{answered.headers['X-Request-ID']}] opened /g/[token]" in err
    )
    assert links.edit not in err


def test_the_log_level_leaves_out_the_lines_below_it(
    make_app: Callable[..., Flask], capsys: pytest.CaptureFixture[str]
) -> None:
    app = logging_app(make_app, LOG_LEVEL="ERROR")

    app.test_client().get("/rules/")

    assert "opened /rules/" not in capsys.readouterr().err


def test_gunicorn_access_lines_become_json_with_their_fields() -> None:
    record = logs.logging.LogRecord(
        "gunicorn.access",
        20,
        __file__,
        1,
        '%(h)s "%(r)s" %(s)s',
        (
            {
                "h": "203.0.113.7",
                "r": "GET /g/" + "A" * 43 + " HTTP/1.1",
                "s": "200",
                "m": "GET",
                "U": "/g/" + "A" * 43,
                "L": "0.004",
            },
        ),
        None,
    )

    line = json.loads(logs.JsonFormatter().format(record))

    assert line["message"] == '203.0.113.7 "GET /g/[token] HTTP/1.1" 200'
    assert (line["method"], line["path"], line["status"], line["seconds"]) == (
        "GET",
        "/g/[token]",
        "200",
        "0.004",
    )


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("SCOREKEEPER_LOG_FORMAT", "xml", "SCOREKEEPER_LOG_FORMAT must be text or json"),
        ("SCOREKEEPER_LOG_LEVEL", "LOUD", "SCOREKEEPER_LOG_LEVEL must be one of"),
    ],
)
def test_a_wrong_log_setting_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, setting: str, value: str, message: str
) -> None:
    monkeypatch.setenv(setting, value)

    with pytest.raises(ValueError, match=message):
        create_app()


def test_the_metrics_token_may_come_from_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    monkeypatch.setenv("SCOREKEEPER_METRICS_TOKEN_FILE", str(token_file))

    app = create_app({"TESTING": True})

    assert app.test_client().get("/metrics", headers=BEARER).status_code == 200


# --- the client behind a proxy ----------------------------------------------------------------


def client_seen_by(app: Flask, headers: dict[str, str]) -> tuple[str | None, str]:
    """The client's address and the scheme as the app's views see them."""
    seen: list[tuple[str | None, str]] = []
    app.before_request(lambda: seen.append((request.remote_addr, request.scheme)))
    app.test_client().get("/rules/", headers=headers)
    return seen[0]


def test_behind_trusted_proxies_the_request_sees_the_forwarded_client(
    make_app: Callable[..., Flask],
) -> None:
    headers = {"X-Forwarded-For": "spoofed, 203.0.113.5", "X-Forwarded-Proto": "https"}

    assert client_seen_by(make_app(TRUSTED_PROXIES=1), headers) == ("203.0.113.5", "http")
    assert client_seen_by(make_app(), headers) == ("127.0.0.1", "http")


def test_behind_an_https_proxy_a_form_is_accepted_without_a_referer(
    make_app: Callable[..., Flask],
) -> None:
    """Browsers send no Referer (``Referrer-Policy: no-referrer``): a request must not count
    as secure from the proxy's X-Forwarded-Proto, or Flask-WTF would refuse every form."""
    client = make_app(WTF_CSRF_ENABLED=True, TRUSTED_PROXIES=1).test_client()
    proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"}
    page = client.get("/games/new", headers=proxy).get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)

    made = client.post(
        "/games/new",
        data={"csrf_token": token, "variant": "pagat", "table": "2x4", "start": "1"},
        headers=proxy,
    )

    assert made.status_code == 303


# --- the version ------------------------------------------------------------------------------


def test_the_version_is_the_package_version(runner) -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]

    result = runner.invoke(args=["version"])

    assert result.exit_code == 0
    assert result.output == f"{declared}\n"
    assert app_version() == declared


def test_every_page_shows_the_version_in_its_footer(client: FlaskClient) -> None:
    page = client.get("/rules/").get_data(as_text=True)

    assert re.search(rf"<footer[^>]*>.*Version {re.escape(app_version())}.*</footer>", page, re.S)


# --- several gunicorn workers -----------------------------------------------------------------

WORKERS = 2
MAX_REQUESTS = 400
START_SECONDS = 90.0


class Gunicorn:
    """A real gunicorn with two workers on the test's database, metrics on; its access log
    names the worker (pid) that served each request."""

    def __init__(self, database_url: str, folder: Path) -> None:
        self.port = free_port()
        self.instance = folder / "instance-gunicorn"
        self.access_log = folder / "access.log"
        self.output = (folder / "gunicorn.log").open("ab")
        environment = {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": database_url,
            "SCOREKEEPER_SECRET_KEY": "metrics-across-workers",
            "SCOREKEEPER_INSTANCE_PATH": str(self.instance),
            "SCOREKEEPER_METRICS_TOKEN": TOKEN,
        }
        for name in ("SCOREKEEPER_TEST_DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR"):
            environment.pop(name, None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--chdir",
                str(ROOT),
                "--workers",
                str(WORKERS),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--access-logfile",
                str(self.access_log),
                "--access-logformat",
                "%(p)s %(U)s",
                "scorekeeper:create_app()",
            ],
            env=environment,
            stdout=self.output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def wait_until_serving(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "gunicorn stopped"
            try:
                status, _body = self.get("/metrics", BEARER)
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)
                continue
            assert status == 200
            return
        raise AssertionError("gunicorn did not start")

    def workers_that_served(self, path: str) -> set[str]:
        if not self.access_log.exists():
            return set()
        lines = self.access_log.read_text().splitlines()
        return {line.split(" ", 1)[0] for line in lines if line.endswith(f" {path}")}

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.output.close()


def served_rules(samples) -> float:
    return value(
        samples, "scorekeeper_requests_total", endpoint="handbook.index", method="GET", status="200"
    )


@pytest.mark.slow
def test_the_counts_are_the_servers_whichever_worker_answers_the_scrape(
    app: Flask, tmp_path: Path
) -> None:
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path)
    try:
        server.wait_until_serving()
        sent = 0
        # Clients at once, until both workers have served the page (bounded).
        with ThreadPoolExecutor(4) as clients:
            while len(server.workers_that_served("/rules/")) < WORKERS and sent < MAX_REQUESTS:
                statuses = list(clients.map(lambda _n: server.get("/rules/")[0], range(8)))
                assert statuses == [200] * 8
                sent += 8
        assert len(server.workers_that_served("/rules/")) == WORKERS, "one worker served all"

        scrapes = []
        for _ in range(6):
            status, body = server.get("/metrics", BEARER)
            assert status == 200
            samples = {
                (sample.name, tuple(sorted(sample.labels.items()))): sample.value
                for family in text_string_to_metric_families(body.decode())
                for sample in family.samples
            }
            scrapes.append(served_rules(samples))
    finally:
        server.stop()

    assert scrapes == [sent] * 6
    assert len(server.workers_that_served("/metrics")) >= 1
