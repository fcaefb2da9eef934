"""Log lines as JSON (one object a line) or text, each with the id of its request.

``SCOREKEEPER_LOG_FORMAT`` (``text``, the default, or ``json``) and ``SCOREKEEPER_LOG_LEVEL``
(``DEBUG``, ``INFO``, the default, ``WARNING``, ``ERROR``) set one handler on the root logger,
to standard error. gunicorn's own lines (its errors and, with ``--access-logfile -``, its
access log) are written as JSON too when the format is ``json``. A token in an address is shown
as ``[token]`` (``operations.redact``) in every line, whichever logger wrote it.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from flask import Flask
from flask.logging import default_handler

from scorekeeper.operations.redact import redact
from scorekeeper.operations.requests import current_request_id

FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
GUNICORN_LOGGERS = ("gunicorn.error", "gunicorn.access")
CHATTY_LIBRARIES = ("weasyprint", "fontTools")
"""Libraries whose INFO lines tell of each step of a render: shown at DEBUG only."""
ACCESS_FIELDS = {"h": "remote", "m": "method", "U": "path", "s": "status", "L": "seconds"}
"""gunicorn's access atoms kept as fields of their own in JSON."""


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
            "request_id": current_request_id.get(),
        }
        if isinstance(record.args, dict) and record.name == "gunicorn.access":
            for atom, field in ACCESS_FIELDS.items():
                if atom in record.args:
                    line[field] = redact(str(record.args[atom]))
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        record.request_id = current_request_id.get() or "-"
        return redact(super().format(record))


class StandardError(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is when a line is written (a test may replace it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


def formatter_for(name: str) -> logging.Formatter:
    return JsonFormatter() if name == "json" else TextFormatter()


def check(config: dict[str, Any]) -> tuple[str, str]:
    """The format and level; a wrong one stops the start, naming its setting."""
    name = str(config.get("LOG_FORMAT", "text")).strip().lower()
    if name not in FORMATS:
        raise ValueError(f"SCOREKEEPER_LOG_FORMAT must be text or json; not {name!r}")
    level = str(config.get("LOG_LEVEL", "INFO")).strip().upper()
    if level not in LEVELS:
        raise ValueError(f"SCOREKEEPER_LOG_LEVEL must be one of {', '.join(LEVELS)}; not {level!r}")
    return name, level


def init_app(app: Flask) -> None:
    name, level = check(app.config)
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, StandardError)]:
        root.removeHandler(handler)
    handler = StandardError()
    handler.setFormatter(formatter_for(name))
    root.addHandler(handler)
    root.setLevel(level)
    for library in CHATTY_LIBRARIES:
        logging.getLogger(library).setLevel("DEBUG" if level == "DEBUG" else "WARNING")
    app.logger.removeHandler(default_handler)  # its lines go to the root's handler
    if name == "json":
        for logger_name in GUNICORN_LOGGERS:
            for gunicorn_handler in logging.getLogger(logger_name).handlers:
                gunicorn_handler.setFormatter(JsonFormatter())
