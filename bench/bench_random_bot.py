"""The long run of random play against the rules core: deals a second, and every refusal found.

Random bots (uniform among the engine's legal actions) play each variant, and the house rules
of `fuzz.HOUSE_RULES_PLAYED`, at its usual table, then at every other table it or the sources
allow (`fuzz.SOURCE_TABLES`), then against heuristic bots on one side, which go out;
every finished deal goes through the validator, and any error, any number of its entry that
differs from the table it was read from, or any card lost is printed. Deals a second (of
processor time) are counted for the play alone, the checks apart, beside the floor measured in
the same run: dealing alone, shuffling the shoe and dealing the packets of a deal with no
play, so a slow machine shows as a slow floor rather than as slow play. Target: 1,000 deals a
second played at each variant's usual table; the last line says whether every variant met it.

    python bench/bench_random_bot.py [--deals 10000] [--other-deals 1000]
        [--going-out-deals 1000] [--variant pagat] [--seed 0] [--packs]

With --packs, each variant is played with HANDnFOOT packs (one pack a five decks, rounded up)
instead of standard decks.

Exits 1 if any deal was refused or scored apart (a missed speed target is reported, not
counted: bench_engine.py is the speed check).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

# The checkout this file is in, first: an environment installed from another checkout (a
# shared virtual environment) must not be what is timed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine.fuzz import (
    Finding,
    check_finished,
    house_variants_played,
    play_random_deal,
    tables_the_sources_allow,
    tables_to_play,
)
from scorekeeper.engine.game import default_table
from scorekeeper.engine.native import engine_build_words
from scorekeeper.engine.state import new_deal
from scorekeeper.rules.decks import HANDNFOOT
from scorekeeper.rules.variants import Table, Variant, all_variants, get_variant

FINDINGS_SHOWN = 20
DEALS_TARGET = 1000.0
"""Deals a second played at a variant's usual table (the checks apart)."""


def dealing_floor(variant: Variant, deals: int = 200) -> float:
    """Deals dealt a second of processor time, with no play: the floor."""
    table = default_table(variant)
    start = time.process_time()
    for seed in range(deals):
        new_deal(variant, seed % variant.deals + 1, table, random.Random(seed))
    return deals / max(time.process_time() - start, 1e-9)


def with_packs(variant: Variant) -> Variant:
    """The variant played with HANDnFOOT packs: a pack for every five decks, rounded up."""
    stands_for = HANDNFOOT.stands_for
    tables = tuple(replace(table, decks=-(-table.decks // stands_for)) for table in variant.tables)
    return variant.with_changes(deck=HANDNFOOT.id, tables=tables)


Result = tuple[float, list[Finding], int, float]
"""Deals played a second, the findings, the deals someone went out of, turns a deal."""


def run(
    variant: Variant, table: Table, deals: int, first_seed: int, against_heuristic: bool = False
) -> Result:
    """Deals played a second of processor time (the checks apart), the findings, how many
    deals ended with someone going out, and the turns a deal took on average (a table of many
    cards plays long deals: its deals a second say so)."""
    findings: list[Finding] = []
    went_out = 0
    turns = 0
    playing = 0.0
    for seed in range(first_seed, first_seed + deals):
        start = time.process_time()
        state = play_random_deal(variant, table, seed, against_heuristic)
        playing += time.process_time() - start
        if state.outcome is not None and state.outcome.player is not None:
            went_out += 1
        turns += state.turn
        findings.extend(check_finished(state, seed))
    return deals / max(playing, 1e-9), findings, went_out, turns / max(deals, 1)


def report(label: str, result: Result, floor: float | None) -> None:
    rate, findings, went_out, turns = result
    floor_text = f" (floor: {floor:6.0f} dealt/s)" if floor is not None else ""
    print(
        f"    {label:<40} {rate:6.0f} deals/s played{floor_text}, {turns:.0f} turns a deal, "
        f"{went_out} went out, {len(findings)} refusal(s) or difference(s)",
        flush=True,
    )
    for finding in findings[:FINDINGS_SHOWN]:
        print(f"      {finding}")


def main_runs(variant: Variant, args: argparse.Namespace) -> list[tuple[str, Table, int, bool]]:
    """Each run of one variant: its label, table, deals and whether a side plays heuristic."""
    usual, *others = tables_to_play(variant)
    runs = [(f"usual table, {usual.players} players {usual.sides} sides", usual, args.deals, False)]
    runs += [
        (
            f"{table.players} players {table.sides} sides {table.decks} decks",
            table,
            args.other_deals,
            False,
        )
        for table in others
    ]
    runs.append(("usual table, one side heuristic", usual, args.going_out_deals, True))
    return [run for run in runs if run[2] > 0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=10_000, help="deals a variant at its usual table"
    )
    parser.add_argument(
        "--other-deals", type=int, default=1_000, help="deals at each other table (0: none)"
    )
    parser.add_argument(
        "--going-out-deals",
        type=int,
        default=1_000,
        help="deals with one side of heuristic bots, which go out (0: none)",
    )
    parser.add_argument(
        "--variant",
        help="one variant id (default: all built-in variants and the house rules random play "
        "covers)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--packs", action="store_true", help="play with HANDnFOOT packs")
    args = parser.parse_args(argv)
    houses = {variant.id: variant for variant in house_variants_played()}
    if args.variant:
        variants = [houses.get(args.variant) or get_variant(args.variant)]
    else:
        variants = [*all_variants(), *houses.values()]
    if args.packs:
        variants = [with_packs(variant) for variant in variants]

    print(f"random bots, seeds from {args.seed} (target >= {DEALS_TARGET:.0f} deals/s played)")
    print(f"engine: {engine_build_words()}")
    total: list[Finding] = []
    slowest: tuple[float, str] | None = None
    for variant in variants:
        playable = variant.with_changes(tables=tables_the_sources_allow(variant))
        floor = dealing_floor(playable)
        print(f"  {variant.id}", flush=True)
        usual = tables_to_play(playable)[0]
        for label, table, deals, against_heuristic in main_runs(playable, args):
            result = run(playable, table, deals, args.seed, against_heuristic)
            total += result[1]
            report(label, result, floor if table == usual else None)
            if table == usual and not against_heuristic:
                slowest = min(slowest or (result[0], variant.id), (result[0], variant.id))
    print()
    if slowest is not None:
        rate, variant_id = slowest
        verdict = "target met" if rate >= DEALS_TARGET else "TARGET MISSED"
        print(f"slowest usual table: {variant_id} {rate:.0f} deals/s played: {verdict}")
    print(f"refusals and differences found: {len(total)}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
