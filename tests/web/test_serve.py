"""`make run` (python -m scorekeeper.serve): the phones' address, what it prints, the server.

No request ever goes to an address other than the loopback: the network address is found by
connecting a UDP socket (which sends nothing), and the real server is asked through 127.0.0.1.
"""

from __future__ import annotations

import io
import ipaddress
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import segno
from game_helpers import start_game

from scorekeeper import create_app, serve
from scorekeeper.qr import qr_svg

ROOT = Path(__file__).resolve().parents[2]
LAN = "192.168.1.20"


class _FakeSocket:
    """A UDP socket whose route leads out through `source`, or nowhere (OSError)."""

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.connected_to: tuple[str, int] | None = None

    def __enter__(self) -> _FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, address: tuple[str, int]) -> None:
        if self.source is None:
            raise OSError(101, "Network is unreachable")
        self.connected_to = address

    def getsockname(self) -> tuple[str, int]:
        assert self.source is not None
        return (self.source, 40000)


def test_the_address_is_the_source_of_the_route_out():
    probe = _FakeSocket(LAN)

    assert serve.address_by_route(lambda: probe) == LAN  # type: ignore[arg-type, return-value]
    assert probe.connected_to == serve.ROUTE_PROBE


@pytest.mark.parametrize("source", [None, "127.0.0.1", "169.254.3.4", "0.0.0.0"])
def test_no_route_or_a_local_only_source_gives_no_address(source):
    assert serve.address_by_route(lambda: _FakeSocket(source)) is None  # type: ignore[arg-type, return-value]


def test_without_a_route_the_hostname_decides_then_the_loopback():
    assert serve.network_address(lambda: None, lambda: "10.0.0.7") == "10.0.0.7"
    assert serve.network_address(lambda: LAN, lambda: "10.0.0.7") == LAN
    assert serve.network_address(lambda: None, lambda: None) is None
    assert serve.phone_url(None, 5000) == "http://127.0.0.1:5000"
    assert serve.phone_url(LAN, 8080) == f"http://{LAN}:8080"


def test_this_machines_address_is_one_of_its_own_and_not_the_loopback():
    address = serve.network_address()
    if address is None:
        pytest.skip("this machine has no network address")

    assert not ipaddress.IPv4Address(address).is_loopback
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as own:
        own.bind((address, 0))  # only an address of this machine's interfaces binds


def test_a_configured_public_url_wins_over_the_network_address():
    default = serve.phone_url(LAN, 5000)

    assert serve.public_url({}, default) == f"http://{LAN}:5000"
    assert serve.public_url({"SCOREKEEPER_PUBLIC_URL": " "}, default) == f"http://{LAN}:5000"
    assert (
        serve.public_url({"SCOREKEEPER_PUBLIC_URL": "https://scores.example"}, default)
        == "https://scores.example"
    )
    with pytest.raises(ValueError, match="SCOREKEEPER_PUBLIC_URL"):
        serve.public_url({"SCOREKEEPER_PUBLIC_URL": "scores.example/path"}, default)


def _modules_drawn(text: str) -> list[list[int]]:
    """The QR modules a block drawing shows (two rows a line; a blank half is a dark module)."""
    halves = {"\u2588": (0, 0), "\u2580": (0, 1), "\u2584": (1, 0), " ": (1, 1)}
    rows: list[list[int]] = []
    for line in text.splitlines():
        pairs = [halves[char] for char in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    if all(rows[-1]):  # an odd number of rows: the last line's lower half is the background
        rows.pop()
    return rows


def _without_quiet_zone(rows: list[list[int]]) -> list[list[int]]:
    dark = [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell]
    top, bottom = min(r for r, _ in dark), max(r for r, _ in dark)
    left, right = min(c for _, c in dark), max(c for _, c in dark)
    return [row[left : right + 1] for row in rows[top : bottom + 1]]


def test_the_printed_lines_name_the_address_and_draw_its_qr_code():
    url = f"http://{LAN}:5000"

    printed = serve.announcement(url, LAN)

    lines = printed.splitlines()
    assert lines[0] == (
        f"Open http://{LAN}:5000 on the phones at the table (same network as this machine)."
    )
    assert lines[-1] == "Scan the code with a phone's camera. Ctrl+C stops the server."
    drawing = "\n".join(lines[1:-1])
    expected = [[int(bool(cell)) for cell in row] for row in segno.make(url, micro=False).matrix]
    assert _without_quiet_zone(_modules_drawn(drawing)) == expected
    assert _modules_drawn(drawing)[:4] == [[0] * len(lines[1])] * 4  # a light quiet zone


def test_without_a_network_the_printed_lines_say_only_this_machine_reaches_it():
    printed = serve.announcement("http://127.0.0.1:5000", None)

    assert printed.splitlines()[:2] == [
        "Open http://127.0.0.1:5000 on the phones at the table (same network as this machine).",
        "This machine has no network address: only its own browser can reach the app.",
    ]


def test_make_run_prints_the_address_then_serves_with_it_as_the_public_url(monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL", raising=False)
    monkeypatch.setattr(serve, "network_address", lambda: LAN)
    started: list[list[str]] = []
    monkeypatch.setattr(os, "execv", lambda path, args: started.append(list(args)))
    out = io.StringIO()

    serve.main(["--bind", "0.0.0.0", "--port", "5077", "--workers", "3"], out=out)

    assert out.getvalue().startswith(f"Open http://{LAN}:5077 on the phones")
    assert os.environ["SCOREKEEPER_PUBLIC_URL"] == f"http://{LAN}:5077"
    assert started == [
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            serve.GUNICORN_CONFIG,
            "--workers",
            "3",
            "--bind",
            "0.0.0.0:5077",
            "scorekeeper:create_app()",
        ]
    ]
    assert create_app().config["PUBLIC_URL"] == f"http://{LAN}:5077"


def test_with_a_certificate_make_run_serves_https_at_an_https_address(monkeypatch, tmp_path):
    cert, key = tmp_path / "table.pem", tmp_path / "table-key.pem"
    cert.write_text("certificate")
    key.write_text("key")
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL", raising=False)
    monkeypatch.setenv("SCOREKEEPER_TLS_CERT", str(cert))
    monkeypatch.setenv("SCOREKEEPER_TLS_KEY", str(key))
    monkeypatch.setattr(serve, "network_address", lambda: LAN)
    started: list[list[str]] = []
    monkeypatch.setattr(os, "execv", lambda path, args: started.append(list(args)))
    out = io.StringIO()

    serve.main(["--port", "5443", "--workers", "2"], out=out)

    assert out.getvalue().startswith(f"Open https://{LAN}:5443 on the phones")
    assert os.environ["SCOREKEEPER_PUBLIC_URL"] == f"https://{LAN}:5443"
    assert started == [
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            serve.GUNICORN_CONFIG,
            "--workers",
            "2",
            "--bind",
            "0.0.0.0:5443",
            "--certfile",
            str(cert),
            "--keyfile",
            str(key),
            "scorekeeper:create_app()",
        ]
    ]


@pytest.mark.parametrize(
    ("cert", "key", "message"),
    [
        ("table.pem", "", "SCOREKEEPER_TLS_KEY must be set too"),
        ("", "table-key.pem", "SCOREKEEPER_TLS_CERT must be set too"),
        ("missing.pem", "table-key.pem", "SCOREKEEPER_TLS_CERT names no file"),
    ],
)
def test_a_half_given_certificate_stops_make_run_before_serving(
    monkeypatch, capsys, tmp_path, cert, key, message
):
    (tmp_path / "table.pem").write_text("certificate")
    (tmp_path / "table-key.pem").write_text("key")
    monkeypatch.setenv("SCOREKEEPER_TLS_CERT", str(tmp_path / cert) if cert else "")
    monkeypatch.setenv("SCOREKEEPER_TLS_KEY", str(tmp_path / key) if key else "")
    monkeypatch.setattr(os, "execv", lambda *args: pytest.fail("served anyway"))

    assert serve.main(["--port", "5443"], out=io.StringIO()) == 2
    assert message in capsys.readouterr().err


def test_a_wrong_public_url_stops_make_run_before_serving(monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "ftp://scores.example")
    monkeypatch.setattr(os, "execv", lambda *args: pytest.fail("served anyway"))

    assert serve.main(["--port", "5077"], out=io.StringIO()) == 2
    assert "SCOREKEEPER_PUBLIC_URL must be an address" in capsys.readouterr().err


def test_share_links_and_their_qr_codes_use_the_phones_address(app, client):
    app.config["PUBLIC_URL"] = serve.public_url({}, serve.phone_url(LAN, 5000))
    game = start_game(app, client)

    page = client.get(game.edit_path).get_data(as_text=True)
    qr = client.get(f"/g/{game.view}/qr.svg").get_data()

    assert f'value="http://{LAN}:5000/g/{game.view}"' in page
    assert qr == qr_svg(f"http://{LAN}:5000/g/{game.view}")


def _listening_addresses(port: int) -> set[str]:
    """The IPv4 addresses a TCP socket listens on at `port` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(str(ipaddress.IPv4Address(bytes.fromhex(address)[::-1])))
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
@pytest.mark.no_database  # its server keeps a SQLite file of its own, whatever the run's database
def test_the_server_listens_on_every_interface(tmp_path):
    port = _free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_SECRET_KEY": "serve-test-secret",
    }
    env.pop("SCOREKEEPER_PUBLIC_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.serve", "--port", str(port), "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not _listening_addresses(port):
            assert server.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/favicon.svg") as answer:
            status = answer.status

        assert _listening_addresses(port) == {"0.0.0.0"}
        assert status == 200
    finally:
        os.killpg(server.pid, 15)
        printed = server.communicate(timeout=30)[0].decode()
    assert printed.startswith("Open http://")
    assert f":{port} on the phones at the table" in printed.splitlines()[0]
