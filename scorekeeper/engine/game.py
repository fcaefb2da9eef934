"""Whole simulated games: bots play every deal of a variant from one seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.entry import SIDE_FIELDS, DealEntry
from ..rules.scoring import score_deal
from ..rules.variants import Table, Variant, get_variant
from .bots import Bot, HeuristicBot
from .entries import to_deal_entry
from .errors import TurnCapReached
from .legal import apply
from .state import DealState, new_deal

TURN_CAP = 2000
"""No deal needs this many turns; reaching it means the play is going round in circles."""

ACTION_CAP = 40 * TURN_CAP

COMPASS = ("North", "East", "South", "West")


def default_table(variant: Variant, sides: int | None = None, players: int | None = None) -> Table:
    """The variant's table for the sides and players asked; four players where possible."""
    if sides is not None or players is not None:
        for table in variant.tables:
            if (sides is None or table.sides == sides) and (
                players is None or table.players == players
            ):
                return table
        raise ValueError(
            f"{variant.name} has no table for {sides or 'any'} sides and {players or 'any'} players"
        )
    for table in variant.tables:
        if table.players == 4:
            return table
    return variant.tables[0]


def player_names(table: Table) -> tuple[str, ...]:
    if table.players == len(COMPASS):
        return COMPASS
    return tuple(f"Player {n}" for n in range(1, table.players + 1))


def side_names(table: Table) -> tuple[str, ...]:
    names = player_names(table)
    return tuple(
        " & ".join(names[p] for p in range(table.players) if p % table.sides == side)
        for side in range(table.sides)
    )


def play_deal(
    variant: Variant,
    deal: int,
    table: Table,
    rng: random.Random,
    bots: Sequence[Bot],
    running_scores: Sequence[int] | None = None,
) -> DealState:
    """Deal and play one deal to its end; raise TurnCapReached if it never ends.

    `running_scores`: each side's game score before the deal (first melds may follow it).
    """
    if len(bots) != table.players:
        raise ValueError(f"{table.players} players need {table.players} bots")

    def answer(state: DealState, asker: int) -> bool:
        partner = state.teammates[asker][0]
        return bots[partner].allows_going_out(state, asker)

    state = new_deal(variant, deal, table, rng, answer, running_scores)
    actions = 0
    turn_cap, action_cap = TURN_CAP, ACTION_CAP  # module globals: looked up by name
    # Each bot's method taken once: a bot is any object with it, looked up by name each call.
    choices = [bot.choose for bot in bots]
    while state.outcome is None:
        if state.turn >= turn_cap or actions >= action_cap:
            raise TurnCapReached(
                f"{variant.id} deal {deal}: no end after {state.turn} turns and {actions} actions"
            )
        apply(state, choices[state.current](state))
        actions += 1
    return state


@dataclass(frozen=True, slots=True)
class DemoDeal:
    """One simulated deal: the score sheet's entry and the rules core's totals for it."""

    entry: DealEntry
    totals: tuple[int, ...]
    went_out: int | None
    """The player who went out (None when the stock ran out)."""
    turns: int

    @property
    def deal(self) -> int:
        return self.entry.deal

    @property
    def stock_ran_out(self) -> bool:
        return self.entry.stock_ran_out

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.entry.deal,
            "stock_ran_out": self.entry.stock_ran_out,
            "sides": [
                {name: getattr(side, name) for name in SIDE_FIELDS} for side in self.entry.sides
            ],
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class DemoGame:
    """A whole simulated game of one variant from one seed."""

    variant: Variant
    seed: int
    table: Table
    side_names: tuple[str, ...]
    player_names: tuple[str, ...]
    deals: tuple[DemoDeal, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's score over the game."""
        sides = range(self.table.sides)
        return tuple(sum(deal.totals[side] for deal in self.deals) for side in sides)

    @property
    def entries(self) -> tuple[DealEntry, ...]:
        return tuple(deal.entry for deal in self.deals)

    @property
    def winners(self) -> tuple[int, ...]:
        best = max(self.totals)
        return tuple(side for side, total in enumerate(self.totals) if total == best)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.id,
            "seed": self.seed,
            "players": self.table.players,
            "sides": list(self.side_names),
            "deals": [deal.to_dict() for deal in self.deals],
        }


def play_game(
    variant: Variant | str,
    seed: int,
    sides: int | None = None,
    players: int | None = None,
    bot: Bot | Sequence[Bot] | None = None,
) -> DemoGame:
    """Play the variant's game with bots, deal by deal until it ends (after its last deal, or
    after the deal in which a side reaches the target score); the same seed gives the same
    game."""
    if isinstance(variant, str):
        variant = get_variant(variant)
    table = default_table(variant, sides, players)
    if bot is None:
        bots: Sequence[Bot] = [HeuristicBot()] * table.players
    elif isinstance(bot, Sequence):
        bots = bot
    else:
        bots = [bot] * table.players
    rng = random.Random(seed)
    deals: list[DemoDeal] = []
    for number in range(1, variant.deals + 1):
        scores = tuple(sum(d.totals[side] for d in deals) for side in range(table.sides))
        if variant.reached_target(scores):
            break
        state = play_deal(variant, number, table, rng, bots, scores)
        outcome = state.outcome
        entry = to_deal_entry(state)
        deals.append(
            DemoDeal(
                entry=entry,
                totals=tuple(score.total for score in score_deal(entry)),
                went_out=outcome.player if outcome is not None else None,
                turns=state.turn,
            )
        )
    return DemoGame(
        variant=variant,
        seed=seed,
        table=table,
        side_names=side_names(table),
        player_names=player_names(table),
        deals=tuple(deals),
    )
