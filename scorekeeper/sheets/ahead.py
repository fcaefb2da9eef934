"""A finished game's sheet, made before anyone asks for it.

When a deal that may finish a game is saved (its last deal, entered for the first time), the
worker makes the game's filled PDF in a thread of its own after the save has been answered:
in the reader's language and on the reader's paper (the request's cookies and headers are
copied, nothing else), laid out at the render process's low priority, and kept by the digest
of its HTML (``kept``) and in the database (``store.kept_sheets``). The table's print then
finds it made, whichever worker of whichever server it reaches. A sheet made ahead is a cache
and nothing more: a game not finished is skipped, a render that fails or whose turn for a
render slot does not come in time is given up, and a print renders it as ever.

A print that comes while its game's sheet is still waiting here or being made waits for that
very sheet (``wait_for``, within the print's own wait: ``SHEET_RENDER_WAIT_SECONDS`` in all)
instead of taking a render slot of its own for the same page: in this worker by the job's
event, in the machine's other workers by the job's marker, a lock file held from the save
until the job ends (the lock goes with its process, however it ends). The print also marks the
game as asked for, and a sheet asked for is made before the ones nobody has asked for yet.

One thread per worker makes these sheets, one at a time, asked ones first, otherwise in the
order the saves came; a game already waiting in any worker of the machine is not queued
twice, and no more than ``MOST_WAITING`` games wait in a worker (the others are printed as
ever). A sheet changed after it was made (a deal corrected) is a new page: the print renders
it.
"""

from __future__ import annotations

import fcntl
import io
import logging
import os
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request

from scorekeeper.limits.file_locks import held_elsewhere
from scorekeeper.store.game_service import load_game
from scorekeeper.store.games import Game
from scorekeeper.store.scores import game_score

log = logging.getLogger(__name__)

MOST_WAITING = 16
MARKERS_FOLDER = "sheets-ahead"
FIRST_LOOK_SECONDS = 0.05
LONGEST_LOOK_SECONDS = 0.25
"""A print waiting on another worker's job looks at its marker after a pause that doubles up
to this."""

Maker = Callable[[Game], None]


@dataclass
class _Job:
    app: Flask
    environ: dict[str, Any]
    game_id: int
    make: Maker
    marker: int
    """The descriptor of the game's marker, locked while the job waits or runs."""
    folder: Path
    done: threading.Event = field(default_factory=threading.Event)


_lock = threading.Lock()
_changed = threading.Condition(_lock)
_jobs: list[_Job] = []
_by_game: dict[int, _Job] = {}
_unfinished = 0
_maker_owner = 0


def _marker_path(folder: Path, game_id: int) -> Path:
    return folder / f"game-{game_id}.lock"


def _asked_path(folder: Path, game_id: int) -> Path:
    return folder / f"game-{game_id}.asked"


def _markers_folder(app: Flask) -> Path:
    return Path(app.instance_path) / MARKERS_FOLDER


def _reader_environ(environ: dict[str, Any]) -> dict[str, Any]:
    """The request's address, cookies and headers, as a GET with no body."""
    copied: dict[str, Any] = {
        name: value for name, value in environ.items() if isinstance(value, str)
    }
    copied.update(REQUEST_METHOD="GET", CONTENT_LENGTH="0", QUERY_STRING="")
    copied["wsgi.input"] = io.BytesIO()
    copied.pop("CONTENT_TYPE", None)
    return copied


def _lock_marker(folder: Path, game_id: int) -> int | None:
    """The game's marker, locked, or None when a job of the machine holds it already."""
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(_marker_path(folder, game_id), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor


def _marker_held(folder: Path, game_id: int) -> bool:
    """Whether a job of the machine (any worker) holds the game's marker."""
    return bool(held_elsewhere(_marker_path(folder, game_id)))


def _end(job: _Job) -> None:
    """The job is over: its marker and the print's mark go, and its waiters are woken."""
    for path in (_asked_path(job.folder, job.game_id), _marker_path(job.folder, job.game_id)):
        with suppress(OSError):
            path.unlink()
    os.close(job.marker)
    job.done.set()


def _make(job: _Job) -> None:
    with job.app.request_context(job.environ):
        try:
            game = load_game(job.game_id)
            if game is not None and game_score(game).finished:
                job.make(game)
        except Exception:  # noqa: BLE001 (a cache: the print renders the sheet instead)
            log.warning("The sheet of game %s could not be made ahead", job.game_id, exc_info=True)


def _next_job() -> _Job:
    """Called holding the lock: the first job asked for, else the first in line."""
    while not _jobs:
        _changed.wait()
    asked = next((job for job in _jobs if _asked_path(job.folder, job.game_id).exists()), _jobs[0])
    _jobs.remove(asked)
    return asked


def _make_in_turn() -> None:
    """The maker thread: each job in turn, for as long as the process lives."""
    global _unfinished
    while True:
        with _lock:
            job = _next_job()
        try:
            _make(job)
        finally:
            with _lock:
                _by_game.pop(job.game_id, None)
                _end(job)
                _unfinished -= 1
                _changed.notify_all()


def _start_maker() -> None:
    """Called holding the lock: this process's maker thread, started on first use (a daemon:
    a worker that stops does not wait for the sheets still to make)."""
    global _maker_owner, _unfinished
    if _maker_owner != os.getpid():
        _maker_owner = os.getpid()
        _jobs.clear()
        _by_game.clear()
        _unfinished = 0
        threading.Thread(target=_make_in_turn, name="sheets-ahead", daemon=True).start()


def after_save(game_id: int, make: Maker) -> None:
    """Have ``make`` make the game's sheet in the background if the deal just saved finished
    the game."""
    global _unfinished
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if not app.config["SHEETS_AHEAD"]:
        return
    environ = _reader_environ(request.environ)
    folder = _markers_folder(app)
    with _lock:
        _start_maker()
        if game_id in _by_game or len(_by_game) >= MOST_WAITING:
            return
        try:
            marker = _lock_marker(folder, game_id)
        except OSError:
            log.warning("The sheet of game %s cannot be marked as made ahead", game_id)
            return
        if marker is None:
            return
        job = _Job(app, environ, game_id, make, marker, folder)
        _by_game[game_id] = job
        _jobs.append(job)
        _unfinished += 1
        _changed.notify_all()


def wait_for(game_id: int, seconds: float | None = None) -> bool:
    """Wait up to ``seconds`` (``SHEET_RENDER_WAIT_SECONDS`` when None) while the game's sheet is
    waiting to be made ahead or being made, by this worker or another of the machine, and have
    it made before the sheets nobody has asked for; False if it was still not made by then."""
    folder = _markers_folder(current_app)
    if seconds is None:
        seconds = float(current_app.config["SHEET_RENDER_WAIT_SECONDS"])
    with _lock:
        job = _by_game.get(game_id) if _maker_owner == os.getpid() else None
    if job is None and not _marker_held(folder, game_id):
        return True
    with suppress(OSError):
        _asked_path(folder, game_id).touch()
    if job is not None:
        return job.done.wait(seconds)
    deadline = time.monotonic() + seconds
    pause = FIRST_LOOK_SECONDS
    while _marker_held(folder, game_id):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(pause, left))
        pause = min(2 * pause, LONGEST_LOOK_SECONDS)
    return True


def wait_until_made(timeout: float) -> bool:
    """Wait for the sheets asked for so far in this process; False if some are still making."""
    with _changed:
        return _changed.wait_for(lambda: _unfinished == 0, timeout)
