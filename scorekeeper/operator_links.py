"""The operator's way back in for a keeper who lost an edit link (``flask tables edit-link``,
``flask games edit-link``): a new link, printed as the whole address the phones reach."""

from __future__ import annotations

import click
from flask import current_app

from scorekeeper.public_url import public_address
from scorekeeper.store.links import Linked, renew_edit_token


def renew_edit_link(model: type[Linked], row_id: int, what: str, prefix: str) -> None:
    """Give a game or card table a new edit link (the old one stops working) and print its
    whole address; the server never keeps the link."""
    token = renew_edit_token(model, row_id)
    if token is None:
        raise click.ClickException(f"There is no {what} {row_id}.")
    click.echo(f"{public_address(current_app).url}{prefix}{token}")
