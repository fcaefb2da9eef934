"""At most so many PDF renders at a time on this machine, across every worker process.

A render takes a processor for a good fraction of a second. Under gunicorn's sync workers,
renders asked for by a few clients at once would hold every worker and every processor, and
deal saves would wait behind them. Each render first takes one of ``SHEET_RENDERS_AT_ONCE``
slots: a lock file in the instance folder, locked with ``flock`` (the lock goes when its
process does, however it ends). A request that finds every slot taken waits its turn for up
to ``SHEET_RENDER_WAIT_SECONDS``, trying the slots again every few hundredths of a second (a
thread of a gthread worker that sleeps holds no processor); when none came free by then, it
answers 503 with ``Retry-After``. ``SHEET_RENDERS_AT_ONCE = 0`` leaves renders unbounded.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app
from flask_babel import gettext as _
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.operations import metrics

SLOTS_FOLDER = "render-slots"
RETRY_AFTER_SECONDS = 3
FIRST_RETRY_SECONDS = 0.02
LONGEST_RETRY_SECONDS = 0.1
"""A waiting render tries the slots again after a pause that doubles up to this."""


class RenderSlots:
    """``count`` lock files in ``folder``; each render holds one while it runs."""

    def __init__(self, folder: Path, count: int, wait_seconds: float = 0.0) -> None:
        self.count = count
        self.wait_seconds = wait_seconds
        self.paths = [folder / f"slot-{number}.lock" for number in range(count)]
        if count:
            folder.mkdir(parents=True, exist_ok=True)

    def _take(self) -> int | None:
        """The descriptor of a slot just locked, or None when every slot is taken."""
        for path in self.paths:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                continue
            return descriptor
        return None

    def _wait_for_one(self, seconds: float) -> int | None:
        """A slot taken within ``seconds``, or None when none came free by then."""
        descriptor = self._take()
        if descriptor is not None or seconds <= 0:
            return descriptor
        metrics.count("render_waits")
        deadline = time.monotonic() + seconds
        pause = FIRST_RETRY_SECONDS
        while descriptor is None and time.monotonic() < deadline:
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(2 * pause, LONGEST_RETRY_SECONDS)
            descriptor = self._take()
        return descriptor

    @contextmanager
    def held(self, wait_seconds: float | None = None) -> Iterator[None]:
        """Hold a free slot while the block runs, waiting up to ``wait_seconds`` (the app's
        setting when None) for one; ServiceUnavailable (503) if none came free."""
        if not self.count:
            yield
            return
        descriptor = self._wait_for_one(self.wait_seconds if wait_seconds is None else wait_seconds)
        if descriptor is None:
            raise busy()
        try:
            yield
        finally:
            os.close(descriptor)  # closing the only descriptor releases the lock


def busy() -> ServiceUnavailable:
    """The answer to a sheet that could not be rendered in the wait allowed: 503, try again."""
    return ServiceUnavailable(
        _("Score sheets are being printed for other tables. Try again in a few seconds."),
        retry_after=RETRY_AFTER_SECONDS,
    )


def init_app(app: Flask) -> None:
    count = app.config["SHEET_RENDERS_AT_ONCE"]
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"SHEET_RENDERS_AT_ONCE must be a whole number, 0 or more; not {count!r}")
    wait = app.config["SHEET_RENDER_WAIT_SECONDS"]
    if not isinstance(wait, int | float) or wait < 0:
        raise ValueError(f"SHEET_RENDER_WAIT_SECONDS must be 0 or more; not {wait!r}")
    folder = Path(app.instance_path) / SLOTS_FOLDER
    app.extensions["scorekeeper.render_slots"] = RenderSlots(folder, count, float(wait))


def render_slots() -> RenderSlots:
    slots: RenderSlots = current_app.extensions["scorekeeper.render_slots"]
    return slots
