"""The links a browser holds: the card tables and games it has joined, kept in its session.

The session cookie is encrypted (``sessions``), so the tokens in it cannot be read off the
cookie. Each list is bounded and keeps the newest; a token is checked whenever it is used,
never trusted because it is here. Anything malformed in a session is dropped.

In the cookie the lists are packed as bytes (``pack``, ``unpack``): a row id and a token's 32
bytes each, not the token's 43 characters of text in JSON, which the cookie's own encoding
would enlarge by a third again. So a browser holding all it may (12 tables, 40 games) carries
a cookie well under the 4 KB browsers keep.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import session

from scorekeeper.capabilities import TOKEN_BYTES, is_token

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


PACKED_KEYS = (TABLES_KEY, GAMES_KEY)
"""The session's lists that ``pack`` takes out of its JSON, in the order they are packed."""
_ID_LIMIT = 2**63


def _varint(number: int) -> bytes:
    """``number`` (0 or more) in 7-bit groups, low first, the high bit marking one to follow."""
    out = bytearray()
    while True:
        low, number = number & 0x7F, number >> 7
        out.append(low | (0x80 if number else 0))
        if not number:
            return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    """The number at ``at`` and where it ends; IndexError or ValueError when cut short."""
    number = shift = 0
    while True:
        byte = data[at]
        at += 1
        number |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return number, at
        shift += 7
        if shift > 63:
            raise ValueError("a row id past 2**63")


def _token_bytes(token: object) -> bytes | None:
    """The 32 bytes a token writes; None for anything that is not a token as the app makes it."""
    if not isinstance(token, str) or not is_token(token):
        return None
    raw = base64.urlsafe_b64decode(token + "=")
    return raw if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() == token else None


def _packed_pairs(items: object) -> bytes:
    if not isinstance(items, list):
        items = []
    pairs = []
    for item in items:
        if isinstance(item, list | tuple) and len(item) == 2 and type(item[0]) is int:
            raw = _token_bytes(item[1])
            if raw is not None and 0 <= item[0] < _ID_LIMIT:
                pairs.append(_varint(item[0]) + raw)
    return _varint(len(pairs)) + b"".join(pairs)


def pack(data: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """The session without its keyring, and the keyring as bytes (empty when it holds none)."""
    if not any(key in data for key in PACKED_KEYS):
        return data, b""
    rest = {key: value for key, value in data.items() if key not in PACKED_KEYS}
    return rest, b"".join(_packed_pairs(data.get(key)) for key in PACKED_KEYS)


def unpack(packed: bytes) -> dict[str, list[list[int | str]]]:
    """The keyring's lists from ``pack``'s bytes; what cannot be read is left out."""
    lists: dict[str, list[list[int | str]]] = {}
    at = 0
    try:
        for key in PACKED_KEYS:
            count, at = _read_varint(packed, at)
            pairs: list[list[int | str]] = []
            for _ in range(count):
                row_id, at = _read_varint(packed, at)
                raw = packed[at : at + TOKEN_BYTES]
                if len(raw) != TOKEN_BYTES:
                    raise ValueError("a token cut short")
                at += TOKEN_BYTES
                pairs.append([row_id, base64.urlsafe_b64encode(raw).rstrip(b"=").decode()])
            lists[key] = pairs
    except (IndexError, ValueError):
        pass
    return lists
