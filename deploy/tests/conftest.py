"""Fixtures of the deployment test (`make test-deploy`): one deployment for the whole run, as
deploy/tests/stack.py describes it, torn down at the end whatever happened; and the figures
each test measured, printed at the end of the run."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from stack import ROOT, AppContainer, Caddy, free_port, remove_left_containers

sys.path.insert(0, str(ROOT / "tests"))

IMAGE = os.environ.get("SCOREKEEPER_DEPLOY_IMAGE", "localhost/scorekeeper:deploy-test")
POSTGRES = os.environ.get("SCOREKEEPER_DEPLOY_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
CHROMIUM = "/usr/bin/chromium"
FIGURES: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if FIGURES:
        terminalreporter.section("deployment figures")
        for line in FIGURES:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def figures() -> list[str]:
    return FIGURES


def postgres_admin() -> psycopg.Connection:
    return psycopg.connect(POSTGRES + "/postgres", autocommit=True, connect_timeout=10)


@contextmanager
def fresh_database(purpose: str) -> Iterator[str]:
    """An empty database of this run on the host's PostgreSQL, dropped at the end."""
    name = f"scorekeeper_deploy_{purpose}_{os.getpid()}_{secrets.token_hex(3)}"
    with postgres_admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with postgres_admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def database() -> Iterator[str]:
    with fresh_database("live") as name:
        yield name


@dataclass
class Deployment:
    apps: list[AppContainer]
    caddy: Caddy
    database: str
    nss_home: Path


def app_environment(database: str, public_url: str) -> dict[str, str]:
    """What compose.yaml gives each app server, for this machine."""
    return {
        "SCOREKEEPER_DATABASE_URL": f"postgresql+psycopg://postgres@127.0.0.1:5432/{database}",
        "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32),
        "SCOREKEEPER_PUBLIC_URL": public_url,
        "SCOREKEEPER_SECURE_COOKIES": "1",
        "SCOREKEEPER_TRUSTED_PROXIES": "1",
    }


@pytest.fixture(scope="session")
def deployment(
    database: str, tmp_path_factory: pytest.TempPathFactory, figures: list[str]
) -> Iterator[Deployment]:
    remove_left_containers()
    home = tmp_path_factory.mktemp("caddy")
    https_port = free_port()
    tag = f"{os.getpid()}-{secrets.token_hex(2)}"
    ports = [free_port() for _ in range(2)]
    caddy = Caddy(home, https_port, [f"127.0.0.1:{port}" for port in ports])
    environment = app_environment(database, caddy.url)
    apps = [
        AppContainer(f"scorekeeper-deploy-app-{n}-{tag}", port, environment, IMAGE)
        for n, port in enumerate(ports, start=1)
    ]
    try:
        started = time.monotonic()
        for app in apps:  # at once: both apply the migrations at start, under the lock
            app.start()
        for app in apps:
            app.wait_ready()
        figures.append(
            f"two app containers ready (migrations included): {time.monotonic() - started:.1f} s"
        )
        caddy.start()
        caddy.wait_serving()
        nss_home = tmp_path_factory.mktemp("browser-home")
        trust_in_nss(caddy.root_certificate, nss_home)
        yield Deployment(apps, caddy, database, nss_home)
    finally:
        caddy.stop()
        for app in apps:
            app.remove()


def trust_in_nss(root_certificate: Path, home: Path) -> None:
    """Chromium on Linux trusts the authorities of the NSS database in $HOME/.pki/nssdb."""
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    database = f"sql:{nssdb}"
    subprocess.run(["certutil", "-N", "-d", database, "--empty-password"], check=True)
    subprocess.run(
        ["certutil", "-A", "-d", database, "-n", "Caddy local authority", "-t", "C,,",
         "-i", str(root_certificate)],
        check=True,
    )  # fmt: skip


@pytest.fixture(scope="session")
def browser(deployment: Deployment) -> Iterator[object]:
    """Debian's Chromium that trusts Caddy's authority (through NSS, not by ignoring errors)
    and reaches scores.test at 127.0.0.1."""
    from playwright.sync_api import expect, sync_playwright

    # Each container and Caddy share this machine with the browser: states may take longer.
    expect.set_options(timeout=15_000)

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    assert executable, "Chromium is not installed"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            env={**os.environ, "HOME": str(deployment.nss_home)},
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-quic",
                f"--host-resolver-rules=MAP {deployment.caddy.authority.split(':')[0]} 127.0.0.1",
            ],
        )
        yield browser
        browser.close()
