"""The pieces a rules page is made of (paragraphs, lists, tables, rows) and the writer that
makes them from one variant's rules, with the facts several sections share.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flask_babel import gettext as _

from scorekeeper.rules.decks import STANDARD, Deck, get_deck
from scorekeeper.rules.phrases import Register, wild_discard_words
from scorekeeper.rules.variants import ConcealedOpening, Variant
from scorekeeper.wording.words import (
    labelled,
    points,
    priced_cards,
    rank_symbol,
    red_three_rule,
    said,
)


@dataclass(frozen=True, slots=True)
class Row:
    """A table row (or quick-reference line): its cells, and whether a value is a default."""

    cells: tuple[str, ...]
    inferred: bool = False
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph ("p"), a list ("ul", "ol"), a table ("table") or the differences ("diffs")."""

    kind: str
    text: str = ""
    items: tuple[str, ...] = ()
    head: tuple[str, ...] = ()
    rows: tuple[Row, ...] = ()
    diffs: tuple[Row, ...] = ()
    """Each rule that differs from the baseline: label, value and the baseline's value."""
    inferred: bool = False
    see: tuple[str, ...] = ()

    def texts(self) -> Iterable[str]:
        """Every piece of text in the block, for the search index."""
        if self.text:
            yield self.text
        yield from self.items
        for row in self.rows:
            yield " ".join(row.cells)
        for diff in self.diffs:
            yield labelled(diff.cells[0], diff.cells[1])


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    blocks: tuple[Block, ...]
    keywords: str = ""

    def texts(self) -> Iterable[str]:
        for block in self.blocks:
            yield from block.texts()


@dataclass(frozen=True, slots=True)
class QuickGroup:
    title: str
    rows: tuple[Row, ...]
    link: str


class BlockWriter:
    """Builds the blocks of one variant's sections; `names` are the fields a block states."""

    def __init__(self, variant: Variant) -> None:
        self.v = variant

    def inferred(self, names: Iterable[str]) -> bool:
        return any(self.v.is_inferred(name) for name in names)

    def p(self, text: str, *names: str, see: tuple[str, ...] = ()) -> Block:
        return Block("p", text=text, inferred=self.inferred(names), see=see)

    def ul(self, items: Iterable[str], *names: str, ordered: bool = False) -> Block:
        kind = "ol" if ordered else "ul"
        return Block(kind, items=tuple(items), inferred=self.inferred(names))

    def table(self, head: tuple[str, ...], rows: Iterable[Row]) -> Block:
        rows = tuple(rows)
        return Block("table", head=head, rows=rows)

    def row(self, *cells: str, names: Iterable[str] = (), link: str | None = None) -> Row:
        return Row(tuple(cells), inferred=self.inferred(names), link=link)

    @property
    def partnership(self) -> bool:
        return any(table.is_partnership for table in self.v.tables)

    @property
    def solo(self) -> bool:
        """Every player plays for themselves: the pages speak of "you", never of a side."""
        return not self.partnership

    def sided(self, side_text: str, solo_text: str) -> str:
        return solo_text if self.solo else side_text

    def wild_discard_text(self) -> str:
        return said(wild_discard_words(self.v.wild_discard, Register.FULL))

    def wild_melds_text(self) -> str:
        if self.v.wild_books:
            return _(
                "Wild cards may also be melded on their own, twos and jokers mixed, to make a "
                "wild meld; completed, it is a wild book worth %(bonus)s.",
                bonus=points(self.v.book_bonus.wild or 0),
            )
        return _("Wild cards can never be melded on their own: every meld needs natural cards.")

    def red_three_rule(self) -> str:
        return red_three_rule(self.v.red_three)

    def card_value(self, name: str, value: int) -> str:
        # A black three is only ever counted against its side.
        return points(-value) if name == "black_three" else points(value)

    def card_rows(self) -> list[Row]:
        rows = []
        for name, label, value in priced_cards(self.v):
            if name == "black_three_melded" and not self.v.black_three_books:
                continue
            rows.append(
                self.row(
                    label,
                    self.card_value(name, value),
                    names=("card_points",),
                    link="card-values",
                )
            )
        return rows

    @property
    def deck(self) -> Deck:
        return get_deck(self.v.deck)

    def rank_words(self, index: int) -> str:
        """The deck's highest (0) or lowest (-1) natural rank, as the cards print it."""
        card = self.deck.naturals[index]
        return rank_symbol(card.symbol) if self.deck is STANDARD else _(card.name)

    def first_meld_rows(self) -> list[Row]:
        return [
            self.row(str(deal), self.first_meld_cell(deal), names=("first_meld",))
            for deal in range(1, self.v.deals + 1)
        ]

    def threshold_rows(self) -> list[Row]:
        ordered = sorted(self.v.first_meld_by_score, key=lambda threshold: threshold.from_score)
        return [
            self.row(
                _("from %(score)s", score=points(threshold.from_score)),
                points(threshold.minimum),
                names=("first_meld_by_score",),
            )
            for threshold in ordered
        ]

    def first_meld_cell(self, deal: int) -> str:
        minimum = points(self.v.first_meld_for(deal))
        if (
            deal in self.v.concealed_book_first_meld_deals
            and self.v.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS
        ):
            return _("a concealed book") + " (" + _("instead of %(points)s", points=minimum) + ")"
        return minimum
