"""The deployment under test, on this machine's loopback only: app containers of the image
(podman, host network, each gunicorn on a port of 127.0.0.1), the host's PostgreSQL, and Caddy
from Debian's package in front with its own authority (``tls internal``) for ``scores.test``.

Every wait here waits for a state (a status, a file, a log line) within a deadline, never for
a fixed time.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlencode

import urllib3

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "deploy" / "Caddyfile"
HOST_NAME = "scores.test"
PODMAN = ("podman", "--runtime", "runc")
LIMITS = ("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096")
CONTAINER_LABEL = "scorekeeper-deploy-test"
CSRF_FIELD = re.compile(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"')
VERSION_FIELD = re.compile(r'<input[^>]*name="version"[^>]*value="(\d+)"')

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(what: str, check: Callable[[], T | None], deadline_seconds: float) -> T:
    """Polls ``check`` until it gives something other than None or False; fails with ``what``
    when the deadline passes first."""
    deadline = time.monotonic() + deadline_seconds
    while True:
        result = check()
        if result is not None and result is not False:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {deadline_seconds:.0f} s: {what}")
        time.sleep(0.2)


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=check, capture_output=True, text=True)


def status_of(url: str) -> int | None:
    """The HTTP status of a GET to a server of this machine; None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return None


@dataclass
class AppContainer:
    """One container of the image, its gunicorn on 127.0.0.1:port (the host's network, so that
    it reaches the host's PostgreSQL on the loopback, as it would reach the `db` service)."""

    name: str
    port: int
    environment: dict[str, str]
    image: str

    @property
    def local_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        settings = [f"--env={key}={value}" for key, value in self.environment.items()]
        run(
            *PODMAN, "run", "--detach", "--name", self.name, "--label", CONTAINER_LABEL,
            "--network", "host", *LIMITS, *settings,
            f"--env=PORT={self.port}",
            f"--env=GUNICORN_CMD_ARGS=--bind 127.0.0.1:{self.port}",
            self.image,
        )  # fmt: skip

    def restart(self) -> None:
        run(*PODMAN, "start", self.name)

    def kill(self) -> None:
        run(*PODMAN, "kill", "--signal", "KILL", self.name)

    def logs(self) -> str:
        result = run(*PODMAN, "logs", self.name, check=False)
        return result.stdout + result.stderr

    def running(self) -> bool:
        state = run(*PODMAN, "inspect", "--format", "{{.State.Running}}", self.name, check=False)
        return state.stdout.strip() == "true"

    def wait_ready(self, deadline_seconds: float = 180) -> None:
        def ready() -> bool:
            if not self.running():
                raise AssertionError(f"{self.name} stopped:\n{self.logs()[-3000:]}")
            return status_of(self.local_url + "/readyz") == 200

        wait_for(f"{self.name} ready", ready, deadline_seconds)

    def remove(self) -> None:
        run(*PODMAN, "rm", "--force", "--time", "2", self.name, check=False)


def remove_left_containers() -> None:
    """Containers an interrupted run of these tests left behind (by their label)."""
    listed = run(*PODMAN, "ps", "--all", "--quiet", "--filter", f"label={CONTAINER_LABEL}")
    for container in listed.stdout.split():
        run(*PODMAN, "rm", "--force", container, check=False)


@dataclass
class Caddy:
    """Debian's Caddy running deploy/Caddyfile, as the compose file's `caddy` service does."""

    home: Path
    https_port: int
    upstreams: list[str]
    process: subprocess.Popen[bytes] | None = None
    environment: dict[str, str] = field(default_factory=dict)

    @property
    def authority(self) -> str:
        return f"{HOST_NAME}:{self.https_port}"

    @property
    def url(self) -> str:
        return f"https://{self.authority}"

    @property
    def root_certificate(self) -> Path:
        return self.home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    @property
    def log(self) -> Path:
        return self.home / "caddy.log"

    def start(self) -> None:
        self.environment = {
            "SCOREKEEPER_DOMAIN": self.authority,
            "SCOREKEEPER_TLS": "internal",
            "SCOREKEEPER_UPSTREAMS": " ".join(self.upstreams),
            "CADDY_BIND": "127.0.0.1",
            "CADDY_HTTP_PORT": str(free_port()),
            "CADDY_HTTPS_PORT": str(self.https_port),
            "CADDY_ADMIN": "off",
        }
        environ = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_DATA_HOME": str(self.home / "data"),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            **self.environment,
        }
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                ["caddy", "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                env=environ,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def wait_serving(self, deadline_seconds: float = 60) -> None:
        def serving() -> bool:
            assert self.process is not None and self.process.poll() is None, self.log.read_text()
            if not self.root_certificate.exists():
                return False
            try:
                return Phone(self).get("/healthz").status == 200
            except (urllib3.exceptions.HTTPError, OSError):
                return False

        wait_for("Caddy serving https for " + self.authority, serving, deadline_seconds)


class Phone:
    """A client of the app through Caddy over https, as a phone is: it checks the certificate
    against Caddy's authority, sends scores.test by SNI and in the Host header, keeps its
    cookies, and follows no redirect (the tests look at them)."""

    def __init__(self, caddy: Caddy) -> None:
        self.authority = caddy.authority
        self.pool = urllib3.HTTPSConnectionPool(
            "127.0.0.1",
            caddy.https_port,
            server_hostname=HOST_NAME,
            assert_hostname=HOST_NAME,
            ca_certs=str(caddy.root_certificate),
            maxsize=2,
            timeout=urllib3.Timeout(connect=5, read=30),
            retries=False,
        )
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        form: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        decode: bool = True,
    ) -> urllib3.BaseHTTPResponse:
        """``decode=False``: the body as sent, compressed or not."""
        sent = {"Host": self.authority, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        response = self.pool.request(
            method,
            path,
            body=body,
            headers=sent,
            redirect=False,
            retries=False,
            decode_content=decode,
        )
        for cookie in response.headers.getlist("Set-Cookie"):
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response

    def get(
        self, path: str, headers: Mapping[str, str] | None = None, decode: bool = True
    ) -> urllib3.BaseHTTPResponse:
        return self.request("GET", path, headers=headers, decode=decode)

    def form_fields(self, path: str) -> tuple[str, str | None]:
        """A form's CSRF token, and its version field when it has one."""
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        text = page.data.decode()
        token = CSRF_FIELD.search(text)
        assert token is not None, path
        version = VERSION_FIELD.search(text)
        return token.group(1), version.group(1) if version else None

    def start_game(self, name: str) -> str:
        """A pagat game for two teams; its edit token."""
        token, _ = self.form_fields("/games/new")
        made = self.request(
            "POST",
            "/games/new",
            {
                "csrf_token": token,
                "variant": "pagat",
                "table": "2x4",
                "name": name,
                "start": "1",
                "side_names-0": "Us",
                "side_names-1": "Them",
            },
        )
        assert made.status == 303, (made.status, made.data[:300])
        found = re.search(r"/g/([^/]+)/deals/1$", made.headers["Location"])
        assert found, made.headers["Location"]
        return found.group(1)

    def save_deal(self, game: str, number: int, deal: Mapping[str, str]) -> int:
        """Posts a deal through the deal form; the answer's status (303: saved)."""
        path = f"/g/{game}/deals/{number}"
        token, version = self.form_fields(path)
        assert version is not None, path
        form = {**deal, "csrf_token": token, "version": version}
        return self.request("POST", path, form).status

    def stored_deals(self, game: str) -> list[dict[str, object]]:
        """The game's deals as the server has them (its JSON API)."""
        answer = self.get(f"/api/v1/games/{game}")
        assert answer.status == 200, answer.status
        return json.loads(answer.data)["games"][0]["deals"]  # type: ignore[no-any-return]
