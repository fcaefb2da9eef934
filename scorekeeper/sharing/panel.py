"""What the sharing panel of a scoreboard shows: the links, their QR codes, the poll."""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.games.models import Game

from .access import current_grant
from .not_modified import poll_etag
from .qr import qr_svg


@dataclass(frozen=True, slots=True)
class SharePanel:
    game_id: int
    view_url: str
    view_qr: Markup
    edit_url: str | None
    """Only for the holder of the edit link."""
    edit_qr: Markup | None
    poll_url: str
    etag: str


def game_etag(game: Game) -> str:
    """The game's entity tag, as an ETag header carries it (quoted)."""
    return f'"{poll_etag(game.id, game.version)}"'


def share_panel(game: Game) -> SharePanel:
    grant = current_grant()
    view_url = url_for("games.scoreboard", token=game.view_token, _external=True)
    edit_url = None
    edit_qr = None
    if grant is not None and grant.game_id == game.id and grant.can_edit:
        edit_url = url_for("games.scoreboard", token=grant.token, _external=True)
        edit_qr = qr_svg(edit_url, _("QR code of the edit link"))
    return SharePanel(
        game_id=game.id,
        view_url=view_url,
        view_qr=qr_svg(view_url, _("QR code of the view link")),
        edit_url=edit_url,
        edit_qr=edit_qr,
        poll_url=url_for("sharing.version", poll_token=game.view_token),
        etag=game_etag(game),
    )
