"""The paper sizes a sheet prints on and the widths of its columns, in points.

These numbers size the sheet's HTML (written into the page as inline styles), decide how many
games fit side by side, and let the PDF renderer stretch the rows to fill the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

POINTS_PER_MM = 72 / 25.4

MARGIN_MM = 12
"""The page margin on every side, for every paper size."""

DEAL_COLUMN_PT = 54.0
"""The left column: the deal number, its minimum first meld and its going-out books."""

LABEL_COLUMN_PT = 126.0
"""The columns naming each row (melded card points, clean books, ...) and what it is worth."""

HINT_COLUMN_PT = 52.0
"""The part of the label columns showing what one unit of the row is worth (× 500, +100)."""

MIN_SIDE_COLUMN_PT = 44.0
"""The narrowest column a side may get and still leave room for a written number."""

MAX_GAMES_PER_PAGE = 4

MIN_ROW_PT = 11.0
"""The height every score row starts from before the rows are stretched to fill the page."""

COMPACT_FROM_ROWS = 54
"""From this many score rows on (every deal's lines and totals), a sheet sets its rows in
smaller type, so that a game of up to eight deals, or of five with more lines, still fits one
page."""

COMPACT_MIN_ROW_PT = 8.0
"""The height a row of a compact sheet starts from."""


def is_compact(score_rows: int) -> bool:
    """Whether a sheet of so many score rows sets them in smaller type."""
    return score_rows >= COMPACT_FROM_ROWS


def least_row_pt(score_rows: int) -> float:
    """The least height of a score row on a sheet of `score_rows` rows."""
    return COMPACT_MIN_ROW_PT if is_compact(score_rows) else MIN_ROW_PT


MAX_ROW_PT = 24.0
"""Rows never grow past this: a short sheet leaves blank paper rather than huge rows."""


@dataclass(frozen=True, slots=True)
class Paper:
    id: str
    css_size: str
    width_mm: float
    height_mm: float

    @property
    def width_pt(self) -> float:
        return self.width_mm * POINTS_PER_MM

    @property
    def height_pt(self) -> float:
        return self.height_mm * POINTS_PER_MM

    @property
    def margin_pt(self) -> float:
        return MARGIN_MM * POINTS_PER_MM

    @property
    def content_width_pt(self) -> float:
        return self.width_pt - 2 * self.margin_pt

    @property
    def content_height_pt(self) -> float:
        return self.height_pt - 2 * self.margin_pt


PAPERS: Mapping[str, Paper] = {
    "letter": Paper("letter", "letter", 215.9, 279.4),
    "a4": Paper("a4", "A4", 210.0, 297.0),
}
LETTER_TERRITORIES = frozenset({"US", "CA"})
"""Where Letter is the usual paper; A4 everywhere else."""


def paper_for_territory(territory: str | None) -> Paper:
    """The paper a reader in ``territory`` (a region code such as "US", "FR") prints on."""
    return PAPERS["letter" if territory in LETTER_TERRITORIES else "a4"]


def side_columns_width_pt(paper: Paper) -> float:
    """The width left for the side columns once the deal and label columns are placed."""
    return paper.content_width_pt - DEAL_COLUMN_PT - LABEL_COLUMN_PT


def max_games_per_page(paper: Paper, sides: int) -> int:
    """How many games of `sides` sides fit next to each other on one page (at least one)."""
    fitting = int(side_columns_width_pt(paper) // (sides * MIN_SIDE_COLUMN_PT))
    return max(1, min(MAX_GAMES_PER_PAGE, fitting))


def side_column_width_pt(paper: Paper, sides: int, games: int) -> float:
    return side_columns_width_pt(paper) / (sides * games)
