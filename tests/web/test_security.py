"""Security headers on every response, and the cookie settings."""

import pytest
from flask import Flask

from scorekeeper import config as settings
from scorekeeper import create_app
from scorekeeper.security import CONTENT_SECURITY_POLICY

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database


@pytest.mark.parametrize(
    "path", ["/no-such-page", "/api/v1/variants", "/api/no-such-thing", "/static/css/app.css"]
)
def test_every_response_carries_the_security_headers(client, path):
    with client.get(path) as response:
        pass

    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_error_responses_from_refused_posts_carry_the_headers_too(client):
    response = client.post("/api/v1/score", data=b"{", content_type="application/json")

    assert response.status_code == 400
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_the_policy_allows_no_inline_script_and_no_framing():
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))

    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["form-action"] == "'self'"
    assert directives["base-uri"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


def test_a_server_error_page_carries_the_headers(tmp_path):
    app = create_app(
        {"SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"}
    )

    def fail() -> str:
        raise RuntimeError("inside")

    app.add_url_rule("/boom", view_func=fail)
    response = app.test_client().get("/boom")

    assert response.status_code == 500
    assert response.headers["X-Frame-Options"] == "DENY"


def test_cookies_are_not_secure_by_default_so_plain_http_works_locally(client):
    assert client.application.config["SESSION_COOKIE_SECURE"] is False
    assert "Strict-Transport-Security" not in client.get("/no-such-page").headers


@pytest.mark.parametrize("value", ["1", "true", "Yes", " on "])
def test_secure_cookies_switch_on_from_the_environment(monkeypatch, value):
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", value)

    app = create_app()

    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["PREFERRED_URL_SCHEME"] == "https"


def test_secure_cookies_mark_the_session_and_language_cookies_secure(monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", "1")
    app: Flask = create_app({"TESTING": True, "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})
    client = app.test_client()

    response = client.post("/language/fr", base_url="https://localhost")

    cookie_header = response.headers["Set-Cookie"]
    assert "Secure" in cookie_header and "HttpOnly" in cookie_header
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


@pytest.mark.parametrize("value", ["0", "false", "off", ""])
def test_secure_cookies_switch_off(monkeypatch, value):
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", value)

    assert create_app().config["SESSION_COOKIE_SECURE"] is False


def test_a_mistyped_switch_stops_the_start_with_its_name(monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", "sure")

    with pytest.raises(ValueError, match="SCOREKEEPER_SECURE_COOKIES"):
        create_app()


def test_request_size_limits_are_set():
    config = create_app().config

    assert config["MAX_CONTENT_LENGTH"] == settings.MAX_UPLOAD_BYTES
    assert config["MAX_FORM_MEMORY_SIZE"] <= settings.MAX_UPLOAD_BYTES
    assert config["MAX_FORM_PARTS"] == settings.MAX_FORM_PARTS


def test_a_multipart_form_with_too_many_parts_is_refused_not_crashed(client):
    fields = {f"f{n}": "1" for n in range(settings.MAX_FORM_PARTS + 10)}

    response = client.post("/language", data=fields, content_type="multipart/form-data")

    assert response.status_code == 413


@pytest.mark.parametrize("body", ["[" * 100_000, '{"a":' * 50_000])
def test_json_nested_too_deeply_is_a_bad_request_not_a_crash(client, body):
    response = client.post("/api/v1/score", data=body, content_type="application/json")

    assert response.status_code == 400
    assert response.is_json
