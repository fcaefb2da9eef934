"""Limits that keep one client from taking the server from every other table.

- ``rates``: per-client rate limits on what makes rows or costs a render (games, card tables,
  house rules, imports, PDF sheets), counted in the app's database so that every gunicorn
  worker, and every machine sharing a PostgreSQL database, sees the same count. Over the
  limit: 429 with Retry-After.
- ``slots``: at most ``SHEET_RENDERS_AT_ONCE`` PDF renders at a time on a machine; a render
  that finds no free slot waits its turn, first come first served across the machine's
  workers, for up to ``SHEET_RENDER_WAIT_SECONDS``, and answers 503 with Retry-After only when
  its turn did not come by then.
- ``bodies``: the import routes accept a larger body than the 1 MB of every other request, so
  that a whole export comes back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from scorekeeper.limits import bodies, rates, slots
from scorekeeper.limits.bodies import accepts_import
from scorekeeper.limits.rates import GAMES, HOUSE_RULES, IMPORTS, SHEETS, TABLES, limited, spend
from scorekeeper.operations import metrics

__all__ = [
    "GAMES",
    "HOUSE_RULES",
    "IMPORTS",
    "SHEETS",
    "TABLES",
    "accepts_import",
    "admitted_render",
    "limited",
    "spend",
]


def init_app(app: Flask) -> None:
    """Check the settings, and put the import routes' body limit first among the hooks that
    run before a view (CSRF's check reads the form)."""
    rates.init_app(app)
    slots.init_app(app)
    bodies.init_app(app)


@contextmanager
def admitted_render(until: float | None = None) -> Iterator[None]:
    """A sheet's layout, run holding one of the machine's render slots (503 when its turn did
    not come in the wait allowed: ``SHEET_RENDER_WAIT_SECONDS``, or until ``until`` on the
    ``time.monotonic`` clock) and counted against the client's limit (429). The slot comes
    first: it costs no database write, and a render refused for want of one is not counted."""
    wait = None if until is None else max(0.0, until - time.monotonic())
    try:
        with slots.render_slots().held(wait):
            try:
                spend(SHEETS)
            except TooManyRequests:
                metrics.count("render_refusals", "rate_limited")
                raise
            yield
    except ServiceUnavailable:
        metrics.count("render_refusals", "busy")
        raise
