"""The games blueprint: the list of games, a new game, the deal form and the scoreboard.

Each page lives in a module of its own, all on the one blueprint (``blueprint.bp``):
``game_pages`` (the list of games, a scoreboard, deleting a game), ``new_game_page``,
``deal_pages`` (the deal form, its save and its preview) and ``deal_saves`` (saving, Undo,
deleting a deal). Importing this module registers them all.
"""

from __future__ import annotations

from scorekeeper.games import deal_pages, deal_saves, game_pages, new_game_page
from scorekeeper.games.blueprint import bp

__all__ = ["bp", "deal_pages", "deal_saves", "game_pages", "new_game_page"]
