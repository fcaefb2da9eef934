"""A finished game's sheet, made before anyone asks for it.

When a deal that may finish a game is saved (its last deal, entered for the first time), the
worker makes the game's filled PDF in a thread of its own after the save has been answered:
in the reader's language and on the reader's paper (the request's cookies and headers are
copied, nothing else), laid out at the render process's low priority, and kept by the digest
of its HTML (``kept``) and in the database (``store.kept_sheets``). The table's print then
finds it made, whichever worker of whichever server it reaches. A sheet made ahead is a cache
and nothing more: a game not finished is skipped, a render that fails or finds no free slot
is given up, and a print renders it as ever.

One thread per worker makes these sheets, one at a time, in the order the saves came; a game
already waiting there is not queued twice, and no more than ``MOST_WAITING`` games wait (the
others are printed as ever). A sheet changed after it was made (a deal corrected) is a new
page: the print renders it.
"""

from __future__ import annotations

import io
import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, request

from scorekeeper.store.game_service import load_game
from scorekeeper.store.games import Game
from scorekeeper.store.scores import game_score

log = logging.getLogger(__name__)

MOST_WAITING = 16

Maker = Callable[[Game], None]
Job = tuple[Flask, dict[str, Any], int, Maker]

_lock = threading.Lock()
_jobs: queue.Queue[Job] = queue.Queue()
_maker_owner = 0
_waiting_games: set[int] = set()


def _reader_environ(environ: dict[str, Any]) -> dict[str, Any]:
    """The request's address, cookies and headers, as a GET with no body."""
    copied: dict[str, Any] = {
        name: value for name, value in environ.items() if isinstance(value, str)
    }
    copied.update(REQUEST_METHOD="GET", CONTENT_LENGTH="0", QUERY_STRING="")
    copied["wsgi.input"] = io.BytesIO()
    copied.pop("CONTENT_TYPE", None)
    return copied


def _make(app: Flask, environ: dict[str, Any], game_id: int, make: Maker) -> None:

    with _lock:
        _waiting_games.discard(game_id)
    with app.request_context(environ):
        try:
            game = load_game(game_id)
            if game is not None and game_score(game).finished:
                make(game)
        except Exception:  # noqa: BLE001 (a cache: the print renders the sheet instead)
            log.warning("The sheet of game %s could not be made ahead", game_id, exc_info=True)


def _make_in_turn() -> None:
    """The maker thread: each job in the order it came, for as long as the process lives."""
    while True:
        app, environ, game_id, make = _jobs.get()
        try:
            _make(app, environ, game_id, make)
        finally:
            _jobs.task_done()


def _start_maker() -> None:
    """Called holding the lock: this process's maker thread, started on first use (a daemon:
    a worker that stops does not wait for the sheets still to make)."""
    global _maker_owner
    if _maker_owner != os.getpid():
        _maker_owner = os.getpid()
        _waiting_games.clear()
        threading.Thread(target=_make_in_turn, name="sheets-ahead", daemon=True).start()


def after_save(game_id: int, make: Maker) -> None:
    """Have ``make`` make the game's sheet in the background if the deal just saved finished
    the game."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if not app.config["SHEETS_AHEAD"]:
        return
    environ = _reader_environ(request.environ)
    with _lock:
        _start_maker()
        if game_id in _waiting_games or len(_waiting_games) >= MOST_WAITING:
            return
        _waiting_games.add(game_id)
        _jobs.put((app, environ, game_id, make))


def wait_until_made(timeout: float) -> bool:
    """Wait for the sheets asked for so far in this process; False if some are still making."""
    with _jobs.all_tasks_done:
        return _jobs.all_tasks_done.wait_for(lambda: _jobs.unfinished_tasks == 0, timeout)
