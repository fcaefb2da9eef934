"""Settings: defaults, then the SCOREKEEPER_* environment variables.

``create_app`` applies them in that order, lets a mapping (the tests') override both, and
then calls ``complete`` for the values that follow from the others.
"""

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .public_url import DEFAULT_PUBLIC_URL, parse_public_url

ENV_PREFIX = "SCOREKEEPER_"
SECRET_KEY_FILE = "secret_key"
MAX_UPLOAD_BYTES = 1024 * 1024
# Form fields and parts a request may carry: far above any form of the app.
MAX_FORM_PARTS = 500
# Per-client rate limits ("N/second|minute|hour|day", or "off"): see ``scorekeeper.limits``.
RATE_LIMIT_DEFAULTS = {
    "LIMIT_GAMES": "100/hour",
    "LIMIT_HOUSE_RULES": "50/hour",
    "LIMIT_IMPORTS": "20/hour",
    "LIMIT_SHEETS": "10/minute",
    "LIMIT_TABLES": "20/hour",
}
# How much lower a PDF render's priority is than the requests' (0: rendered in the worker).
SHEET_RENDER_NICE = 10
# A games export may be far larger than a form: the import routes accept up to this.
MAX_IMPORT_BYTES = 16 * 1024 * 1024
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def instance_path(environ: Mapping[str, str] = os.environ) -> str | None:
    """The instance folder named by SCOREKEEPER_INSTANCE_PATH, or None for Flask's default."""
    path = environ.get(ENV_PREFIX + "INSTANCE_PATH")
    return os.path.abspath(path) if path else None


def defaults(instance: str) -> dict[str, Any]:
    database_url = "sqlite:///" + os.path.join(instance, "scorekeeper.sqlite3")
    return {
        "SQLALCHEMY_DATABASE_URI": database_url,
        "MAX_CONTENT_LENGTH": MAX_UPLOAD_BYTES,
        "MAX_FORM_MEMORY_SIZE": MAX_UPLOAD_BYTES,
        "MAX_FORM_PARTS": MAX_FORM_PARTS,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SECURE": False,
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_TRANSLATION_DIRECTORIES": "translations",
        "PUBLIC_URL": DEFAULT_PUBLIC_URL,
        **RATE_LIMIT_DEFAULTS,
        "MAX_IMPORT_BYTES": MAX_IMPORT_BYTES,
        "SHEET_RENDERS_AT_ONCE": max(1, (os.cpu_count() or 1) // 2),
        "SHEET_RENDER_NICE": SHEET_RENDER_NICE,
        "TRUSTED_PROXIES": 0,
    }


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """Only the settings that the environment actually sets."""
    settings: dict[str, Any] = {}
    database_url = environ.get(ENV_PREFIX + "DATABASE_URL")
    if database_url:
        settings["SQLALCHEMY_DATABASE_URI"] = database_url
    secret_key = environ.get(ENV_PREFIX + "SECRET_KEY")
    if secret_key:
        settings["SECRET_KEY"] = secret_key
    secure_cookies = environ.get(ENV_PREFIX + "SECURE_COOKIES")
    if secure_cookies is not None:
        secure = flag(ENV_PREFIX + "SECURE_COOKIES", secure_cookies)
        settings["SESSION_COOKIE_SECURE"] = secure
        settings["PREFERRED_URL_SCHEME"] = "https" if secure else "http"
    public_url = environ.get(ENV_PREFIX + "PUBLIC_URL")
    if public_url:
        settings["PUBLIC_URL"] = public_url
    for name in RATE_LIMIT_DEFAULTS:
        if (ENV_PREFIX + name) in environ:
            settings[name] = environ[ENV_PREFIX + name]
    for name in (
        "MAX_IMPORT_BYTES",
        "SHEET_RENDERS_AT_ONCE",
        "SHEET_RENDER_NICE",
        "TRUSTED_PROXIES",
    ):
        if environ.get(ENV_PREFIX + name):
            settings[name] = whole_number(ENV_PREFIX + name, environ[ENV_PREFIX + name])
    return settings


def whole_number(name: str, value: str) -> int:
    """A count or a size: a whole number, 0 or more; anything else stops the start."""
    try:
        number = int(value.strip())
    except ValueError:
        number = -1
    if number < 0:
        raise ValueError(f"{name} must be a whole number, 0 or more; not {value!r}")
    return number


def flag(name: str, value: str) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off; anything else stops the start."""
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{name} must be one of 1, true, yes, on, 0, false, no, off; not {value!r}")


def complete(config: dict[str, Any], instance: str) -> None:
    """Fill in what was not set: engine options for the final database URL, the secret key.

    Also checks the public address, so that a wrong one stops the start (ValueError).
    """
    parse_public_url(config["PUBLIC_URL"])
    if "SQLALCHEMY_ENGINE_OPTIONS" not in config:
        config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(config["SQLALCHEMY_DATABASE_URI"])
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = instance_secret_key(instance)


def engine_options(database_url: str) -> dict[str, Any]:
    if database_url.startswith("sqlite"):
        # Wait for a writer holding the lock rather than failing at once.
        return {"connect_args": {"timeout": 15}}
    # Renewed hourly; idle ones are tested before use (see ``connections``).
    return {"pool_recycle": 3600}


def instance_secret_key(instance: str) -> str:
    """The key stored in the instance folder, made (random, mode 0600) on first use."""
    path = Path(instance) / SECRET_KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        # Another process created it between our read and now, or it was left empty.
        existing = path.read_text(encoding="ascii").strip()
        if existing:
            return existing
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        os.fchmod(handle.fileno(), 0o600)
        handle.write(key + "\n")
    return key
