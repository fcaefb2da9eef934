"""How fast the engine plays: complete four-player deals a second, and one legality check.

Each variant's deals a second (of processor time) with the heuristic bot and with the random
bot are printed beside the floor measured in the same run on the same machine: the same deals
dealt alone (shuffling the shoe and dealing the packets, with no play), so a slow machine shows
as a slow floor rather than as a slow engine. A legality check is printed beside a bare Python
function call. Targets: at least 1,000 complete deals a second on one core with either bot, and
a legality check under 20 microseconds.

    python bench/bench_engine.py [--deals 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

# The checkout this file is in, first: an environment installed from another checkout (a
# shared virtual environment) must not be what is timed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import Bot, HeuristicBot, Meld, Phase, RandomBot, apply, is_legal
from scorekeeper.engine.actions import Action, Discard, Draw
from scorekeeper.engine.cards import FACES
from scorekeeper.engine.game import default_table, play_deal
from scorekeeper.engine.native import engine_build_words
from scorekeeper.engine.state import DealState, new_deal
from scorekeeper.rules.variants import Table, Variant, all_variants, get_variant

DEALS_TARGET = 1000.0
CHECK_TARGET_US = 20.0


def _nothing() -> None:
    return None


def floor_call_ns() -> float:
    """Nanoseconds of one call to an empty function."""
    timer = timeit.Timer(_nothing)
    count, _ = timer.autorange()
    return min(timer.repeat(5, count)) / count * 1e9


def heuristic_bots(table: Table, seed: int) -> list[Bot]:
    return [HeuristicBot()] * table.players


def random_bots(table: Table, seed: int) -> list[Bot]:
    """Random bots seeded as the random-play check seeds them (`fuzz.play_random_deal`)."""
    return [RandomBot(seed * 97 + seat) for seat in range(table.players)]


BOTS: dict[str, Callable[[Table, int], list[Bot]]] = {
    "heuristic": heuristic_bots,
    "random": random_bots,
}


def best_rate(run: Callable[[int], object], deals: int, repeats: int) -> float:
    """Deals a second of this process's processor time: the best of `repeats` runs over the
    same `deals` seeds. Processor time, not the clock's: on a shared machine, the time other
    processes take from this one does not count."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for seed in range(deals):
            run(seed)
        best = min(best, time.process_time() - start)
    return deals / best


def deals_per_second(variant: Variant, bot: str, deals: int, repeats: int) -> float:
    """Complete deals a second with `bot` at the variant's four-player table."""
    table = default_table(variant, players=4)
    make_bots = BOTS[bot]

    def play(seed: int) -> object:
        deal = seed % variant.deals + 1
        return play_deal(variant, deal, table, random.Random(seed), make_bots(table, seed))

    return best_rate(play, deals, repeats)


def dealt_per_second(variant: Variant, deals: int, repeats: int) -> float:
    """The floor: the same deals dealt a second, with no play."""
    table = default_table(variant, players=4)

    def deal(seed: int) -> object:
        return new_deal(variant, seed % variant.deals + 1, table, random.Random(seed))

    return best_rate(deal, deals, repeats)


def mid_deal(seed: int = 7, turn: int = 24) -> tuple[DealState, Action]:
    """A pagat deal played by bots up to a turn where the player melds after drawing."""
    variant = get_variant("pagat")
    table = default_table(variant)
    bot = HeuristicBot()
    for attempt in range(100):
        state = new_deal(variant, 2, table, random.Random(seed + attempt))
        while state.outcome is None:
            action = bot.choose(state)
            late = state.turn >= turn and state.phase is Phase.PLAY
            if late and isinstance(action, Meld) and len(action.plays) >= 2:
                return state, action
            apply(state, action)
    raise RuntimeError("no mid-deal state with a two-play meld found")


def check_us(state: DealState, action: Action) -> float:
    """Microseconds of one `is_legal` call."""
    timer = timeit.Timer(lambda: is_legal(state, action))
    count, _ = timer.autorange()
    return min(timer.repeat(5, count)) / count * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals in one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the best counts")
    args = parser.parse_args(argv)

    call_ns = floor_call_ns()
    print(f"floor: an empty function call {call_ns:.0f} ns")
    print(f"engine: {engine_build_words()}")
    print()
    print(
        f"complete four-player deals a second, best of {args.repeats} runs of {args.deals} "
        f"deals, beside the floor of dealing them alone (target >= {DEALS_TARGET:.0f}):"
    )
    print(f"  {'':<26} {'heuristic':>11} {'random':>11} {'floor':>11}  target")
    slowest = float("inf")
    for variant in all_variants():
        rates = [deals_per_second(variant, bot, args.deals, args.repeats) for bot in BOTS]
        floor = dealt_per_second(variant, args.deals, args.repeats)
        slowest = min(slowest, *rates)
        shown = " ".join(f"{rate:7.0f} d/s" for rate in (*rates, floor))
        verdict = "met" if min(rates) >= DEALS_TARGET else "MISSED"
        print(f"  {variant.id:<26} {shown}  {verdict}", flush=True)
    print()
    state, meld = mid_deal()
    checks = [
        ("meld of two plays", meld),
        ("discard", Discard(next(f for f in FACES if state.hands[state.current][f]))),
        ("draw (refused: drawn already)", Draw()),
    ]
    print(
        "one legality check, is_legal on a mid-deal pagat state "
        f"(target < {CHECK_TARGET_US:.0f} us):"
    )
    headline = 0.0
    for name, action in checks:
        micro = check_us(state, action)
        headline = headline or micro
        print(f"  {name:<30} {micro:6.2f} us  (= {micro * 1000 / call_ns:5.0f} empty calls)")
    print()
    ok = slowest >= DEALS_TARGET and headline < CHECK_TARGET_US
    print(
        f"slowest variant and bot {slowest:.0f} deals/s, meld check {headline:.2f} us: "
        + ("targets met" if ok else "TARGET MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
