"""``make run HTTPS=1``: the trust page a phone installs the table's authority from, the
plain-http server that sends every other page on to https, and what ``serve`` prints and runs.

Requests go to 127.0.0.1 only; the certificate names it, so a real https answer is checked
against the authority as a phone that trusts it would check it.
"""

from __future__ import annotations

import http.client
import io
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
import segno
from cryptography import x509
from test_serve import _listening_addresses, _modules_drawn, _without_quiet_zone

from scorekeeper import local_ca, serve

ROOT = Path(__file__).resolve().parents[2]
LAN = "192.168.1.20"


@pytest.fixture
def authority(tmp_path: Path) -> local_ca.Certificates:
    return local_ca.ensure(tmp_path / "tls", ["localhost", "127.0.0.1"])


@pytest.fixture
def trusting_app(app, authority):
    app.config["TABLE_CA"] = str(authority.ca)
    app.config["PUBLIC_URL"] = "https://table.test:5000"
    return app


def test_the_trust_page_names_the_authority_and_says_how_to_install_it(trusting_app, authority):
    page = trusting_app.test_client().get("/trust")

    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'href="/trust/hand-and-foot-table-ca.crt"' in text
    assert local_ca.fingerprint(authority.ca) in text
    assert "Certificate Trust Settings" in text and "Profile Downloaded" in text
    assert "Install a certificate > CA certificate" in text
    assert f"“{local_ca.authority_name(authority.ca)}”" in text
    assert 'href="https://table.test:5000/"' in text


def test_the_trust_page_speaks_the_phones_language(trusting_app):
    client = trusting_app.test_client()

    french = client.get("/trust", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    japanese = client.get("/trust", headers={"Accept-Language": "ja"}).get_data(as_text=True)

    assert "Réglages de confiance des certificats" in french
    assert "Télécharger le certificat" in french
    assert "証明書信頼設定" in japanese


def test_the_authority_downloads_as_a_certificate_a_phone_installs(trusting_app, authority):
    answer = trusting_app.test_client().get("/trust/hand-and-foot-table-ca.crt")

    assert answer.status_code == 200
    assert answer.mimetype == "application/x-x509-ca-cert"
    assert "attachment" in answer.headers["Content-Disposition"]
    assert x509.load_der_x509_certificate(answer.data) == x509.load_pem_x509_certificate(
        authority.ca.read_bytes()
    )


def test_without_an_authority_there_is_no_trust_page(client):
    assert client.get("/trust").status_code == 404
    assert client.get("/trust/hand-and-foot-table-ca.crt").status_code == 404


def test_the_plain_http_server_sends_every_other_page_on_to_https(trusting_app):
    trusting_app.config["TLS_HELPER"] = True
    client = trusting_app.test_client()

    games = client.get("/games/new?at=3")
    posted = client.post("/games/new")

    assert games.status_code == 307
    assert games.headers["Location"] == "https://table.test:5000/games/new?at=3"
    assert posted.status_code == 307
    assert client.get("/trust").status_code == 200
    with client.get("/static/css/trust.css") as style:
        assert style.status_code == 200
    assert client.get("/trust/hand-and-foot-table-ca.crt").status_code == 200


def test_the_redirect_goes_to_the_public_address_whatever_the_host_header(trusting_app):
    trusting_app.config["TLS_HELPER"] = True

    answer = trusting_app.test_client().get("/", headers={"Host": "evil.example"})

    assert answer.headers["Location"] == "https://table.test:5000/"


def test_the_https_server_itself_sends_nothing_elsewhere(trusting_app):
    assert trusting_app.test_client().get("/games/new").status_code == 200


@pytest.fixture
def https_run(monkeypatch, tmp_path):
    """serve.main with --https, in a temporary instance folder; the servers are not started
    but noted."""
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL", raising=False)
    monkeypatch.delenv("SCOREKEEPER_TLS_CERT", raising=False)
    monkeypatch.delenv("SCOREKEEPER_TLS_KEY", raising=False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setattr(serve, "network_address", lambda: LAN)
    monkeypatch.setattr(serve, "interface_addresses", lambda: [LAN, "10.0.0.7"])
    started: list[list[serve.Server]] = []
    monkeypatch.setattr(serve, "run_servers", lambda servers: started.append(servers) or 0)

    def run(*args: str) -> str:
        out = io.StringIO()
        assert serve.main(["--port", "5443", "--workers", "2", "--https", *args], out=out) == 0
        return out.getvalue()

    run.started = started  # type: ignore[attr-defined]
    run.folder = tmp_path / "tls"  # type: ignore[attr-defined]
    return run


def _drawings(printed: str) -> list[str]:
    """The QR drawings among the printed lines (the lines of block characters)."""
    drawings: list[list[str]] = []
    previous = False
    for line in printed.splitlines():
        drawn = bool(line) and set(line) <= {"\u2588", "\u2580", "\u2584", " "}
        if drawn and not previous:
            drawings.append([])
        if drawn:
            drawings[-1].append(line)
        previous = drawn
    return ["\n".join(lines) for lines in drawings]


def _matrix(url: str) -> list[list[int]]:
    return [[int(bool(cell)) for cell in row] for row in segno.make(url, micro=False).matrix]


def test_https_prints_the_trust_pages_code_first_then_the_https_address(https_run):
    printed = https_run()

    lines = printed.splitlines()
    trust, https = f"http://{LAN}:5444/trust", f"https://{LAN}:5443"
    assert lines[0] == "A new certificate authority was made: each phone trusts it once (step 1)."
    assert lines[1].endswith(f"trust this table's certificate authority: open {trust}")
    assert any(line.startswith(f"2. Then open {https} on the phones") for line in lines)
    first, second = _drawings(printed)
    assert _without_quiet_zone(_modules_drawn(first)) == _matrix(trust)
    assert _without_quiet_zone(_modules_drawn(second)) == _matrix(https)
    fingerprint = local_ca.fingerprint(https_run.folder / local_ca.CA_FILE)
    assert f"fingerprint: {fingerprint}" in printed


def test_https_serves_the_app_with_the_certificate_and_the_helper_over_http(https_run):
    https_run("--http-port", "5080")

    [(https, https_env), (helper, helper_env)] = https_run.started[0]
    folder = https_run.folder
    assert https == [
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
        str(folder / "cert.pem"),
        "--keyfile",
        str(folder / "key.pem"),
        "scorekeeper:create_app()",
    ]
    assert helper == [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        serve.GUNICORN_CONFIG,
        "--workers",
        "1",
        "--bind",
        "0.0.0.0:5080",
        *serve.without_control_socket(),
        "scorekeeper:create_app()",
    ]
    for env in (https_env, helper_env):
        assert env["SCOREKEEPER_PUBLIC_URL"] == f"https://{LAN}:5443"
        assert env["SCOREKEEPER_TABLE_CA"] == str(folder / "ca.pem")
    assert helper_env["SCOREKEEPER_TLS_HELPER"] == "1"
    assert "SCOREKEEPER_TLS_HELPER" not in https_env


def test_the_certificate_names_the_machines_addresses_and_names(https_run):
    https_run()

    certificate = x509.load_pem_x509_certificate((https_run.folder / "cert.pem").read_bytes())
    named = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    ips = {str(ip) for ip in named.get_values_for_type(x509.IPAddress)}
    hosts = set(named.get_values_for_type(x509.DNSName))
    host = socket.gethostname().lower()
    assert {LAN, "10.0.0.7", "127.0.0.1", "::1"} <= ips
    assert {"localhost", host} <= hosts


def test_a_second_run_reuses_the_authority_and_the_certificate(https_run):
    https_run()
    kept = {path.name: path.read_bytes() for path in https_run.folder.iterdir()}

    printed = https_run()

    assert {path.name: path.read_bytes() for path in https_run.folder.iterdir()} == kept
    assert printed.startswith("1. Once on each phone, trust this table's certificate authority")


def test_https_with_a_certificate_of_ones_own_is_refused(https_run, monkeypatch, tmp_path, capsys):
    (tmp_path / "c.pem").write_text("c")
    monkeypatch.setenv("SCOREKEEPER_TLS_CERT", str(tmp_path / "c.pem"))
    monkeypatch.setenv("SCOREKEEPER_TLS_KEY", str(tmp_path / "c.pem"))

    assert serve.main(["--https"], out=io.StringIO()) == 2
    assert "--https makes its own certificate" in capsys.readouterr().err


def test_https_with_an_http_public_address_is_refused(https_run, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "http://table.test:5443")

    assert serve.main(["--https"], out=io.StringIO()) == 2
    assert "SCOREKEEPER_PUBLIC_URL must be an https address" in capsys.readouterr().err
    assert https_run.started == []


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(connection: http.client.HTTPConnection, path: str) -> http.client.HTTPResponse:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
@pytest.mark.no_database  # its servers keep a SQLite file of their own, whatever the run's database
def test_make_run_https_serves_https_and_the_trust_page_then_stops_both(tmp_path):
    port, http_port = _free_port(), _free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_SECRET_KEY": "serve-test-secret",
        "SCOREKEEPER_PUBLIC_URL": f"https://127.0.0.1:{port}",
    }
    command = [
        sys.executable,
        "-m",
        "scorekeeper.serve",
        "--bind",
        "127.0.0.1",
        "--port",
        str(port),
        "--http-port",
        str(http_port),
        "--workers",
        "1",
        "--https",
    ]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while not (_listening_addresses(port) and _listening_addresses(http_port)):
            assert server.poll() is None and time.monotonic() < deadline, "no servers"
            time.sleep(0.1)
        trusted = ssl.create_default_context(cafile=str(tmp_path / "tls" / "ca.pem"))
        secure = http.client.HTTPSConnection("127.0.0.1", port, context=trusted, timeout=30)
        plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)

        assert _get(secure, "/static/favicon.svg").status == 200
        assert _get(plain, "/trust").status == 200
        moved = _get(plain, "/games/new")
        assert (moved.status, moved.getheader("Location")) == (
            307,
            f"https://127.0.0.1:{port}/games/new",
        )
        with pytest.raises(ssl.SSLCertVerificationError):  # without the authority: refused
            _get(http.client.HTTPSConnection("127.0.0.1", port, timeout=30), "/")
        assert _listening_addresses(port) == _listening_addresses(http_port) == {"127.0.0.1"}
    finally:
        server.send_signal(signal.SIGTERM)
        printed = server.communicate(timeout=60)[0].decode()
    assert server.returncode == 0
    assert not _listening_addresses(port) and not _listening_addresses(http_port)
    assert f"open http://127.0.0.1:{http_port}/trust" in printed


def test_a_form_posted_over_https_is_accepted_without_a_referer(live_app):
    """Pages send no Referer (Referrer-Policy: no-referrer): over https the CSRF token alone
    must do, or no form of an https table would save."""
    client = live_app.test_client()
    page = client.get("/games/new", base_url="https://localhost").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None

    started = client.post(
        "/games/new",
        base_url="https://localhost",
        data={"csrf_token": token.group(1), "variant": "pagat", "table": "2x4", "start": "1"},
    )
    forged = client.post(
        "/games/new",
        base_url="https://localhost",
        data={"variant": "pagat", "table": "2x4", "start": "1"},
    )

    assert started.status_code == 303
    assert re.fullmatch(r"/g/[A-Za-z0-9_-]{43}/deals/1", started.headers["Location"])
    assert forged.status_code == 400
