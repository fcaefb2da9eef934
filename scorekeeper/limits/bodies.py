"""A larger request body for the import routes, and a refusal that says how large.

Every request is limited to ``MAX_CONTENT_LENGTH`` (1 MB), but an export of all games may be
larger, and must come back. A view marked ``accepts_import`` takes up to ``MAX_IMPORT_BYTES``.
The limit is raised in a ``before_request`` that runs before CSRF's, which reads the form
(and so the body) before any view; a body announced larger than that is refused there, with
a 413 that names the most an import takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, request
from flask_babel import format_decimal
from flask_babel import gettext as _

F = TypeVar("F", bound=Callable[..., Any])
_IMPORT = "scorekeeper_accepts_import"
MEGABYTE = 1024 * 1024


def accepts_import(view: F) -> F:
    """Mark a view that takes an export file: its body may reach ``MAX_IMPORT_BYTES``.

    It goes below the route decorator; ``functools.wraps`` carries the mark through others."""
    setattr(view, _IMPORT, True)
    return view


def _megabytes(size: int) -> str:
    return str(format_decimal(round(size / MEGABYTE, 1)))


def _raise_import_limit() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    if not getattr(view, _IMPORT, False) or request.method != "POST":
        return
    most = current_app.config["MAX_IMPORT_BYTES"]
    if request.content_length is not None and request.content_length > most:
        abort(
            413,
            description=_(
                "The file is larger than %(most)s MB, the most an import accepts.",
                most=_megabytes(most),
            ),
        )
    request.max_content_length = most
    request.max_form_memory_size = most


def init_app(app: Flask) -> None:
    # First in line: before CSRF's check reads the form.
    app.before_request_funcs.setdefault(None, []).insert(0, _raise_import_limit)
