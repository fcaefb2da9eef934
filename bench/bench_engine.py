"""How fast the engine plays: simulated four-player deals a second, and one legality check.

Each figure is printed beside a floor measured in the same run on the same machine: the
time of a bare Python function call and of a trivial loop step, so a slow machine shows as a
slow floor rather than as a slow engine. Targets: at least 200 deals a second on one core,
and a legality check under 20 microseconds.

    python bench/bench_engine.py [--deals 40] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from pathlib import Path

try:
    import scorekeeper  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import HeuristicBot, Meld, Phase, apply, is_legal
from scorekeeper.engine.actions import Action, Discard, Draw
from scorekeeper.engine.cards import FACES
from scorekeeper.engine.game import default_table, play_deal
from scorekeeper.engine.state import DealState, new_deal
from scorekeeper.rules.variants import all_variants, get_variant

DEALS_TARGET = 200.0
CHECK_TARGET_US = 20.0


def _nothing() -> None:
    return None


def floor_call_ns() -> float:
    """Nanoseconds of one call to an empty function."""
    timer = timeit.Timer(_nothing)
    count, _ = timer.autorange()
    return min(timer.repeat(5, count)) / count * 1e9


def floor_loop_ns() -> float:
    """Nanoseconds of one step of a loop that adds to a local."""
    timer = timeit.Timer("t += 1", setup="t = 0", globals={})
    count, _ = timer.autorange()
    return min(timer.repeat(5, count)) / count * 1e9


def deals_per_second(variant_id: str, deals: int, repeats: int) -> float:
    """Complete deals a second with the default bot at a four-player table: the best of
    `repeats` runs over the same `deals` seeds (the least disturbed by other processes)."""
    variant = get_variant(variant_id)
    table = default_table(variant, players=4)
    bots = [HeuristicBot()] * table.players
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for seed in range(deals):
            play_deal(variant, seed % 4 + 1, table, random.Random(seed), bots)
        best = min(best, time.perf_counter() - start)
    return deals / best


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
    parser.add_argument("--deals", type=int, default=40, help="deals in one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the best counts")
    args = parser.parse_args(argv)

    call_ns = floor_call_ns()
    loop_ns = floor_loop_ns()
    print(f"floor: an empty function call {call_ns:.0f} ns, a trivial loop step {loop_ns:.0f} ns")
    print()
    print(
        f"complete four-player deals a second, heuristic bot, best of {args.repeats} runs "
        f"of {args.deals} deals (target >= {DEALS_TARGET:.0f}):"
    )
    slowest = float("inf")
    for variant in all_variants():
        rate = deals_per_second(variant.id, args.deals, args.repeats)
        slowest = min(slowest, rate)
        per_deal_ms = 1000 / rate
        calls = per_deal_ms * 1e6 / call_ns
        print(
            f"  {variant.id:<26} {rate:7.0f} deals/s  ({per_deal_ms:5.2f} ms a deal "
            f"= {calls:9,.0f} empty calls)"
        )
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
        f"slowest variant {slowest:.0f} deals/s, meld check {headline:.2f} us: "
        + ("targets met" if ok else "TARGET MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
