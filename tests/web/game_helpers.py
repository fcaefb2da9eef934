"""Helpers for the web tests of a game shared by its links: start a game through the form, as
a phone does, and save deals with the version field."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT, form_values
from sqlalchemy import select

from scorekeeper.capabilities import TOKEN_LENGTH
from scorekeeper.extensions import db
from scorekeeper.rules.entry import DealEntry
from scorekeeper.store.deal_writes import write_deal
from scorekeeper.store.games import Deal, Game

DEAL = form_values(PAGAT_OUT, PAGAT_CAUGHT)


@dataclass(frozen=True)
class Links:
    game_id: int
    edit: str
    view: str

    @property
    def edit_path(self) -> str:
        return f"/g/{self.edit}"

    @property
    def view_path(self) -> str:
        return f"/g/{self.view}"


def start_game(app: Flask, client: FlaskClient, name: str = "Friday", **fields: str) -> Links:
    """A game started through the form; ``fields`` replace the form's other values."""
    response = client.post(
        "/games/new",
        data={
            "variant": "pagat",
            "table": "2x4",
            "name": name,
            "start": "1",
            "side_names-0": "Us",
            "side_names-1": "Them",
            **fields,
        },
    )
    assert response.status_code == 303
    match = re.fullmatch(
        rf"/g/([A-Za-z0-9_-]{{{TOKEN_LENGTH}}})/deals/1", response.headers["Location"]
    )
    assert match, response.headers["Location"]
    edit = match.group(1)
    with app.app_context():
        game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        return Links(game.id, edit, game.view_token)


def save(client: FlaskClient, links: Links, number: int, version: int, **changes: str):
    data = {**DEAL, "version": str(version), **changes}
    return client.post(f"{links.edit_path}/deals/{number}", data=data)


def store_deal(game: Game, entry: DealEntry) -> None:
    """Store an entry as the deal form's save does: a new deal, or an edit of the stored one.
    The caller commits."""
    db.session.flush()
    stored = db.session.scalar(
        select(Deal.version).where(Deal.game_id == game.id, Deal.number == entry.deal)
    )
    write_deal(game, entry, based_on=stored or 0)
