import os
import stat
from pathlib import Path

import pytest
from flask import Flask, abort
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import LANGUAGE_COOKIE, db


def test_default_app_is_not_testing() -> None:
    assert not create_app().testing


def test_the_config_mapping_overrides_everything(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'override.sqlite3'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})

    assert app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"] == url


def test_default_database_lives_in_the_instance_folder() -> None:
    app = create_app()

    expected = os.path.join(app.instance_path, "scorekeeper.sqlite3")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{expected}"
    assert os.path.isdir(app.instance_path)


def test_database_url_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'from-env.sqlite3'}"
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)

    assert create_app().config["SQLALCHEMY_DATABASE_URI"] == url


def test_secret_key_is_generated_once_and_kept_private() -> None:
    first = create_app()
    key_file = Path(first.instance_path) / "secret_key"

    second = create_app()

    assert len(first.secret_key) == 64
    assert second.secret_key == first.secret_key
    assert key_file.read_text().strip() == first.secret_key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_secret_key_from_the_environment_writes_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-the-environment")

    app = create_app()

    assert app.secret_key == "from-the-environment"
    assert not (Path(app.instance_path) / "secret_key").exists()


def test_session_cookie_and_upload_limits() -> None:
    config = create_app().config

    assert config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert config["SESSION_COOKIE_HTTPONLY"] is True
    assert config["MAX_CONTENT_LENGTH"] == 1024 * 1024


@pytest.mark.sqlite
def test_sqlite_connections_enforce_foreign_keys(app: Flask) -> None:
    with app.app_context():
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_metadata_names_constraints_for_migrations() -> None:
    assert set(db.metadata.naming_convention) >= {"ix", "uq", "ck", "fk", "pk"}


def test_migrations_upgrade_an_empty_database(empty_app: Flask) -> None:
    result = empty_app.test_cli_runner().invoke(args=["db", "upgrade"])

    assert result.exit_code == 0, result.output


def test_unknown_page_is_a_friendly_404(client) -> None:
    response = client.get("/no-such-page")

    assert response.status_code == 404
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Page not found" in page
    assert 'href="/"' in page
    assert "Traceback" not in page


def test_unknown_api_address_answers_json_404(client) -> None:
    response = client.get("/api/no-such-thing")

    assert response.status_code == 404
    assert response.is_json
    [error] = response.get_json()["errors"]
    assert error["side"] is None
    assert error["field"] is None
    assert error["message"]


def test_method_not_allowed_keeps_the_allow_header(client) -> None:
    response = client.get("/language/fr")

    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert "Not allowed here" in response.get_data(as_text=True)


def test_oversized_request_is_refused_with_413(client) -> None:
    response = client.post("/language", data={"lang": "fr", "next": "x" * (2 * 1024 * 1024)})

    assert response.status_code == 413
    assert "Too large" in response.get_data(as_text=True)


def _app_that_fails(tmp_path: Path) -> Flask:
    app = create_app(
        {
            "SECRET_KEY": "test-secret-key",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fail.sqlite3'}",
        }
    )

    def fail() -> str:
        raise RuntimeError("secret internal detail")

    app.add_url_rule("/boom", view_func=fail)
    app.add_url_rule("/api/boom", endpoint="api_boom", view_func=fail)
    app.add_url_rule("/conflict", view_func=lambda: abort(409, "Deal 3 was already scored."))
    return app


def test_server_error_page_shows_no_internals(tmp_path: Path) -> None:
    client = _app_that_fails(tmp_path).test_client()

    response = client.get("/boom")

    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Something went wrong" in page
    assert "secret internal detail" not in page
    assert "Traceback" not in page


def test_server_error_on_the_api_answers_json(tmp_path: Path) -> None:
    client = _app_that_fails(tmp_path).test_client()

    response = client.get("/api/boom")

    assert response.status_code == 500
    assert "secret internal detail" not in response.get_data(as_text=True)
    assert response.get_json()["errors"][0]["message"]


def test_error_message_given_to_abort_is_shown(tmp_path: Path) -> None:
    client = _app_that_fails(tmp_path).test_client()

    response = client.get("/conflict")

    assert response.status_code == 409
    assert "Deal 3 was already scored." in response.get_data(as_text=True)


def test_language_switch_sets_a_cookie_and_the_page_language(client) -> None:
    response = client.post("/language/fr", data={"next": "/somewhere?deal=2"})

    assert response.status_code == 303
    assert response.headers["Location"] == "/somewhere?deal=2"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == "fr"
    assert cookie.expires is not None
    assert '<html lang="fr">' in client.get("/somewhere").get_data(as_text=True)


def test_language_switch_form_field(client) -> None:
    client.post("/language", data={"lang": "ja"})

    page = client.get("/no-such-page").get_data(as_text=True)
    assert '<html lang="ja">' in page
    assert '<option value="ja" lang="ja" selected>' in page


def test_browser_language_is_used_without_a_cookie(client) -> None:
    page = client.get("/x", headers={"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"})

    assert '<html lang="de">' in page.get_data(as_text=True)


def test_unsupported_language_is_refused(client) -> None:
    assert client.post("/language/xx").status_code == 404
    assert client.get_cookie(LANGUAGE_COOKIE) is None


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", ""],
)
def test_language_switch_never_redirects_off_site(client, target: str) -> None:
    response = client.post("/language/it", data={"next": target})

    assert response.headers["Location"] == "/"


def test_language_switch_needs_a_csrf_token(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite3'}",
        }
    )

    response = app.test_client().post("/language/fr")

    assert response.status_code == 400
    assert "Form expired" in response.get_data(as_text=True)
