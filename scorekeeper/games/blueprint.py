"""The games blueprint itself: its addresses' tokens, the names its templates share, and the
game a view is about. The pages are in modules of their own (see ``views``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from babel.lists import format_list
from flask import Blueprint, abort
from flask_babel import format_date, format_decimal, get_locale
from flask_babel import gettext as _

from scorekeeper.access import pull_token, push_token
from scorekeeper.games.rule_links import rule_topic, rule_url
from scorekeeper.games.turns import deal_turn
from scorekeeper.store.game_service import load_game
from scorekeeper.store.games import Game
from scorekeeper.variant_texts import variant_text

bp = Blueprint("games", __name__)
# Game addresses carry a view or edit token (/g/<token>/...); the views get ``game_id``.
bp.url_value_preprocessor(pull_token)
bp.url_defaults(push_token)

bp.add_app_template_global(rule_url, "rule_url")
bp.add_app_template_global(rule_topic, "rule_topic")
bp.add_app_template_global(deal_turn, "deal_turn")


def game_title(game: Game) -> str:
    if game.name:
        return game.name
    return _(
        "%(variant)s, %(date)s",
        variant=variant_text(game.rules.get("name", game.variant_id)),
        date=format_date(game.created_at, "medium"),
    )


def names_of(indexes: Iterable[int], names: Sequence[str]) -> str:
    """The named sides as one phrase: "Ann, Bob and Cy"."""
    return format_list([names[i] for i in indexes], locale=get_locale() or "en")


@bp.app_context_processor
def _games_context() -> dict[str, object]:
    return {
        "game_title": game_title,
        "names_of": names_of,
        "format_number": format_decimal,
    }


def get_game(game_id: int) -> Game:
    """The game with its sides and deals, or 404."""
    game = load_game(game_id)
    if game is None:
        abort(404)
    return game
