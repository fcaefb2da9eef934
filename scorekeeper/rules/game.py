"""A whole game's score: every deal's lines, running totals, the leader and the winner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entry import DealEntry
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
    def finished(self) -> bool:
        return len(self.deals) == self.variant.deals

    @property
    def next_deal(self) -> int | None:
        """The lowest deal number not yet entered, or None when every deal is in."""
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
