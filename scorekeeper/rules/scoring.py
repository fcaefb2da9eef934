"""Scoring one deal: card points, book bonuses, red threes, going out, other bonuses."""

from __future__ import annotations

from dataclasses import dataclass

from .entry import DealEntry, SideEntry
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


def score_lines(variant: Variant, side: SideEntry, stock_ran_out: bool = False) -> list[ScoreLine]:
    """The lines the variant scores for this side, in score-sheet order."""
    bonus = variant.book_bonus
    went_out = side.went_out and not stock_ran_out
    lines = [
        ScoreLine("meld_points", None, side.meld_points),
        ScoreLine("clean_books", side.clean_books, side.clean_books * bonus.clean),
        ScoreLine("dirty_books", side.dirty_books, side.dirty_books * bonus.dirty),
    ]
    if bonus.wild is not None:
        lines.append(ScoreLine("wild_books", side.wild_books, side.wild_books * bonus.wild))
    if bonus.black_three is not None:
        lines.append(
            ScoreLine(
                "black_three_books",
                side.black_three_books,
                side.black_three_books * bonus.black_three,
            )
        )
    lines += _special_book_lines(variant, side)
    lines.append(_red_three_line(variant, side, went_out))
    lines.append(ScoreLine("going_out", int(went_out), variant.going_out_bonus if went_out else 0))
    lines += _going_out_concealed_lines(variant, side, went_out)
    if variant.exact_22_bonus is not None:
        lines.append(ScoreLine("exact_22", side.exact_22, side.exact_22 * variant.exact_22_bonus))
    lines.append(ScoreLine("cards_left", None, -side.cards_left_points))
    return lines


def _special_book_lines(variant: Variant, side: SideEntry) -> list[ScoreLine]:
    """Clean books of the special rank, and books of red threes, where the variant has them.

    A special book earns its own bonus in place of the clean book bonus; a red-three book's
    bonus replaces the points its seven red threes would score laid down one by one.
    """
    bonus = variant.book_bonus
    lines = []
    if bonus.special is not None:
        lines.append(
            ScoreLine("special_books", side.special_books, side.special_books * bonus.special)
        )
    if bonus.red_three is not None:
        lines.append(
            ScoreLine(
                "red_three_books", side.red_three_books, side.red_three_books * bonus.red_three
            )
        )
    return lines


def _red_three_line(variant: Variant, side: SideEntry, went_out: bool) -> ScoreLine:
    """Red threes laid down (each worth less, on some tables, to a side that did not go out)
    and still held, as one line of two parts."""
    red = variant.red_three
    held = ScoreLine("red_threes_held", side.red_threes_held, side.red_threes_held * red.held)
    parts: tuple[ScoreLine, ...] = (held,)
    each_down = red.down_for(went_out) if red.down is not None else None
    if each_down is not None:  # where red threes are never laid down, there is no such line
        down = ScoreLine("red_threes_down", side.red_threes_down, side.red_threes_down * each_down)
        parts = (down, held)
    threes = sum(part.count or 0 for part in parts)
    return ScoreLine("red_threes", threes, sum(part.points for part in parts), parts)


def _going_out_concealed_lines(
    variant: Variant, side: SideEntry, went_out: bool
) -> list[ScoreLine]:
    """The extra bonus for going out concealed, where the variant pays one."""
    bonus = variant.going_out_concealed_bonus
    if not bonus:
        return []
    concealed = went_out and side.went_out_concealed
    return [ScoreLine("going_out_concealed", int(concealed), bonus if concealed else 0)]


def score_side(variant: Variant, side: SideEntry, stock_ran_out: bool = False) -> SideScore:
    lines = tuple(score_lines(variant, side, stock_ran_out))
    return SideScore(total=sum(line.points for line in lines), lines=lines)


def score_deal(entry: DealEntry) -> tuple[SideScore, ...]:
    """Every side's score for the deal. Validate the entry first: this only adds up."""
    return tuple(score_side(entry.variant, side, entry.stock_ran_out) for side in entry.sides)


def line_keys(variant: Variant) -> tuple[str, ...]:
    """The breakdown keys this variant scores (the rows of its score sheet)."""
    return tuple(line.key for line in score_lines(variant, SideEntry()))


def shown_lines(score: SideScore) -> tuple[ScoreLine, ...]:
    """A side's lines as a breakdown shows them, one row each: every line's parts in its place."""
    return tuple(part for line in score.lines for part in line.shown())


def shown_line_keys(variant: Variant) -> tuple[str, ...]:
    """The rows of a breakdown under this variant (``line_keys`` with each line's parts)."""
    return tuple(line.key for line in shown_lines(score_side(variant, SideEntry())))
