"""What the sharing panel of a scoreboard shows: the links, their QR codes, the poll."""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for

from scorekeeper.access import current_grant
from scorekeeper.live.poll_front import poll_etag
from scorekeeper.store.games import Game


@dataclass(frozen=True, slots=True)
class SharePanel:
    game_id: int
    view_url: str
    view_qr: str
    """The address of the view link's QR code (an SVG image)."""
    edit_url: str | None
    """Only for the holder of the edit link."""
    keeper: bool
    """Whether this browser may change the game (and so make new links)."""
    edit_qr: str | None
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
    keeper = grant is not None and grant.game_id == game.id and grant.can_edit
    if keeper and grant is not None and not grant.by_table:
        edit_url = url_for("games.scoreboard", token=grant.token, _external=True)
        edit_qr = url_for("sharing.qr_code", link_token=grant.token)
    return SharePanel(
        game_id=game.id,
        view_url=view_url,
        view_qr=url_for("sharing.qr_code", link_token=game.view_token),
        edit_url=edit_url,
        edit_qr=edit_qr,
        keeper=keeper,
        poll_url=url_for("sharing.version", poll_token=game.view_token),
        etag=game_etag(game),
    )
