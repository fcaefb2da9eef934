"""The image deployed as compose.yaml deploys it, on this machine: two app containers on one
PostgreSQL database behind Caddy over https (`make test-deploy`; deploy/tests/stack.py says
how). Each test adds what it measured to the figures printed at the end of the run."""

from __future__ import annotations

import gzip
import hashlib
import re
import subprocess
import sys
import threading
import time
import tomllib
from collections import Counter
from pathlib import Path

import psycopg
import urllib3
import yaml
from conftest import POSTGRES, Deployment, app_environment, fresh_database
from playwright.sync_api import Browser, expect
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT, form_values
from stack import LIMITS, PODMAN, ROOT, AppContainer, Phone, run, status_of, wait_for

from scorekeeper.capabilities import digest

PHONE = {"width": 390, "height": 844}
DEAL = form_values(PAGAT_OUT, PAGAT_CAUGHT)
DEALS_PER_GAME = 4  # pagat's
# A pagat deal 1 for two teams, as the browser tests type it; the rules core scores it 4595.
BROWSER_DEAL = {
    "sides-0-meld_points": "1210",
    "sides-0-clean_books": "2",
    "sides-0-dirty_books": "2",
    "sides-0-wild_books": "1",
    "sides-0-red_threes_down": "2",
    "sides-0-cards_left_points": "15",
    "sides-1-meld_points": "600",
    "sides-1-clean_books": "1",
    "sides-1-dirty_books": "1",
    "sides-1-red_threes_down": "1",
    "sides-1-red_threes_held": "1",
    "sides-1-cards_left_points": "120",
}
BROWSER_TOTAL = "4595"
# Only the test's: where each gunicorn listens on the host's loopback.
TEST_ONLY_SETTINGS = {"PORT", "GUNICORN_CMD_ARGS"}


def compose_config() -> dict[str, object]:
    result = subprocess.run(
        ["podman-compose", "-f", str(ROOT / "compose.yaml"), "config"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "POSTGRES_PASSWORD": "password",
            "SCOREKEEPER_SECRET_KEY": "key",
            "SCOREKEEPER_DOMAIN": "scores.example",
        },
    )
    return yaml.safe_load(result.stdout)  # type: ignore[no-any-return]


def test_the_compose_file_runs_what_this_test_runs(deployment: Deployment) -> None:
    services = compose_config()["services"]
    assert isinstance(services, dict)

    assert set(services) == {"app-1", "app-2", "db", "caddy"}
    apps = [services["app-1"], services["app-2"]]
    for app in apps:
        assert app["build"]["dockerfile"] == "Containerfile"
        assert "command" not in app and "entrypoint" not in app  # the image's own start
        assert set(app["environment"]) == set(deployment.apps[0].environment)
        assert app["environment"]["SCOREKEEPER_PUBLIC_URL"] == "https://scores.example"
        assert app["environment"]["SCOREKEEPER_DATABASE_URL"].endswith("@db:5432/scorekeeper")
    assert set(app_environment("db", "https://x")) == set(deployment.apps[0].environment)
    caddy = services["caddy"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert caddy["environment"]["SCOREKEEPER_UPSTREAMS"] == "app-1:8000 app-2:8000"
    assert set(caddy["environment"]) <= set(deployment.caddy.environment)
    assert set(deployment.caddy.environment) - set(caddy["environment"]) == {
        "CADDY_BIND",
        "CADDY_HTTP_PORT",
        "CADDY_HTTPS_PORT",
        "CADDY_ADMIN",
    }
    db = services["db"]
    assert db["image"].startswith("docker.io/library/postgres:")
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in db["volumes"])
    assert "postgres-data" in compose_config()["volumes"]


def test_the_containers_applied_the_migrations_once_run_as_no_root_and_know_their_version(
    deployment: Deployment,
) -> None:
    logs = [app.logs() for app in deployment.apps]
    first_migration = [log.count("Running upgrade  -> 0001") for log in logs]

    assert sorted(first_migration) == [0, 1]
    for app in deployment.apps:
        user = run("podman", "--runtime", "runc", "exec", app.name, "id", "-u").stdout.strip()
        assert user != "0"
        health = run("podman", "--runtime", "runc", "healthcheck", "run", app.name, check=False)
        assert health.returncode == 0, health.stdout + health.stderr
        shown = run("podman", "--runtime", "runc", "exec", app.name, "flask", "--app",
                    "scorekeeper", "version").stdout.strip()  # fmt: skip
        assert shown == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_static_files_come_compressed_and_cached_far_ahead_under_hashed_names(
    deployment: Deployment, figures: list[str]
) -> None:
    phone = Phone(deployment.caddy)
    page = phone.get("/").data.decode()
    found = re.search(r'href="(/static/css/app\.([0-9a-f]{12})\.css)"', page)
    assert found, "no hashed style sheet in the page"
    original = (ROOT / "static" / "css" / "app.css").read_bytes()
    assert found.group(2) == hashlib.sha256(original).hexdigest()[:12]

    answer = phone.get(found.group(1), headers={"Accept-Encoding": "gzip"}, decode=False)

    assert answer.status == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    assert "immutable" in answer.headers["Cache-Control"]
    assert "max-age=31536000" in answer.headers["Cache-Control"]
    compressed = len(answer.data)
    assert gzip.decompress(answer.data) == original
    figures.append(f"app.css through Caddy: {len(original)} bytes, {compressed} gzipped")


def test_a_deal_saved_offline_on_a_phone_reaches_the_server_and_another_phone(
    deployment: Deployment, browser: Browser, figures: list[str]
) -> None:
    server = deployment.caddy.url
    phone = browser.new_context(viewport=PHONE, locale="en-US", service_workers="allow")
    page = phone.new_page()
    page.goto(server + "/games/new")
    page.get_by_label("Team 1", exact=True).fill("Ann & Bob")
    page.get_by_label("Team 2", exact=True).fill("Cy & Di")
    page.get_by_role("button", name="Start game").last.click()
    page.wait_for_url(re.compile(r"/g/[^/]+/deals/1$"))
    game = page.url.rsplit("/deals/", 1)[0]
    token = game.rsplit("/g/", 1)[1]
    page.goto(game)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    expect(page.locator("html")).to_have_attribute("data-pages-kept", re.compile(r"\d"))
    checker = Phone(deployment.caddy)

    phone.set_offline(True)
    page.reload()
    expect(page.locator(".offline-status")).to_contain_text("No network")
    page.get_by_role("link", name="Enter deal 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")
    page.locator("input[name=went_out][value='0']").check()
    for name, value in BROWSER_DEAL.items():
        page.locator(f"input[name='{name}']").fill(value)
    page.locator("button[name=save]").click()
    page.wait_for_url(game + "#kept-on-this-phone")
    expect(page.locator(".offline-status")).to_contain_text("not sent yet")
    assert checker.stored_deals(token) == []

    back = time.monotonic()
    phone.set_offline(False)
    expect(page.locator(".offline-status")).not_to_contain_text("not sent yet")
    page.wait_for_url(game)
    figures.append(f"deal kept offline sent {time.monotonic() - back:.1f} s after the network")

    deals = checker.stored_deals(token)
    assert len(deals) == 1
    assert deals[0]["sides"][0]["meld_points"] == 1210  # type: ignore[index]
    other = browser.new_context(viewport=PHONE, locale="en-US")
    other_page = other.new_page()
    other_page.goto(game)
    expect(other_page.locator("main")).to_contain_text(BROWSER_TOTAL)
    expect(other_page.locator("main")).to_contain_text("Ann & Bob")
    other.close()
    phone.close()


class SaveStream:
    """Phones saving deals one after another through Caddy, each into games of its own; every
    save the server acknowledged (303) is recorded with its game and deal."""

    def __init__(self, deployment: Deployment, phones: int) -> None:
        self.deployment = deployment
        self.phones = phones
        self.acknowledged: list[tuple[str, int]] = []
        self.before_kill = 0
        self.after_kill = 0.0
        self.refused: Counter[int] = Counter()
        self.failed = 0
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self._phone, args=(n,)) for n in range(phones)]

    def count(self) -> int:
        with self.lock:
            return len(self.acknowledged)

    def _phone(self, index: int) -> None:
        phone = Phone(self.deployment.caddy)
        game: str | None = None
        number = 1
        try:
            while not self.stop.is_set():
                try:
                    if game is None:
                        game = phone.start_game(f"Stream {index}")
                        number = 1
                    status = phone.save_deal(game, number, DEAL)
                except (AssertionError, OSError, urllib3.exceptions.HTTPError):
                    # A server gone in the middle of a request: not acknowledged, tried again.
                    with self.lock:
                        self.failed += 1
                    continue
                if status != 303:
                    with self.lock:
                        self.refused[status] += 1
                    continue
                with self.lock:
                    self.acknowledged.append((game, number))
                number += 1
                if number > DEALS_PER_GAME:
                    game = None
        except BaseException as error:  # reported by the test
            self.errors.append(error)

    def __enter__(self) -> SaveStream:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=120)


def stream_through_a_kill(deployment: Deployment, victim: AppContainer) -> SaveStream:
    """Three phones save; after 20 acknowledged saves ``victim`` is killed (SIGKILL), and the
    stream goes on until 30 more are acknowledged."""
    with SaveStream(deployment, phones=3) as stream:
        wait_for("20 saves before the kill", lambda: stream.count() >= 20, 120)
        stream.before_kill = stream.count()
        killed = time.monotonic()
        victim.kill()
        assert not victim.running()
        wait_for("30 saves after the kill", lambda: stream.count() >= stream.before_kill + 30, 120)
        stream.after_kill = time.monotonic() - killed
    return stream


def test_no_acknowledged_save_is_lost_when_a_container_is_killed(
    deployment: Deployment, figures: list[str]
) -> None:
    victim, survivor = deployment.apps
    try:
        stream = stream_through_a_kill(deployment, victim)
    finally:
        if not victim.running():
            restarted = time.monotonic()
            victim.restart()
            victim.wait_ready()
            figures.append(
                f"the killed container ready again {time.monotonic() - restarted:.1f} s after"
                " its start"
            )
    before, after_kill = stream.before_kill, stream.after_kill

    assert not stream.errors, stream.errors
    assert status_of(survivor.local_url + "/readyz") == 200

    checker = Phone(deployment.caddy)
    stored: set[tuple[str, int]] = set()
    for game in {game for game, _ in stream.acknowledged}:
        for deal in checker.stored_deals(game):
            assert deal["sides"][0]["meld_points"] == PAGAT_OUT.meld_points  # type: ignore[index]
            stored.add((game, int(deal["number"])))  # type: ignore[arg-type]
    lost = set(stream.acknowledged) - stored
    assert lost == set()
    figures.append(
        f"kill -9 of one of two containers during 3 phones' saves: {len(stream.acknowledged)}"
        f" acknowledged ({before} before the kill, 30 more within {after_kill:.1f} s),"
        f" {stream.failed} failed in flight, refused {dict(stream.refused)}, {len(lost)} lost"
    )


DEAL_ROWS = """
    SELECT game.edit_token_hash, deal.number, deal.version, deal_side.position,
           deal_side.meld_points, deal_side.cards_left_points, deal_side.went_out
    FROM deal_side JOIN deal ON deal.id = deal_side.deal_id JOIN game ON game.id = deal.game_id
"""


def deal_rows(database: str) -> set[tuple[object, ...]]:
    with psycopg.connect(f"{POSTGRES}/{database}", connect_timeout=10) as connection:
        return set(connection.execute(DEAL_ROWS).fetchall())


def game_tokens(database: str) -> set[str]:
    with psycopg.connect(f"{POSTGRES}/{database}", connect_timeout=10) as connection:
        return {row[0] for row in connection.execute("SELECT edit_token_hash FROM game")}


def test_a_backup_taken_during_saves_restores_every_save_acknowledged_before_it(
    deployment: Deployment, tmp_path: Path, figures: list[str]
) -> None:
    app = deployment.apps[0]
    inside = "/var/lib/scorekeeper/during-saves.backup"
    with SaveStream(deployment, phones=2) as stream:
        wait_for("10 saves before the backup", lambda: stream.count() >= 10, 120)
        with stream.lock:
            before_backup = list(stream.acknowledged)
        started = time.monotonic()
        made = run(*PODMAN, "exec", app.name, "flask", "--app", "scorekeeper", "backup",
                   "create", inside, check=False)  # fmt: skip
        took = time.monotonic() - started
        during = stream.count() - len(before_backup)
        wait_for(
            "5 saves after the backup",
            lambda: stream.count() >= len(before_backup) + during + 5,
            120,
        )
    assert made.returncode == 0, made.stdout + made.stderr
    assert not stream.errors, stream.errors
    backup = tmp_path / "during-saves.backup"
    run(*PODMAN, "cp", f"{app.name}:{inside}", str(backup))
    backup.chmod(0o644)
    tmp_path.chmod(0o755)  # read by the image's user in the container that restores

    with fresh_database("restored") as restored:
        server = app.environment["SCOREKEEPER_DATABASE_URL"].rsplit("/", 1)[0]
        restore = run(
            *PODMAN, "run", "--rm", "--network", "host", *LIMITS,
            "--volume", f"{tmp_path}:/backup:ro",
            f"--env=SCOREKEEPER_DATABASE_URL={server}/{restored}",
            f"--env=SCOREKEEPER_SECRET_KEY={app.environment['SCOREKEEPER_SECRET_KEY']}",
            app.image, "flask", "--app", "scorekeeper", "backup", "restore",
            "/backup/during-saves.backup",
            check=False,
        )  # fmt: skip
        assert restore.returncode == 0, restore.stdout + restore.stderr
        restored_rows = deal_rows(restored)
        restored_games = game_tokens(restored)
    original_rows = deal_rows(deployment.database)
    original_games = game_tokens(deployment.database)

    acknowledged = {(digest(game), number) for game, number in before_backup}
    assert acknowledged <= {(row[0], row[1]) for row in restored_rows}
    assert {digest(game) for game, _ in before_backup} <= restored_games
    # The same games and deals as the live database had: nothing made up, nothing changed.
    assert restored_games <= original_games
    assert restored_rows <= original_rows
    figures.append(
        f"backup during saves: {took:.1f} s, {backup.stat().st_size} bytes; restored"
        f" {len(restored_games)} games and {len({row[:2] for row in restored_rows})} deals, all"
        f" {len(before_backup)} acknowledged before it among them; {during} saves acknowledged"
        " while it ran"
    )


def postgres_cluster(action: str) -> None:
    version = sorted(path.name for path in Path("/etc/postgresql").iterdir())[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action], check=True
    )


def test_readyz_says_503_while_postgresql_is_stopped_and_200_once_it_is_back(
    deployment: Deployment, figures: list[str]
) -> None:
    phone = Phone(deployment.caddy)
    assert phone.get("/readyz").status == 200
    for app in deployment.apps:
        assert status_of(app.local_url + "/readyz") == 200

    stopped = time.monotonic()
    postgres_cluster("stop")
    try:
        for app in deployment.apps:
            wait_for(
                f"{app.name} not ready",
                lambda app=app: status_of(app.local_url + "/readyz") == 503,
                30,
            )
            assert status_of(app.local_url + "/healthz") == 200
        not_ready = time.monotonic() - stopped
    finally:
        postgres_cluster("start")
    started = time.monotonic()
    for app in deployment.apps:
        wait_for(
            f"{app.name} ready", lambda app=app: status_of(app.local_url + "/readyz") == 200, 60
        )
    wait_for("ready through Caddy", lambda: phone.get("/readyz").status == 200, 60)
    figures.append(
        f"/readyz: 503 on both servers {not_ready:.1f} s after PostgreSQL stopped,"
        f" 200 through Caddy {time.monotonic() - started:.1f} s after it started"
    )
