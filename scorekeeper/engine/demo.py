"""The `demo` command: bots play a whole game and the result is printed, as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from ..rules.variants import UnknownVariant, all_variants, get_variant
from .game import DemoGame, play_game


def summary(game: DemoGame) -> str:
    """The game as a few lines of text: each deal's end and scores, then the totals."""
    names = game.side_names
    width = max(len(name) for name in names)
    lines = [
        f"{game.variant.name} ({game.variant.id}), seed {game.seed}: "
        f"{game.table.players} players, {game.table.sides} sides, {game.table.decks} decks",
    ]
    running = [0] * len(names)
    for deal in game.deals:
        if deal.went_out is None:
            how = "the stock ran out"
        else:
            how = f"{game.player_names[deal.went_out]} went out"
        lines.append("")
        lines.append(f"Deal {deal.deal}: {how} after {deal.turns} turns")
        for side, (name, entry) in enumerate(zip(names, deal.entry.sides, strict=True)):
            running[side] += deal.totals[side]
            books = [
                f"{count} {kind}"
                for kind, count in (
                    ("clean", entry.clean_books),
                    ("dirty", entry.dirty_books),
                    ("wild", entry.wild_books),
                    ("black-three", entry.black_three_books),
                    ("special", entry.special_books),
                    ("red-three", entry.red_three_books),
                )
                if count
            ]
            red = f"red threes {entry.red_threes_down} down"
            if entry.red_threes_held:
                red += f", {entry.red_threes_held} held"
            if entry.ladies_in_books:
                red += f", {entry.ladies_in_books} in clean books"
            cut = game.variant.cut_for(deal.deal)
            extras = f", cut {cut} x{entry.exact_22}" if entry.exact_22 else ""
            lines.append(
                f"  {name:<{width}}  {deal.totals[side]:>6}  (total {running[side]:>6})  "
                f"melded {entry.meld_points}, books: {', '.join(books) or 'none'}, {red}, "
                f"cards left {entry.cards_left_points}{extras}"
            )
    lines.append("")
    lines.append("Final scores:")
    for name, total in zip(names, game.totals, strict=True):
        lines.append(f"  {name:<{width}}  {total:>6}")
    winners = " and ".join(names[side] for side in game.winners)
    lines.append(f"Winner: {winners}" if len(game.winners) == 1 else f"Tie: {winners}")
    return "\n".join(lines)


def run_demo(
    variant: str,
    seed: int,
    as_json: bool = False,
    sides: int | None = None,
    players: int | None = None,
    out: TextIO | None = None,
) -> int:
    """Play a game of `variant` from `seed` and print it; 2 for an unknown variant or table."""
    stream = out if out is not None else sys.stdout
    try:
        game = play_game(get_variant(variant), seed, sides=sides, players=players)
    except UnknownVariant:
        known = ", ".join(v.id for v in all_variants())
        print(f"Unknown variant {variant!r}; choose one of: {known}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(game.to_dict(), indent=2), file=stream)
    else:
        print(summary(game), file=stream)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scorekeeper.engine.demo", description="Bots play a whole game."
    )
    parser.add_argument("--variant", default="pagat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sides", type=int)
    parser.add_argument("--players", type=int)
    parser.add_argument("--json", action="store_true", help="print the game as JSON")
    args = parser.parse_args(argv)
    return run_demo(args.variant, args.seed, args.json, args.sides, args.players)


if __name__ == "__main__":
    sys.exit(main())
