"""Keep game tokens out of every log line: the dev server's, gunicorn's and the app's own.

Addresses of the form /g/<token>/..., /t/<token>/... (a card table) and
/api/v1/games/<token>/... carry a capability; a log line shows them as /g/[token] or
/t/[token]. The filter sits on the loggers themselves, so it works whatever handlers or format
a deployment adds.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

from scorekeeper.capabilities import TOKEN_LENGTH

REDACTED = "[token]"
LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")

_TOKEN_IN_ADDRESS = re.compile(
    rf"(/g/|/games/|/t/)[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}(?![A-Za-z0-9_-])"
)


def redact(text: str) -> str:
    return _TOKEN_IN_ADDRESS.sub(rf"\g<1>{REDACTED}", text)


class RedactTokens(logging.Filter):
    """Rewrites a record whose message holds a token address; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to its handler
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg = cleaned
            record.args = None
        return True


_FILTER = RedactTokens()


def install(logger: logging.Logger) -> None:
    if not any(isinstance(f, RedactTokens) for f in logger.filters):
        logger.addFilter(_FILTER)


def init_app(app: Flask) -> None:
    for name in LOGGERS:
        install(logging.getLogger(name))
    install(app.logger)
