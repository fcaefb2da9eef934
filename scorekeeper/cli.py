"""python -m scorekeeper score | demo"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from scorekeeper.rules.json_entry import answer, rejected
from scorekeeper.rules.messages import N_, Problem
from scorekeeper.rules.params import VariantRejected
from scorekeeper.rules.variant_json import MAX_FILE_BYTES, read_house_file


def score(stdin: str) -> int:
    """Score the deal given as JSON on standard input; print the API's answer."""
    try:
        data = json.loads(stdin)
    except ValueError as error:
        result = rejected(
            [Problem(None, None, N_("The input is not JSON: {error}."), {"error": error})]
        )
    else:
        result = answer(data)
    print(json.dumps(result.body, indent=2))
    return 0 if result.accepted else 1


def demo_house_rules(
    path: str, seed: int, as_json: bool, sides: int | None = None, players: int | None = None
) -> int:
    """Bots play a game under the house rules of an exported rules file, at the table of
    `sides` and `players` where given; 2 if the rules are refused or have no such table."""
    from scorekeeper.engine.demo import summary
    from scorekeeper.engine.game import play_game

    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
        variant = read_house_file(raw).checked_variant()
    except OSError as error:
        print(f"Cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    except VariantRejected as refusal:
        for problem in refusal.problems:
            print(problem.message, file=sys.stderr)
        return 2
    try:
        game = play_game(variant, seed, sides, players)
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    print(json.dumps(game.to_dict(), indent=2) if as_json else summary(game))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("score", help="score the deal read as JSON from standard input")
    demo = commands.add_parser("demo", help="play a whole game between bots")
    demo.add_argument("--variant", default="pagat")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--json", action="store_true", help="print the game as JSON")
    demo.add_argument("--sides", type=int, help="the table's sides (teams or players)")
    demo.add_argument("--players", type=int, help="the table's players")
    demo.add_argument(
        "--rules", metavar="FILE", help="house rules exported from the app, instead of --variant"
    )
    args = parser.parse_args(argv)
    if args.command == "score":
        return score(sys.stdin.read())
    if args.rules:
        return demo_house_rules(args.rules, args.seed, args.json, args.sides, args.players)
    from scorekeeper.engine.demo import run_demo

    return run_demo(args.variant, args.seed, args.json, args.sides, args.players)
