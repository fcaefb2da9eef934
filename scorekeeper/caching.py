"""Cache-Control and Vary of the app's answers.

- An answer to an address holding the edit link is never stored (``no-store``), whatever its
  view chose: it may show the edit link (the keeper's scoreboard, its QR code) and its address
  is the edit link itself.
- An answer whose view chose no caching of its own is not stored either: most pages show links
  this browser holds (the list of games, a new game's edit link) or forms with its CSRF token.
  Answers that chose their own keep it: the poll's (``live.poll_front``), the view link's
  scoreboard and sheets (a 304 while the game is unchanged), the QR code of a view link, the
  static files.
- An answer made in the language chosen for the request says that it varies with what chooses
  it: the ``Accept-Language`` header and the ``lang`` cookie (``Vary: Accept-Language,
  Cookie``), so that no cache hands a French page to a German browser.
"""

from __future__ import annotations

from flask import Flask, Response, g

from scorekeeper.access import can_edit
from scorekeeper.extensions import LANGUAGE_CHOSEN

NO_STORE = "no-store"
LANGUAGE_VARY = ("Accept-Language", "Cookie")


def language_was_chosen() -> bool:
    """Whether this request's answer follows its language (``select_locale`` was asked)."""
    return bool(g.get(LANGUAGE_CHOSEN))


def set_cache_headers(response: Response) -> Response:
    if language_was_chosen():
        response.vary.update(LANGUAGE_VARY)
    if can_edit() or "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = NO_STORE
    return response


def init_app(app: Flask) -> None:
    app.after_request(set_cache_headers)
