"""The links a browser holds: the card tables and games it has joined, kept in its session.

The session cookie is encrypted (``sessions``), so the tokens in it cannot be read off the
cookie. Each list is bounded and keeps the newest; a token is checked whenever it is used,
never trusted because it is here. Anything malformed in a session is dropped.
"""

from __future__ import annotations

from flask import session

GAMES_KEY = "games"
TABLES_KEY = "tables"
OLD_GAMES_KEY = "edit_links"
"""Where sessions signed before encryption kept the games' edit links."""
REMEMBERED_GAMES = 40
REMEMBERED_TABLES = 12


def _pairs(key: str) -> list[tuple[int, str]]:
    pairs = []
    for item in session.get(key, []):
        if (
            isinstance(item, list | tuple)
            and len(item) == 2
            and isinstance(item[0], int)
            and isinstance(item[1], str)
        ):
            pairs.append((item[0], item[1]))
    return pairs


def _remember(key: str, limit: int, row_id: int, token: str) -> None:
    pairs = [pair for pair in _pairs(key) if pair[0] != row_id]
    pairs.append((row_id, token))
    session[key] = [list(pair) for pair in pairs[-limit:]]


def _forget(key: str, row_id: int) -> None:
    pairs = _pairs(key)
    kept = [list(pair) for pair in pairs if pair[0] != row_id]
    if len(kept) != len(pairs):
        session[key] = kept


def remember_game(game_id: int, token: str) -> None:
    """Keep a game's link (view or edit) as this browser's newest."""
    _remember(GAMES_KEY, REMEMBERED_GAMES, game_id, token)


def forget_game(game_id: int) -> None:
    _forget(GAMES_KEY, game_id)


def remembered_games() -> dict[int, str]:
    """Game id -> the token this browser keeps for it, oldest first."""
    if OLD_GAMES_KEY in session:
        old = _pairs(OLD_GAMES_KEY)
        session.pop(OLD_GAMES_KEY)
        for game_id, token in old:
            remember_game(game_id, token)
    return dict(_pairs(GAMES_KEY))


def remember_table(table_id: int, token: str) -> None:
    """Keep a card table's link (view or edit) as this browser's newest."""
    _remember(TABLES_KEY, REMEMBERED_TABLES, table_id, token)


def forget_table(table_id: int) -> None:
    _forget(TABLES_KEY, table_id)


def remembered_tables() -> dict[int, str]:
    """Card table id -> the token this browser keeps for it, oldest first."""
    return dict(_pairs(TABLES_KEY))
