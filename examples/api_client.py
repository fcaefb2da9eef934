"""A whole game kept through the score keeper's API: the demo bots play it, the API keeps it.

    python examples/api_client.py --server http://127.0.0.1:5000 --table=<card table edit token>

(`--table=`, with the sign: a token may begin with a dash.)

The bots of the project's own engine (``scorekeeper.engine``) play the deals; every call to the
server goes through the JSON API, with nothing but the standard library: the game is started at
the card table, each deal is saved with the version the last answer gave (``If-Match``), and the
scoreboard is read and printed at the end. Run it from the project's folder, with its ``.venv``.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from dataclasses import asdict
from typing import Any

from scorekeeper.engine.game import play_game
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.variants import get_variant

PLAYERS = ("Ann", "Bob", "Cy", "Di", "Emi", "Finn", "Gus", "Hal")


class ApiError(Exception):
    """An answer other than the one expected: its status and its problem details."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        super().__init__(f"{status}: {problem.get('detail') or problem.get('title')}")
        self.status = status
        self.problem = problem


class Server:
    """The API of one server, as a program calls it."""

    def __init__(self, address: str) -> None:
        self.api = address.rstrip("/") + "/api/v1"

    def call(
        self, method: str, path: str, token: str | None = None, body: object = None, **headers: str
    ) -> tuple[dict[str, Any], str]:
        """The answer's JSON and its ETag."""
        request = urllib.request.Request(self.api + path, method=method)
        request.add_header("Accept", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in headers.items():
            request.add_header(name.replace("_", "-"), value)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, data, timeout=30) as answer:
                return json.load(answer), answer.headers.get("ETag", "")
        except urllib.error.HTTPError as error:
            raise ApiError(error.code, json.load(error)) from None


def seating(sides: int, players: int) -> list[dict[str, Any]]:
    """The sides of a table, partners sitting across: player p plays for side p mod sides."""
    return [
        {
            "name": " & ".join(PLAYERS[p] for p in range(side, players, sides)),
            "players": [PLAYERS[p] for p in range(side, players, sides)],
        }
        for side in range(sides)
    ]


def deal_body(entry: DealEntry) -> dict[str, Any]:
    return {
        "sides": [asdict(side) for side in entry.sides],
        "stock_ran_out": entry.stock_ran_out,
        "accept_warnings": True,  # the bots' deals are real: a warning asks a person only
    }


def keep_a_game(server: Server, table_token: str, variant_id: str, seed: int) -> dict[str, Any]:
    """Start a game at the table, save every deal the bots play, and give the scoreboard."""
    demo = play_game(get_variant(variant_id), seed)
    started, etag = server.call(
        "POST",
        f"/tables/{table_token}/games",
        table_token,
        {
            "variant": variant_id,
            "players": demo.table.players,
            "sides": seating(demo.table.sides, demo.table.players),
        },
    )
    game = started["links"]["edit_token"]
    for entry in demo.entries:
        _saved, etag = server.call(
            "PUT", f"/games/{game}/deals/{entry.deal}", game, deal_body(entry), If_Match=etag
        )
    board, _etag = server.call("GET", f"/games/{game}/scoreboard")
    return board


def printed(board: dict[str, Any]) -> str:
    lines = [f"{side['name']}: {side['total']}" for side in board["sides"]]
    winners = [board["sides"][i]["name"] for i in board.get("winners", [])]
    if winners:
        lines.append("Won by " + ", ".join(winners))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server", required=True, help="the server's address, e.g. http://127.0.0.1:5000"
    )
    parser.add_argument("--table", required=True, help="a card table's edit token")
    parser.add_argument("--variant", default="pagat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        board = keep_a_game(Server(args.server), args.table, args.variant, args.seed)
    except ApiError as error:
        print(f"The server refused: {error}", file=sys.stderr)
        return 1
    print(printed(board))
    return 0


if __name__ == "__main__":
    sys.exit(main())
