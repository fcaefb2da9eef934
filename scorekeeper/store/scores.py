"""A stored game read back into the rules core's values, and scored by it.

Every page, sheet and export that shows a game's score goes through ``game_score``: the stored
rows hold entries only, and the game is always scored with the rules frozen in ``Game.rules``,
never with the live variant of the same id.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry, SideEntry
from scorekeeper.rules.game import GameScore, score_game
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.variants import Variant, variant_from_dict
from scorekeeper.store.games import Deal, DealSide, Game


def game_variant(game: Game) -> Variant:
    """The rules the game was started with."""
    return variant_from_dict(game.rules)


def side_entry(row: DealSide) -> SideEntry:
    return SideEntry(**{name: getattr(row, name) for name in SIDE_FIELDS})


def deal_entry(game: Game, deal: Deal, variant: Variant | None = None) -> DealEntry:
    """One stored deal as the rules core's entry (``variant``: the game's, when already read)."""
    return DealEntry(
        variant=variant or game_variant(game),
        deal=deal.number,
        sides=tuple(side_entry(row) for row in deal.sides),
        players=game.players,
        stock_ran_out=deal.stock_ran_out,
    )


def game_score(game: Game) -> GameScore:
    """Every deal's breakdown, the running totals, the leader and the winner."""
    variant = game_variant(game)
    entries = [deal_entry(game, deal, variant) for deal in game.deals]
    return score_game(variant, game.side_names, entries)


def with_running_scores(game: Game, variant: Variant, entry: DealEntry) -> DealEntry:
    """The entry with each side's running score before it, where the variant sets the first
    meld by it (the rules core checks each side's first meld against its own score) or ends
    the game at a target score (no deal is played once a side has reached it)."""
    if not variant.first_meld_by_score and variant.target_score is None:
        return entry
    return replace(entry, running_scores=running_scores_before(game, variant, entry.deal))


def running_scores_before(game: Game, variant: Variant, number: int) -> tuple[int, ...]:
    """Each side's game score from the deals before deal `number`: where the first meld
    follows a side's running score, the score it is checked against."""
    totals = [0] * len(game.side_names)
    for deal in game.deals:
        if deal.number < number:
            for side, score in enumerate(score_deal(deal_entry(game, deal, variant))):
                totals[side] += score.total
    return tuple(totals)
