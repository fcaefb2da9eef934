"""At most so many PDF renders at a time on this machine, across every worker process, in turn.

A render takes a processor for a good fraction of a second. Under gunicorn's sync workers,
renders asked for by a few clients at once would hold every worker and every processor, and
deal saves would wait behind them. Each render first takes one of ``SHEET_RENDERS_AT_ONCE``
slots: a lock file in the instance folder, locked with ``flock`` (the lock goes when its
process does, however it ends). ``SHEET_RENDERS_AT_ONCE = 0`` leaves renders unbounded.

A render that finds every slot taken waits its turn, first come first served across the
machine's workers, for up to ``SHEET_RENDER_WAIT_SECONDS`` (a thread of a gthread worker that
waits holds no processor); when its turn has not come by then, it answers 503 with
``Retry-After``. The line is kept in the instance folder's ``render-slots/queue``: each process
puts there one ticket, for the first of its own renders waiting, named by the moment that render
began to wait (the system's monotonic clock, one for every process) and locked while it waits,
so that a ticket left by a process that died is known as such and removed. The renders a
process has waiting take turns in the order they came; its first one looks at the line every
few hundredths of a second, and tries the slots when no more tickets than there are slots come
before its own. A render that comes while nobody waits takes a free slot at once.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app
from flask_babel import gettext as _
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.limits.file_locks import held_elsewhere
from scorekeeper.operations import metrics

SLOTS_FOLDER = "render-slots"
QUEUE_FOLDER = "queue"
RETRY_AFTER_SECONDS = 3
LOOK_SECONDS = 0.05
"""How often the first render waiting in a process looks at the machine's line."""

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Waiter:
    """A render of this process waiting for a slot."""

    arrival: int
    """When it began to wait: ``time.monotonic_ns()``, comparable across the machine."""
    deadline: float
    ticket: int | None = field(default=None)
    """The descriptor of its ticket in the machine's line, once it is first in its process."""
    ticket_path: Path | None = field(default=None)


class RenderSlots:
    """``count`` lock files in ``folder``; each render holds one while it runs."""

    def __init__(self, folder: Path, count: int, wait_seconds: float = 0.0) -> None:
        self.count = count
        self.wait_seconds = wait_seconds
        self.paths = [folder / f"slot-{number}.lock" for number in range(count)]
        self.queue = folder / QUEUE_FOLDER
        self._changed = threading.Condition()
        self._waiting: list[_Waiter] = []
        """This process's renders waiting, in the order they came."""
        if count:
            self.queue.mkdir(parents=True, exist_ok=True)

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

    def _release(self, descriptor: int) -> None:
        os.close(descriptor)  # closing the only descriptor releases the lock
        with self._changed:
            self._changed.notify_all()

    # --- the machine's line -------------------------------------------------------------

    def _tickets(self) -> list[str]:
        try:
            names = os.listdir(self.queue)
        except FileNotFoundError:
            return []
        return sorted(name for name in names if not name.startswith("."))

    def _put_ticket(self, waiter: _Waiter) -> None:
        """The waiter's ticket, locked, then put in the line under its final name (a ticket
        is never seen unlocked). A ticket that cannot be made (the folder unwritable) leaves
        the waiter trying the slots as they come free, out of turn."""
        name = f"{waiter.arrival:020d}-{os.getpid()}-{threading.get_ident()}"
        part = self.queue / f".{name}"
        try:
            self.queue.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(part, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            log.warning("A render cannot wait in line in %s: %s", self.queue, error)
            return
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.replace(part, self.queue / name)
        except OSError as error:
            log.warning("A render cannot wait in line in %s: %s", self.queue, error)
            os.close(descriptor)
            with suppress(OSError):
                part.unlink()
            return
        waiter.ticket, waiter.ticket_path = descriptor, self.queue / name

    def _drop_ticket(self, waiter: _Waiter) -> None:
        if waiter.ticket_path is not None:
            with suppress(OSError):
                waiter.ticket_path.unlink()
        if waiter.ticket is not None:
            os.close(waiter.ticket)
        waiter.ticket, waiter.ticket_path = None, None

    def _alive(self, name: str) -> bool:
        """Whether the ticket's process still waits with it; a dead one's ticket is removed."""
        path = self.queue / name
        held = held_elsewhere(path)
        if held is not False:
            return bool(held)
        with suppress(OSError):
            path.unlink()
        return False

    def _my_turn(self, waiter: _Waiter) -> bool:
        """Whether fewer tickets than slots come before the waiter's in the machine's line."""
        if waiter.ticket_path is None:
            return True
        mine = waiter.ticket_path.name
        before = 0
        for name in self._tickets():
            if name >= mine:
                break
            if self._alive(name):
                before += 1
                if before >= self.count:
                    return False
        return True

    def _nobody_waits(self) -> bool:
        with self._changed:
            if self._waiting:
                return False
        return not self._tickets()

    # --- waiting ------------------------------------------------------------------------

    def _wait_in_turn(self, seconds: float) -> int | None:
        """A slot taken in turn within ``seconds``, or None when the turn did not come."""
        metrics.count("render_waits")
        with self._changed:
            waiter = _Waiter(time.monotonic_ns(), time.monotonic() + seconds)
            self._waiting.append(waiter)
        tried_ticket = False
        try:
            while True:
                with self._changed:
                    first = self._waiting[0] is waiter
                    left = waiter.deadline - time.monotonic()
                    if not first:
                        if left <= 0:
                            return None
                        self._changed.wait(left)
                        continue
                if waiter.ticket is None and not tried_ticket:
                    tried_ticket = True
                    self._put_ticket(waiter)
                if self._my_turn(waiter):
                    descriptor = self._take()
                    if descriptor is not None:
                        return descriptor
                if left <= 0:
                    return None
                with self._changed:
                    self._changed.wait(min(LOOK_SECONDS, left))
        finally:
            self._drop_ticket(waiter)
            with self._changed:
                self._waiting.remove(waiter)
                self._changed.notify_all()

    def _wait_for_one(self, seconds: float) -> int | None:
        """A slot taken within ``seconds``, or None when none came free by then: at once when
        nobody waits, else in turn."""
        if self._nobody_waits():
            descriptor = self._take()
            if descriptor is not None or seconds <= 0:
                return descriptor
        elif seconds <= 0:
            return None
        return self._wait_in_turn(seconds)

    @contextmanager
    def held(self, wait_seconds: float | None = None) -> Iterator[None]:
        """Hold a free slot while the block runs, waiting in turn up to ``wait_seconds`` (the
        app's setting when None) for one; ServiceUnavailable (503) if the turn did not come."""
        if not self.count:
            yield
            return
        descriptor = self._wait_for_one(self.wait_seconds if wait_seconds is None else wait_seconds)
        if descriptor is None:
            raise busy()
        try:
            yield
        finally:
            self._release(descriptor)


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
