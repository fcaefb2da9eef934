"""Settings: defaults, then the SCOREKEEPER_* environment variables.

``create_app`` applies them in that order, lets a mapping (the tests') override both, and
then calls ``complete`` for the values that follow from the others.
"""

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scorekeeper.public_url import DEFAULT_PUBLIC_URL, parse_public_url

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
# How long a sheet that finds every render slot taken waits its turn before "try again" (503):
# a print in all, its sheet made ahead and its own render alike. Long enough for the sheets of
# ten tables that end at once to be made one after the other on a busy two-core machine.
SHEET_RENDER_WAIT_SECONDS = 60
# A games export may be far larger than a form: the import routes accept up to this.
MAX_IMPORT_BYTES = 16 * 1024 * 1024
# Set by ``make run HTTPS=1`` (``scorekeeper.serve``): the table's own certificate authority,
# offered to phones at /trust, and, in the plain-http server beside the https one, the flag that
# sends every other page on to https.
TABLE_CA_SETTING = ENV_PREFIX + "TABLE_CA"
TLS_HELPER_SETTING = ENV_PREFIX + "TLS_HELPER"
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
        # Pages send no Referer (Referrer-Policy: no-referrer, see ``security``), so Flask-WTF's
        # https-only check that a form's Referer names this host would refuse every form served
        # over https; the signed, session-bound token and SameSite cookies stand without it.
        "WTF_CSRF_SSL_STRICT": False,
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_TRANSLATION_DIRECTORIES": "translations",
        "PUBLIC_URL": DEFAULT_PUBLIC_URL,
        **RATE_LIMIT_DEFAULTS,
        "MAX_IMPORT_BYTES": MAX_IMPORT_BYTES,
        "SHEET_RENDERS_AT_ONCE": max(1, (os.cpu_count() or 1) // 2),
        "SHEET_RENDER_NICE": SHEET_RENDER_NICE,
        "SHEET_RENDER_WAIT_SECONDS": SHEET_RENDER_WAIT_SECONDS,
        "SHEETS_AHEAD": True,
        "TRUSTED_PROXIES": 0,
        "TABLE_CA": None,
        "TLS_HELPER": False,
        "HASHED_STATIC": False,
        "METRICS_TOKEN": None,
        "LOG_FORMAT": "text",
        "LOG_LEVEL": "INFO",
    }


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """Only the settings that the environment actually sets."""
    settings: dict[str, Any] = {}
    database_url, _origin = secret_setting(environ, "DATABASE_URL")
    if database_url:
        settings["SQLALCHEMY_DATABASE_URI"] = database_url
    feed_url, _origin = secret_setting(environ, "FEED_DATABASE_URL")
    if feed_url:
        settings["FEED_DATABASE_URL"] = feed_url
    secret_key, origin = secret_setting(environ, "SECRET_KEY")
    if secret_key:
        settings["SECRET_KEY"] = secret_key
        settings["SECRET_KEY_ORIGIN"] = origin
    secure_cookies = environ.get(ENV_PREFIX + "SECURE_COOKIES")
    if secure_cookies is not None:
        secure = flag(ENV_PREFIX + "SECURE_COOKIES", secure_cookies)
        settings["SESSION_COOKIE_SECURE"] = secure
        settings["PREFERRED_URL_SCHEME"] = "https" if secure else "http"
    hashed_static = environ.get(ENV_PREFIX + "HASHED_STATIC")
    if hashed_static is not None:
        settings["HASHED_STATIC"] = flag(ENV_PREFIX + "HASHED_STATIC", hashed_static)
    metrics_token, _origin = secret_setting(environ, "METRICS_TOKEN")
    if metrics_token:
        settings["METRICS_TOKEN"] = metrics_token
    for name in ("LOG_FORMAT", "LOG_LEVEL"):
        if environ.get(ENV_PREFIX + name):
            settings[name] = environ[ENV_PREFIX + name]
    public_url = environ.get(ENV_PREFIX + "PUBLIC_URL")
    if public_url:
        settings["PUBLIC_URL"] = public_url
    table_ca = environ.get(TABLE_CA_SETTING)
    if table_ca:
        settings["TABLE_CA"] = table_ca
    helper = environ.get(TLS_HELPER_SETTING)
    if helper is not None:
        settings["TLS_HELPER"] = flag(TLS_HELPER_SETTING, helper)
    for name in RATE_LIMIT_DEFAULTS:
        if (ENV_PREFIX + name) in environ:
            settings[name] = environ[ENV_PREFIX + name]
    for name in (
        "MAX_IMPORT_BYTES",
        "SHEET_RENDERS_AT_ONCE",
        "SHEET_RENDER_NICE",
        "SHEET_RENDER_WAIT_SECONDS",
        "TRUSTED_PROXIES",
    ):
        if environ.get(ENV_PREFIX + name):
            settings[name] = whole_number(ENV_PREFIX + name, environ[ENV_PREFIX + name])
    return settings


def secret_setting(environ: Mapping[str, str], name: str) -> tuple[str | None, str]:
    """A setting given as SCOREKEEPER_<name>, or read from the file SCOREKEEPER_<name>_FILE
    names (a container's secret); with where it came from. Both set, or a file that cannot be
    read or is empty, stops the start."""
    variable = ENV_PREFIX + name
    value = environ.get(variable)
    file_name = environ.get(variable + "_FILE")
    if not file_name:
        return value or None, f"the {variable} setting"
    if value:
        raise ValueError(f"Set {variable} or {variable}_FILE, not both")
    try:
        value = Path(file_name).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{variable}_FILE names a file that cannot be read: {error}") from error
    if not value:
        raise ValueError(f"{variable}_FILE names an empty file: {file_name}")
    return value, f"in the file {os.path.abspath(file_name)} ({variable}_FILE)"


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
        refuse_a_key_of_its_own(config["SQLALCHEMY_DATABASE_URI"], instance)
        config["SECRET_KEY"] = instance_secret_key(instance)
        config["SECRET_KEY_ORIGIN"] = f"in the file {Path(instance) / SECRET_KEY_FILE}"


def refuse_a_key_of_its_own(database_url: str, instance: str) -> None:
    """A server on a database that other servers may share (anything but SQLite) must not
    make a secret key of its own: a session made by one server would be unreadable on the
    others (a browser's games gone, its forms refused). A key it made earlier is kept."""
    if database_url.startswith("sqlite") or (Path(instance) / SECRET_KEY_FILE).exists():
        return
    raise ValueError(
        "SCOREKEEPER_SECRET_KEY is not set, and this server would make a key of its own "
        "while the database may be shared by other servers, whose sessions it could not "
        "read: set SCOREKEEPER_SECRET_KEY (or SCOREKEEPER_SECRET_KEY_FILE) to the same key "
        "on every server, such as the output of "
        "python3 -c 'import secrets; print(secrets.token_hex(32))'"
    )


def engine_options(database_url: str) -> dict[str, Any]:
    if database_url.startswith("sqlite"):
        # Wait for a writer holding the lock rather than failing at once.
        return {"connect_args": {"timeout": 15}}
    # Renewed hourly; idle ones are tested before use (see ``connections``). No statement is
    # prepared on the server (psycopg prepares a query run five times on one connection):
    # behind a transaction-pooling PgBouncer the next transaction may run on another server
    # connection, which knows nothing of it.
    return {"pool_recycle": 3600, "connect_args": {"prepare_threshold": None}}


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
