"""Serve the app to the phones at the table: ``python -m scorekeeper.serve`` (``make run``).

gunicorn (its settings in ``scorekeeper.gunicorn_conf``: threads, so that slow clients cannot
hold it) listens on every interface, so that a phone on the same network reaches the app at
this machine's network address; that address is printed, with a QR code to scan, and becomes
the public address that share links and their QR codes are built from (unless
SCOREKEEPER_PUBLIC_URL says otherwise, for example a name behind a proxy).

The network address is the one the system would send from: connecting a UDP socket picks the
route and the source address without sending a single packet.

With a certificate the phones trust (SCOREKEEPER_TLS_CERT and SCOREKEEPER_TLS_KEY, PEM files),
gunicorn serves https and the printed address is an https one: browsers run the service worker,
which opens a game's pages with no network, only on https pages (or on the machine itself).
"""

from __future__ import annotations

import argparse
import io
import ipaddress
import os
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

import segno

from .public_url import PUBLIC_URL_SETTING, parse_public_url

ROUTE_PROBE = ("198.51.100.1", 9)
"""Any outside address does (this one is reserved for documentation): nothing is sent to it."""
LOOPBACK = "127.0.0.1"
DEFAULT_BIND = "0.0.0.0"
DEFAULT_PORT = 5000
DEFAULT_WORKERS = 4
APP = "scorekeeper:create_app()"
GUNICORN_CONFIG = "python:scorekeeper.gunicorn_conf"
"""Worker class, threads and connections: the same for ``make run`` and production."""
TLS_CERT_SETTING = "SCOREKEEPER_TLS_CERT"
TLS_KEY_SETTING = "SCOREKEEPER_TLS_KEY"

SocketFactory = Callable[[], socket.socket]


def _udp_socket() -> socket.socket:
    return socket.socket(socket.AF_INET, socket.SOCK_DGRAM)


def address_by_route(make_socket: SocketFactory = _udp_socket) -> str | None:
    """The IPv4 address this machine sends from towards other machines; None without a route."""
    try:
        with make_socket() as probe:
            probe.connect(ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return address if _reachable_by_others(address) else None


def address_by_hostname() -> str | None:
    """An IPv4 address the machine's own name resolves to, other than the loopback."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for *_, sockaddr in found:
        address = str(sockaddr[0])
        if _reachable_by_others(address):
            return address
    return None


def _reachable_by_others(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def network_address(
    by_route: Callable[[], str | None] = address_by_route,
    by_hostname: Callable[[], str | None] = address_by_hostname,
) -> str | None:
    """The address other phones on the network reach this machine at; None when it has none."""
    return by_route() or by_hostname()


def phone_url(address: str | None, port: int, scheme: str = "http") -> str:
    """The address the phones open: this machine's, or the loopback when it has no network."""
    return f"{scheme}://{address or LOOPBACK}:{port}"


def tls_files(environ: Mapping[str, str]) -> tuple[str, str] | None:
    """The certificate and key to serve https with, when both are set; ValueError naming the
    setting when one is missing or is not a file."""
    cert = environ.get(TLS_CERT_SETTING, "").strip()
    key = environ.get(TLS_KEY_SETTING, "").strip()
    if not cert and not key:
        return None
    for setting, path in ((TLS_CERT_SETTING, cert), (TLS_KEY_SETTING, key)):
        if not path:
            raise ValueError(f"{setting} must be set too: https needs a certificate and its key.")
        if not os.path.isfile(path):
            raise ValueError(f"{setting} names no file: {path}")
    return cert, key


def public_url(environ: Mapping[str, str], default: str) -> str:
    """The configured public address when there is one, else `default`; checked either way."""
    url = environ.get(PUBLIC_URL_SETTING, "").strip() or default
    parse_public_url(url)
    return url


def qr_text(url: str) -> str:
    """The QR code of `url` in block characters, light modules drawn (for a dark terminal)."""
    drawn = io.StringIO()
    segno.make(url, micro=False).terminal(out=drawn, compact=True)
    return drawn.getvalue().rstrip("\n")


def announcement(url: str, address: str | None) -> str:
    """What `make run` prints before serving: the address to open, its QR code, and how."""
    lines = [f"Open {url} on the phones at the table (same network as this machine)."]
    if address is None:
        lines.append(
            "This machine has no network address: only its own browser can reach the app."
        )
    lines += [qr_text(url), "Scan the code with a phone's camera. Ctrl+C stops the server."]
    return "\n".join(lines) + "\n"


def gunicorn_command(
    bind: str, port: int, workers: int, tls: tuple[str, str] | None = None
) -> list[str]:
    certificate = ["--certfile", tls[0], "--keyfile", tls[1]] if tls else []
    return [
        sys.executable, "-m", "gunicorn",
        "--config", GUNICORN_CONFIG,
        "--workers", str(workers),
        "--bind", f"{bind}:{port}",
        *certificate,
        APP,
    ]


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.serve")
    parser.add_argument("--bind", default=DEFAULT_BIND, help="interface to listen on")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument(
        "--print-only", action="store_true", help="print the address and its QR code, then stop"
    )
    args = parser.parse_args(argv)
    address = network_address()
    try:
        tls = tls_files(os.environ)
        url = public_url(os.environ, phone_url(address, args.port, "https" if tls else "http"))
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    out.write(announcement(url, address))
    out.flush()
    if args.print_only:
        return 0
    os.environ[PUBLIC_URL_SETTING] = url
    command = gunicorn_command(args.bind, args.port, args.workers, tls)
    os.execv(command[0], command)
    return 0  # pragma: no cover (execv does not return)


if __name__ == "__main__":
    sys.exit(main())
