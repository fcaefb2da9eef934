"""A whole game's score: every deal's lines, running totals, the leader and the winner."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .entry import DealEntry
from .messages import N_, Problem
from .scoring import SideScore, score_deal
from .variants import Variant


@dataclass(frozen=True, slots=True)
class DealResult:
    """One played deal: what was entered, each side's score, and the totals after it."""

    entry: DealEntry
    scores: tuple[SideScore, ...]
    running_totals: tuple[int, ...]

    @property
    def number(self) -> int:
        return self.entry.deal


@dataclass(frozen=True, slots=True)
class GameScore:
    variant: Variant
    side_names: tuple[str, ...]
    deals: tuple[DealResult, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return self.deals[-1].running_totals if self.deals else (0,) * len(self.side_names)

    @property
    def ended_after(self) -> int | None:
        """The deal after which the game ended, or None while it goes on.

        A game ends after its last deal; where the variant has a target score, it ends earlier,
        after the first deal (of deals 1, 2, 3... entered in a row) at which a side's total
        reaches the target.
        """
        if len(self.deals) == self.variant.deals:
            return self.deals[-1].number
        for expected, result in enumerate(self.deals, start=1):
            if result.number != expected:
                return None
            if self.variant.reached_target(result.running_totals):
                return result.number
        return None

    @property
    def finished(self) -> bool:
        return self.ended_after is not None

    @property
    def ended_at_target(self) -> bool:
        """Whether the game ended because a side reached the target score."""
        return self.finished and self.variant.reached_target(self.totals)

    @property
    def next_deal(self) -> int | None:
        """The lowest deal number not yet entered, or None when the game has ended."""
        if self.finished:
            return None
        played = {deal.number for deal in self.deals}
        return next((n for n in range(1, self.variant.deals + 1) if n not in played), None)

    @property
    def leaders(self) -> tuple[int, ...]:
        """Indexes of the sides with the highest total (more than one on a tie)."""
        if not self.deals:
            return ()
        best = max(self.totals)
        return tuple(i for i, total in enumerate(self.totals) if total == best)

    @property
    def winners(self) -> tuple[int, ...]:
        """The leaders once every deal is in; nobody before."""
        return self.leaders if self.finished else ()

    def deal(self, number: int) -> DealResult | None:
        return next((d for d in self.deals if d.number == number), None)


def score_game(
    variant: Variant, side_names: Sequence[str], entries: Sequence[DealEntry]
) -> GameScore:
    """Score the entered deals in deal order, keeping a running total per side."""
    running = [0] * len(side_names)
    results = []
    for entry in sorted(entries, key=lambda e: e.deal):
        scores = score_deal(entry)
        running = [total + score.total for total, score in zip(running, scores, strict=True)]
        results.append(DealResult(entry, scores, tuple(running)))
    return GameScore(variant, tuple(side_names), tuple(results))


def ends_game(entry: DealEntry) -> bool:
    """Whether the game ends with this deal: its last deal, or (where the entry carries each
    side's running score before it) the deal in which a side reaches the target score."""
    variant = entry.variant
    if entry.deal == variant.deals:
        return True
    if variant.target_score is None or entry.running_scores is None:
        return False
    scores = zip(entry.running_scores, score_deal(entry), strict=True)
    return variant.reached_target([before + score.total for before, score in scores])


def after_the_end(entry: DealEntry, entered: Iterable[int]) -> tuple[Problem, ...]:
    """A deal that would end the game at its target score while later deals are entered (an
    earlier deal changed): refused, naming the first later deal, which the table deletes
    first."""
    if entry.variant.target_score is None or not ends_game(entry):
        return ()
    later = sorted(number for number in entered if number > entry.deal)
    if not later:
        return ()
    return (
        Problem(
            None,
            "deal",
            N_(
                "With these scores a side reaches the target score of {target} in deal "
                "{deal}, which ends the game, but deal {later} is already entered: delete the "
                "later deals first."
            ),
            {"target": entry.variant.target_score, "deal": entry.deal, "later": later[0]},
        ),
    )
