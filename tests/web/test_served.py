"""The app under a real gunicorn on 127.0.0.1, as ``make run`` starts it: slow clients do not
starve it, a dead render process is replaced, and a killed worker leaves no process behind.

Each test is bounded in time: every wait has a deadline, every request a timeout.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import serve

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60
PAGE_SECONDS = 2.0
SLOW_CLIENTS = 50
SLOW_LINE_SECONDS = 2.0
RENDER_MODULE = "scorekeeper.printing.render_process"

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc"
)


@dataclass(frozen=True)
class Served:
    master: subprocess.Popen[bytes]
    port: int

    def get(self, path: str, timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        return self.get_with(path, {}, timeout)

    def get_with(
        self, path: str, headers: dict[str, str], timeout: float = 30
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            connection.close()

    def workers(self) -> list[int]:
        return children(self.master.pid)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name: state, parent, ..."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def running(pid: int) -> bool:
    """Alive and not a zombie (dead, waiting to be reaped)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[0] != "Z" and int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def descendants(parent: int) -> set[int]:
    found: set[int] = set()
    waiting = [parent]
    while waiting:
        for child in children(waiting.pop()):
            found.add(child)
            waiting.append(child)
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def wait_for(condition, what: str, seconds: float = 20) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still not so after {seconds} s: {what}"
        time.sleep(0.05)


@contextmanager
def gunicorn(app: Flask, tmp_path: Path, workers: int) -> Iterator[Served]:
    """The app's database under gunicorn, started with ``make run``'s command on 127.0.0.1."""
    port = _free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_SECRET_KEY": "served-test-secret",
        "SCOREKEEPER_PUBLIC_URL": f"http://{HOST}:{port}",
    }
    command = serve.gunicorn_command(HOST, port, workers)
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        master = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    served = Served(master, port)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert master.poll() is None, f"gunicorn stopped:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"gunicorn silent:\n{log.read_text()}"
            try:
                if served.get("/static/favicon.svg", timeout=5)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        wait_for(lambda: len(served.workers()) == workers, "every worker started")
        yield served
    finally:
        master.send_signal(signal.SIGTERM)
        try:
            master.wait(timeout=20)
        except subprocess.TimeoutExpired:
            master.kill()
            master.wait()


class SlowClients:
    """Connections that each send a request's header lines one at a time, a line every 2 s."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets = [socket.create_connection((HOST, port), timeout=5) for _ in range(count)]
        self.lines_sent = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._send, daemon=True)

    def __enter__(self) -> SlowClients:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)
        for sock in self.sockets:
            sock.close()

    def _send(self) -> None:
        line = b"GET / HTTP/1.1\r\n"
        while not self._stop.is_set():
            for sock in self.sockets:
                with suppress(OSError):
                    sock.sendall(line)
            self.lines_sent += 1
            line = f"X-Slow-{self.lines_sent}: still typing\r\n".encode()
            self._stop.wait(SLOW_LINE_SECONDS)


def timed_page(served: Served, path: str) -> tuple[float, int]:
    """How long the page took (PAGE_SECONDS at least when it did not answer in time)."""
    started = time.monotonic()
    try:
        status = served.get(path, timeout=PAGE_SECONDS)[0]
    except TimeoutError:
        return PAGE_SECONDS, 0
    return time.monotonic() - started, status


def _pages_beside_slow_clients(served: Served) -> list[tuple[float, int]]:
    with SlowClients(served.port, SLOW_CLIENTS) as slow:
        wait_for(lambda: slow.lines_sent >= 2, "every slow client sent two lines")
        return [timed_page(served, path) for path in ("/", "/rules/", "/", "/sheets/")]


def test_fifty_slow_clients_leave_the_pages_answering_within_two_seconds(app, tmp_path):
    with gunicorn(app, tmp_path, workers=serve.DEFAULT_WORKERS) as served:
        waits = _pages_beside_slow_clients(served)

    print("pages with 50 slow clients open: " + ", ".join(f"{w:.3f} s" for w, _ in waits))
    assert max(seconds for seconds, _ in waits) < PAGE_SECONDS
    assert [status for _, status in waits] == [200, 200, 200, 200]


def _render_process(worker: int) -> int:
    found = [pid for pid in children(worker) if RENDER_MODULE in command_line(pid)]
    assert len(found) == 1, f"render processes of worker {worker}: {found}"
    return found[0]


def sheet(served: Served, *names: str) -> tuple[int, dict[str, str], bytes]:
    query = "&".join(f"names={name}" for name in names)
    return served.get(f"/sheets/pagat.pdf?sides=2&{query}")


def test_a_killed_render_process_is_replaced_and_a_killed_worker_leaves_no_process(app, tmp_path):
    with gunicorn(app, tmp_path, workers=1) as served:
        (worker,) = served.workers()
        assert sheet(served, "Ann", "Bob")[0] == 200
        renderer = _render_process(worker)

        os.kill(renderer, signal.SIGKILL)
        wait_for(lambda: not running(renderer), "the render process died")
        statuses = []
        status, headers, body = sheet(served, "Cy", "Di")
        statuses.append(status)
        assert (status, headers.get("Retry-After")) == (503, "3")
        assert b"The score sheet could not be made this time." in body
        for names in (("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")):
            status, _, body = sheet(served, *names)
            statuses.append(status)
            assert status == 200 and body.startswith(b"%PDF-")
        assert _render_process(worker) != renderer
        assert statuses.count(500) == 0

        left = descendants(worker)
        assert left == {_render_process(worker)}  # no resource tracker, nothing else
        os.kill(worker, signal.SIGKILL)
        wait_for(lambda: not any(running(pid) for pid in left), "the worker's processes gone")

        wait_for(lambda: len(served.workers()) == 1, "a new worker")
        assert sheet(served, "Ivy", "Jo")[0] == 200


BUSY_PARENT = """
import sys
from scorekeeper.printing.render_process import RenderProcess

renderer = RenderProcess(0)
print(renderer.pid, flush=True)
renderer.call(exec, "import pathlib, time; pathlib.Path(sys.argv[1]).touch(); time.sleep(600)")
"""


def test_a_render_process_busy_when_its_worker_dies_leaves_too(tmp_path):
    busy = tmp_path / "busy"
    parent = subprocess.Popen(
        [sys.executable, "-c", BUSY_PARENT.replace("sys.argv[1]", repr(str(busy)))],
        cwd=ROOT,
        stdout=subprocess.PIPE,
    )
    renderer = 0
    try:
        assert parent.stdout is not None
        renderer = int(parent.stdout.readline())
        wait_for(busy.exists, "the render process at work")

        parent.kill()
        parent.wait()

        wait_for(lambda: not running(renderer), "the busy render process gone", seconds=10)
    finally:
        parent.kill()
        parent.communicate()
        if renderer and running(renderer):
            os.kill(renderer, signal.SIGKILL)
