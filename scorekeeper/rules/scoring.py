"""Scoring one deal: each line the variant has (``score_lines``), priced by its spec."""

from __future__ import annotations

from dataclasses import dataclass

from .entry import DealEntry, SideEntry
from .score_lines import DealFacts, LineSpec, shown_specs, variant_lines
from .variants import Variant


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a side's deal score: what it counts, how many, and the points."""

    key: str
    count: int | None
    points: int
    parts: tuple[ScoreLine, ...] = ()
    """The lines this one adds up, when they are worth telling apart (red threes laid down and
    still held): a breakdown shows them, each on its own, in its place."""

    def shown(self) -> tuple[ScoreLine, ...]:
        """This line as a breakdown shows it: its parts, or itself."""
        return self.parts or (self,)


@dataclass(frozen=True, slots=True)
class SideScore:
    total: int
    lines: tuple[ScoreLine, ...]

    @property
    def breakdown(self) -> dict[str, int]:
        return {line.key: line.points for line in self.lines}


def _scored(spec: LineSpec, variant: Variant, side: SideEntry, deal: DealFacts) -> ScoreLine:
    parts = tuple(_scored(part, variant, side, deal) for part in spec.parts if part.has(variant))
    return ScoreLine(spec.key, spec.count(side, deal), spec.price(variant, side, deal), parts)


def score_lines(
    variant: Variant, side: SideEntry, stock_ran_out: bool = False, deal: int = 1
) -> list[ScoreLine]:
    """The lines the variant scores for this side in deal ``deal``, in score-sheet order."""
    facts = DealFacts(deal, stock_ran_out)
    return [_scored(spec, variant, side, facts) for spec in variant_lines(variant)]


def score_side(
    variant: Variant, side: SideEntry, stock_ran_out: bool = False, deal: int = 1
) -> SideScore:
    lines = tuple(score_lines(variant, side, stock_ran_out, deal))
    return SideScore(total=sum(line.points for line in lines), lines=lines)


def score_deal(entry: DealEntry) -> tuple[SideScore, ...]:
    """Every side's score for the deal. Validate the entry first: this only adds up."""
    return tuple(
        score_side(entry.variant, side, entry.stock_ran_out, entry.deal) for side in entry.sides
    )


def line_keys(variant: Variant) -> tuple[str, ...]:
    """The breakdown keys this variant scores (the rows of its score sheet)."""
    return tuple(spec.key for spec in variant_lines(variant))


def shown_lines(score: SideScore) -> tuple[ScoreLine, ...]:
    """A side's lines as a breakdown shows them, one row each: every line's parts in its place."""
    return tuple(part for line in score.lines for part in line.shown())


def shown_line_keys(variant: Variant) -> tuple[str, ...]:
    """The rows of a breakdown under this variant (``line_keys`` with each line's parts)."""
    return tuple(spec.key for spec in shown_specs(variant))
