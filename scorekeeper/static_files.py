"""Static files under names that carry a digest of their contents, cached far ahead.

With HASHED_STATIC on (``SCOREKEEPER_HASHED_STATIC=1``, as the image sets it),
``url_for("static", filename="css/app.css")`` gives ``/static/css/app.1a2b3c4d5e6f.css``: that
address names one content forever, so it is sent with a year's ``max-age`` and ``immutable``,
and a new release of the file is a new address. The plain names are still served as before
(revalidated each time): relative references inside the files, such as the fonts a style sheet
names, use them. A digest that is not the file's own (an address of an earlier release) is not
found, rather than answered with other content under it. Off, as in development and the tests,
nothing changes, and an edited file is served at once.

The digests are read once a process, so the files must not change while it runs.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, send_from_directory
from werkzeug.security import safe_join

DIGEST_LENGTH = 12
HASHED_NAME = re.compile(
    rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.[A-Za-z0-9]+)$"
)
FAR_AHEAD_SECONDS = 365 * 24 * 3600


@lru_cache(maxsize=1024)
def digest_of(folder: str, filename: str) -> str | None:
    """The digest in the file's hashed name; None when there is no such file."""
    path = safe_join(folder, filename)
    if path is None or not Path(path).is_file():
        return None
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:DIGEST_LENGTH]


def hashed_name(folder: str, filename: str) -> str:
    """``css/app.css`` -> ``css/app.<digest>.css``; unchanged for a missing file, or one
    without a suffix."""
    head, slash, name = filename.rpartition("/")
    stem, dot, suffix = name.rpartition(".")
    digest = digest_of(folder, filename)
    if digest is None or not dot or not stem:
        return filename
    return f"{head}{slash}{stem}.{digest}.{suffix}"


def original_name(folder: str, requested: str) -> str | None:
    """The file a hashed name stands for, when the digest is that file's; else None."""
    match = HASHED_NAME.match(requested)
    if match is None:
        return None
    original = match["stem"] + match["suffix"]
    return original if digest_of(folder, original) == match["digest"] else None


def _hash_static_urls(endpoint: str, values: dict[str, Any]) -> None:
    if endpoint == "static" and isinstance(values.get("filename"), str):
        assert current_app.static_folder is not None
        values["filename"] = hashed_name(current_app.static_folder, values["filename"])


def _serve_static(filename: str) -> Response:
    folder = current_app.static_folder
    assert folder is not None
    original = original_name(folder, filename)
    if original is None:
        return current_app.send_static_file(filename)
    response = send_from_directory(folder, original, max_age=FAR_AHEAD_SECONDS)
    response.cache_control.public = True
    response.cache_control.immutable = True
    return response


def init_app(app: Flask) -> None:
    if not app.config.get("HASHED_STATIC"):
        return
    app.url_defaults(_hash_static_urls)
    app.view_functions["static"] = _serve_static
