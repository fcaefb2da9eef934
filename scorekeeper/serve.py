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

``--https`` (``make run HTTPS=1``) makes that certificate itself, signed by an authority of the
table's own (``scorekeeper.local_ca``), and serves two ports: https on ``--port``, and on
``--http-port`` plain http for the one page a phone needs before it trusts the authority (the
authority's certificate and how to install it, ``/trust``); every other page there is sent on
to https. Two QR codes are printed: that page's, then the https address's.
"""

from __future__ import annotations

import argparse
import io
import ipaddress
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import TextIO

import segno

from scorekeeper import local_ca
from scorekeeper.config import TABLE_CA_SETTING, TLS_HELPER_SETTING, instance_path
from scorekeeper.public_url import PUBLIC_URL_SETTING, parse_public_url

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
HELPER_WORKERS = 1
TRUST_PATH = "/trust"
DEFAULT_INSTANCE = Path(__file__).resolve().parent.parent / "instance"
"""Flask's instance folder for this package when SCOREKEEPER_INSTANCE_PATH is not set."""
SIOCGIFADDR = 0x8915

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


def interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces that other machines may reach (Linux;
    elsewhere none, and the route's and the host name's addresses stand in)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    for _, name in socket.if_nameindex():
        with _udp_socket() as probe:
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # no IPv4 address on this interface
                continue
        address = socket.inet_ntoa(answer[20:24])
        if _reachable_by_others(address) and address not in found:
            found.append(address)
    return found


def machine_names(address: str | None, extra: Sequence[str] = ()) -> list[str]:
    """What this machine's certificate names: its network addresses, its name (and the name
    it has on the local network, ``<name>.local``), the loopback, and `extra`."""
    host = socket.gethostname().lower()
    names = ["localhost", host]
    if host and "." not in host:
        names.append(host + ".local")
    names += [*extra, LOOPBACK, "::1"]
    for found in (address, address_by_hostname(), *interface_addresses()):
        if found:
            names.append(found)
    return list(dict.fromkeys(name for name in names if name))


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
        lines.append("This machine has no network address: only its own browser can reach the app.")
    lines += [qr_text(url), "Scan the code with a phone's camera. Ctrl+C stops the server."]
    return "\n".join(lines) + "\n"


def https_announcement(url: str, trust_url: str, address: str | None, authority_print: str) -> str:
    """What `make run HTTPS=1` prints: the trust page's QR code first, then the https one."""
    lines = [
        f"1. Once on each phone, trust this table's certificate authority: open {trust_url}",
        qr_text(trust_url),
        f"   The authority's SHA-256 fingerprint: {authority_print}",
        f"2. Then open {url} on the phones at the table (same network as this machine).",
    ]
    if address is None:
        lines.append("This machine has no network address: only its own browser can reach the app.")
    lines += [qr_text(url), "Scan the codes with a phone's camera. Ctrl+C stops the server."]
    return "\n".join(lines) + "\n"


def without_control_socket() -> list[str]:
    """The option that keeps a second gunicorn off the first one's control socket (one path
    for every gunicorn of a user), where this gunicorn has such a socket."""
    from gunicorn.config import KNOWN_SETTINGS

    for setting in KNOWN_SETTINGS:
        if setting.name == "control_socket_disable":
            return list(setting.cli or ())
    return []


def trust_page_url(url: str, http_port: int) -> str:
    """The plain-http address of the trust page: the https address's host, the http port."""
    host = parse_public_url(url).host
    bare = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return f"http://{bare}:{http_port}{TRUST_PATH}"


def gunicorn_command(
    bind: str, port: int, workers: int, tls: tuple[str, str] | None = None
) -> list[str]:
    certificate = ["--certfile", tls[0], "--keyfile", tls[1]] if tls else []
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        GUNICORN_CONFIG,
        "--workers",
        str(workers),
        "--bind",
        f"{bind}:{port}",
        *certificate,
        APP,
    ]


Server = tuple[list[str], Mapping[str, str]]
"""A command and the environment it runs in."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def run_servers(servers: Sequence[Server]) -> int:
    """Run the servers side by side until one stops or this process is told to stop; then
    stop them all. Returns the exit status of the one that stopped first (0 when told to)."""
    processes = [subprocess.Popen(command, env=dict(env)) for command, env in servers]
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        while True:
            for process in processes:
                if process.poll() is not None:
                    return process.returncode
            time.sleep(0.5)
    except KeyboardInterrupt:
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def serve_https(args: argparse.Namespace, address: str | None, out: TextIO) -> int:
    """Make or reuse the table's certificates, print both QR codes, serve https and the
    plain-http trust page."""
    if tls_files(os.environ):
        print(
            f"--https makes its own certificate: unset {TLS_CERT_SETTING} and "
            f"{TLS_KEY_SETTING}, or serve without HTTPS=1.",
            file=sys.stderr,
        )
        return 2
    http_port = args.http_port or args.port + 1
    if http_port == args.port:
        print("--http-port must differ from --port.", file=sys.stderr)
        return 2
    url = public_url(os.environ, phone_url(address, args.port, "https"))
    if parse_public_url(url).scheme != "https":
        print(
            f"With --https, {PUBLIC_URL_SETTING} must be an https address; not {url}",
            file=sys.stderr,
        )
        return 2
    folder = Path(instance_path() or DEFAULT_INSTANCE) / local_ca.FOLDER
    extra = [parse_public_url(url).host.rsplit(":", 1)[0].strip("[]"), *args.tls_name]
    made = local_ca.ensure(folder, machine_names(address, extra))
    trust_url = trust_page_url(url, http_port)
    if made.made_authority:
        out.write("A new certificate authority was made: each phone trusts it once (step 1).\n")
    out.write(https_announcement(url, trust_url, address, local_ca.fingerprint(made.ca)))
    out.flush()
    if args.print_only:
        return 0
    env = {**os.environ, PUBLIC_URL_SETTING: url, TABLE_CA_SETTING: str(made.ca)}
    https = gunicorn_command(args.bind, args.port, args.workers, (str(made.cert), str(made.key)))
    helper = gunicorn_command(args.bind, http_port, HELPER_WORKERS)
    helper[-1:-1] = without_control_socket()
    return run_servers([(https, env), (helper, {**env, TLS_HELPER_SETTING: "1"})])


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.serve")
    parser.add_argument("--bind", default=DEFAULT_BIND, help="interface to listen on")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument(
        "--print-only", action="store_true", help="print the address and its QR code, then stop"
    )
    parser.add_argument(
        "--https",
        action="store_true",
        help="serve https with a certificate of the table's own authority (made once)",
    )
    parser.add_argument(
        "--http-port",
        type=int,
        default=None,
        help="with --https: the plain-http port of the trust page (default: --port + 1)",
    )
    parser.add_argument(
        "--tls-name",
        action="append",
        default=[],
        help="with --https: one more host name for the certificate (repeatable)",
    )
    args = parser.parse_args(argv)
    address = network_address()
    if args.https:
        try:
            return serve_https(args, address, out)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
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
