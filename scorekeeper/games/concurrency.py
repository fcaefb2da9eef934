"""Two phones, one game: optimistic concurrency for deals and games, and the live page's ETag.

Every form that changes a deal or a game carries the version it was made from. A save made
from an older version than the stored one is refused with 409, and the page shows both deals
side by side: what is saved now, and what this phone sent, with a button to save it over the
other deliberately. A race that passes this check (two saves at the same moment) is caught by
the database itself, and answered the same: a save or a deletion writes only while the deal (or
the game) is at the version it was made from, and every change locks the game before the deal,
so that two changes at once wait for each other rather than deadlock (``store.deal_writes``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Response, abort, make_response, request, session
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.access import current_grant
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.scoring import SideScore, score_deal
from scorekeeper.rules.variants import Variant
from scorekeeper.store.games import MAX_VERSION, Deal, Game
from scorekeeper.store.scores import deal_entry

VERSION_FIELD = "version"
MAX_VERSION_DIGITS = len(str(MAX_VERSION))
NOT_RESENT = frozenset({"csrf_token", VERSION_FIELD, "confirm"})


def posted_version(*, required: bool) -> int | None:
    """The version a posted form was made from: None when absent, 400 when not a whole
    number from 0 to MAX_VERSION."""
    raw = request.form.get(VERSION_FIELD)
    if raw is None:
        if required:
            return None
        return 0
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_VERSION_DIGITS) or (
        int(raw) > MAX_VERSION
    ):
        abort(
            400,
            description=_(
                "The form was damaged: its version field must be a whole number from 0 to "
                "%(most)s. Reload the page and try again.",
                most=MAX_VERSION,
            ),
        )
    return int(raw)


def deal_version(deal: Deal | None) -> int:
    """The version a deal form is made from: 0 for a deal not saved yet."""
    return deal.version if deal is not None else 0


@dataclass(frozen=True, slots=True)
class Version:
    """One version of a deal as the conflict page shows it."""

    entry: DealEntry
    scores: tuple[SideScore, ...]
    version: int | None
    """The stored version; None for what this phone sent."""


@dataclass(frozen=True, slots=True)
class DealConflict:
    game: Game
    number: int
    saved: Version | None
    """None when the deal was deleted meanwhile."""
    yours: Version
    based_on: int
    resend: tuple[tuple[str, str], ...]
    """The posted fields, to save this phone's deal over the saved one on purpose."""

    @property
    def current_version(self) -> int:
        return self.saved.version if self.saved is not None and self.saved.version else 0


def deal_conflict(
    game: Game, variant: Variant, number: int, yours: DealEntry, based_on: int
) -> DealConflict:
    stored = game.deal(number)
    saved = None
    if stored is not None:
        entry = deal_entry(game, stored, variant)
        saved = Version(entry, score_deal(entry), stored.version)
    resend = tuple(
        (name, value)
        for name, values in request.form.lists()
        if name not in NOT_RESENT
        for value in values[:1]
    )
    mine = Version(yours, score_deal(yours), None)
    return DealConflict(game, number, saved, mine, based_on, resend)


def conditional_page(load: Callable[[], Game], render: Callable[[Game], str]) -> Response:
    """The page for the view link, with an ETag: a 304 while the game is unchanged.

    The version read with the token decides the 304 before the game itself is loaded. The
    keeper's page (forms with CSRF tokens) and a page carrying a message are never cached.
    """
    grant = current_grant()
    if grant is None or grant.can_edit or session.get("_flashes"):
        return make_response(render(load()))
    locale = get_locale() or "en"
    etag = f"g{grant.game_id}v{grant.version}-{locale}"
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        game = load()
        response = make_response(render(game))
        etag = f"g{game.id}v{game.version}-{locale}"
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response
