"""At most so many PDF renders at a time on this machine, across every worker process.

A render takes a processor for a good fraction of a second. Under gunicorn's sync workers,
renders asked for by a few clients at once would hold every worker and every processor, and
deal saves would wait behind them. Each render first takes one of ``SHEET_RENDERS_AT_ONCE``
slots: a lock file in the instance folder, locked with ``flock`` (the lock goes when its
process does, however it ends). A request that finds every slot taken does not wait: it
answers 503 with ``Retry-After`` at once, and its worker goes back to the other tables.
``SHEET_RENDERS_AT_ONCE = 0`` leaves renders unbounded.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app
from flask_babel import gettext as _
from werkzeug.exceptions import ServiceUnavailable

SLOTS_FOLDER = "render-slots"
RETRY_AFTER_SECONDS = 3


class RenderSlots:
    """``count`` lock files in ``folder``; each render holds one while it runs."""

    def __init__(self, folder: Path, count: int) -> None:
        self.count = count
        self.paths = [folder / f"slot-{number}.lock" for number in range(count)]
        if count:
            folder.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold a free slot while the block runs; ServiceUnavailable (503) if none is free."""
        if not self.count:
            yield
            return
        for path in self.paths:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                continue
            try:
                yield
            finally:
                os.close(descriptor)  # closing the only descriptor releases the lock
            return
        raise ServiceUnavailable(
            _("Score sheets are being printed for other tables. Try again in a few seconds."),
            retry_after=RETRY_AFTER_SECONDS,
        )


def init_app(app: Flask) -> None:
    count = app.config["SHEET_RENDERS_AT_ONCE"]
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"SHEET_RENDERS_AT_ONCE must be a whole number, 0 or more; not {count!r}")
    folder = Path(app.instance_path) / SLOTS_FOLDER
    app.extensions["scorekeeper.render_slots"] = RenderSlots(folder, count)


def render_slots() -> RenderSlots:
    return current_app.extensions["scorekeeper.render_slots"]
