"""What a printed score sheet shows, as plain values for its template.

The rows, their names and the points beside them come from the score-line spec
(`rules.score_lines`) and every number from the variant's data, so a new variant needs no
change here. Words are translated here (inside a request, in its language);
the template only lays the values out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from babel.lists import format_list
from flask_babel import format_decimal, get_locale, ngettext
from flask_babel import gettext as _

from scorekeeper.printing.geometry import (
    DEAL_COLUMN_PT,
    HINT_COLUMN_PT,
    LABEL_COLUMN_PT,
    Paper,
    is_compact,
    least_row_pt,
    side_column_width_pt,
)
from scorekeeper.rules.cards import CardKind, kind_of_rank
from scorekeeper.rules.decks import STANDARD, get_deck
from scorekeeper.rules.game import GameScore
from scorekeeper.rules.phrases import (
    Register,
    books_to_go_out_short,
    going_out_books_rules,
    red_three_rule,
)
from scorekeeper.rules.score_lines import (
    LineSpec,
    exact_cut,
    exact_cuts,
    line_label,
    rank_plural,
    shown_parts,
    variant_lines,
)
from scorekeeper.rules.scoring import SideScore
from scorekeeper.rules.variants import BookCount, ConcealedOpening, Variant
from scorekeeper.variant_texts import variant_text
from scorekeeper.wording.breakdown import count_label
from scorekeeper.wording.words import (
    deal_values,
    priced_cards,
    rank_span,
    rank_symbol,
    ranks_of,
    said,
)

DEAL_TOTAL = "deal_total"
RUNNING_TOTAL = "running_total"


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a deal: a scored line, the deal total or the running total."""

    key: str
    label: str
    hint: str = ""
    total: bool = False


@dataclass(frozen=True, slots=True)
class DealBlock:
    number: int
    first_meld: str
    first_meld_note: str
    going_out: tuple[str, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    count: str = ""
    strong: bool = False


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    number: int
    winner: bool = False
    long: bool = False
    """The name may not fit one line: it is set smaller, in at most three lines."""


@dataclass(frozen=True, slots=True)
class GameBlock:
    heading: str
    columns: tuple[Column, ...]
    cells: Mapping[tuple[int, str], tuple[Cell, ...]] = field(default_factory=dict)
    notes: Mapping[int, str] = field(default_factory=dict)
    """A remark on a played deal (the stock ran out), by deal number."""

    def cell(self, deal: int, key: str, side: int) -> Cell | None:
        row = self.cells.get((deal, key))
        return row[side] if row is not None else None


@dataclass(frozen=True, slots=True)
class ReferenceItem:
    label: str
    text: str
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class InfoItem:
    """A line of the sheet's heading: a label and its value, or a line to write on."""

    label: str
    value: str = ""


@dataclass(frozen=True, slots=True)
class Sheet:
    variant: Variant
    players: int | None
    """Players at the table (None: the variant's usual table for this many sides)."""
    paper: Paper
    title: str
    subtitle: str
    info: tuple[InfoItem, ...]
    deals: tuple[DealBlock, ...]
    games: tuple[GameBlock, ...]
    reference: tuple[ReferenceItem, ...]
    footnote: str
    filled: bool = False
    last_deal: int | None = None
    """The last deal printed, where a game ended at its target score before the variant's last
    deal (None: every deal of the variant)."""

    @property
    def sides(self) -> int:
        return len(self.games[0].columns)

    @property
    def compact(self) -> bool:
        """Whether the rows are set in smaller type, for a game of many deals."""
        return is_compact(self.score_rows)

    @property
    def least_row_pt(self) -> float:
        """The least height of a score row (the same for the cut-down copy that is measured)."""
        return least_row_pt(self.score_rows)

    @property
    def score_rows(self) -> int:
        """The rows of every deal: its scored lines and its two totals."""
        deals = self.last_deal or self.variant.deals
        return deals * (len(variant_lines(self.variant)) + 2)

    def fit_key(self, language: str) -> tuple[object, ...]:
        """What the height of the sheet's fixed parts depends on: its shape, not its numbers.

        The heading and the side names keep to a fixed height, so a blank sheet and a game's
        sheet of the same variant, table, paper and language share one measured row height.
        """
        shape = (self.variant, self.sides, self.players, self.paper.id, len(self.games), language)
        return shape if self.last_deal is None else (*shape, self.last_deal)

    def measuring_sample(self, deals: int) -> Sheet:
        """A cut-down copy as tall as the sheet would be, quick to lay out (to measure it).

        It keeps the first `deals` deals (every deal has the same rows, so the others are as
        tall as these) and one empty column per game: the row heights do not depend on the
        side columns, whose names keep to the fixed height of their row.
        """
        games = tuple(
            replace(game, columns=game.columns[:1], cells={}, notes={}) for game in self.games
        )
        return replace(self, games=games, deals=self.deals[:deals])

    @property
    def stretch_rows(self) -> int:
        """The rows that grow when the sheet is stretched to fill its page."""
        return sum(len(deal.rows) for deal in self.deals)

    @property
    def reference_halves(self) -> tuple[tuple[ReferenceItem, ...], tuple[ReferenceItem, ...]]:
        """The reference items in two columns of about the same length of text."""
        sizes = [len(item.label) + len(item.text) for item in self.reference]
        total, running, split = sum(sizes), 0, len(sizes)
        for index, size in enumerate(sizes):
            if running + size / 2 > total / 2:
                split = index
                break
            running += size
        return self.reference[:split], self.reference[split:]

    @property
    def deal_column_pt(self) -> float:
        return DEAL_COLUMN_PT

    @property
    def label_column_pt(self) -> float:
        return LABEL_COLUMN_PT - HINT_COLUMN_PT

    @property
    def hint_column_pt(self) -> float:
        return HINT_COLUMN_PT

    @property
    def side_column_pt(self) -> float:
        return side_column_width_pt(self.paper, self.sides, len(self.games))


def number(value: int) -> str:
    return str(format_decimal(value))


def signed(value: int) -> str:
    return "+" + number(value) if value > 0 else number(value)


def _list(items: Sequence[str]) -> str:
    return format_list(list(items), locale=get_locale() or "en")


def _unit_text(spec: LineSpec, variant: Variant, deal: int) -> str:
    """The points of one counted thing of a part line: "+100", or "+100 (+50)" where a side
    that did not go out scores less."""
    assert spec.unit is not None
    out, not_out = spec.unit(variant, True, deal), spec.unit(variant, False, deal)
    if out == not_out:
        return signed(out or 0)
    return _("%(out)s (%(not_out)s)", out=signed(out or 0), not_out=signed(not_out or 0))


def _line_hint(line: LineSpec, variant: Variant, deal: int) -> str:
    """The reminder beside a row: what one unit is worth ("× 500", "+100 each", "+100"), or
    the sign of a line of card points."""
    if line.unit is None and not line.parts:
        return "−" if line.against else "+"
    parts = shown_parts(line, variant)
    units = [_unit_text(part, variant, deal) for part in parts]
    if len(set(units)) > 1:
        return _("%(down)s / %(held)s", down=units[0], held=units[-1])
    if all(field.flag for field in line.fields) and line.fields:
        return units[0]
    if line.counts == "books":
        assert line.unit is not None
        return _("× %(points)s", points=number(line.unit(variant, True, deal) or 0))
    return _("%(points)s each", points=units[0])


def books_parts(books: BookCount) -> tuple[str, ...]:
    """The books a side needs, one kind each: ("2 clean", "2 dirty", "1 wild")."""
    return tuple(part.render(_, str) for part in books_to_go_out_short(books))


def books_text(books: BookCount) -> str:
    """The books a side needs, as "2 clean, 2 dirty, 1 wild"."""
    return ", ".join(books_parts(books))


def _first_meld_words(variant: Variant, deal: int) -> tuple[str, str]:
    """The deal's first meld as the sheet prints it: the minimum, and a note beside it."""
    minimum = number(variant.first_meld_for(deal))
    if variant.first_meld_by_score:
        minimum = _("by score")
    if deal not in variant.concealed_book_first_meld_deals:
        return minimum, _("and a book") if deal in variant.book_first_meld_deals else ""
    if variant.concealed_opening is ConcealedOpening.WITH_POINTS:
        return minimum, _("and a concealed book")
    return _("a concealed book"), _("instead of %(points)s", points=minimum)


def _line_rows(variant: Variant, deal: int) -> tuple[Row, ...]:
    """A deal's scored rows: each line's name and, beside it, what it is worth in that deal."""
    return tuple(
        Row(line.key, line_label(line, variant, deal).render(_), _line_hint(line, variant, deal))
        for line in variant_lines(variant)
    )


def deal_blocks(variant: Variant) -> tuple[DealBlock, ...]:
    totals = (
        Row(DEAL_TOTAL, _("Deal total"), total=True),
        Row(RUNNING_TOTAL, _("Running total"), total=True),
    )
    blocks = []
    for deal in range(1, variant.deals + 1):
        first_meld, note = _first_meld_words(variant, deal)
        blocks.append(
            DealBlock(
                number=deal,
                first_meld=first_meld,
                first_meld_note=note,
                going_out=books_parts(variant.going_out_for(deal)),
                rows=_line_rows(variant, deal) + totals,
            )
        )
    return tuple(blocks)


def _deck_card_values(variant: Variant) -> list[str]:
    """The card values of a deck other than the standard one, by its own card names."""
    if get_deck(variant.deck) is STANDARD:
        return []
    return [
        _("%(card)s: %(points)s", card=label, points=number(value))
        for name, label, value in priced_cards(variant)
        if name != "black_three_melded"
    ]


def _ranks_apart(variant: Variant) -> list[str]:
    """The high cards, the ranks priced apart (9, 8) and the low cards, each with its points,
    where the variant prices nines or eights apart from the others of their kind."""
    points = variant.card_points
    apart = points.ranks_apart
    spans = [
        (rank_span(ranks_of(CardKind.HIGH, apart)), points.high),
        *((rank_symbol(rank), points.of_rank(rank, kind_of_rank(rank))) for rank in apart),
        (rank_span(ranks_of(CardKind.LOW, apart)), points.low),
    ]
    return [_("%(card)s: %(points)s", card=span, points=number(value)) for span, value in spans]


def _card_values(variant: Variant) -> str:
    points = variant.card_points
    middle = (
        _ranks_apart(variant)
        if points.ranks_apart
        else [
            _("K–8: %(points)s", points=number(points.high)),
            _("7–4: %(points)s", points=number(points.low)),
        ]
    )
    parts = _deck_card_values(variant) or [
        _("joker: %(points)s", points=number(points.joker)),
        _("2: %(points)s", points=number(points.two)),
        _("A: %(points)s", points=number(points.ace)),
        *middle,
        _("black 3: %(points)s", points=number(points.black_three)),
    ]
    text = " · ".join(parts)
    text += ". " + _("Melded cards count for the side; cards left in hand or foot, against.")
    if points.black_three_melded:
        text += " " + _(
            "A black three in a black-three book scores %(points)s.",
            points=signed(points.black_three_melded),
        )
    return text


def _book_bonuses(variant: Variant) -> str:
    bonus = variant.book_bonus
    parts = [
        _("clean %(points)s", points=number(bonus.clean)),
        _("dirty %(points)s", points=number(bonus.dirty)),
    ]
    if bonus.wild is not None:
        parts.append(_("wild %(points)s", points=number(bonus.wild)))
    if bonus.black_three is not None:
        parts.append(_("black threes %(points)s", points=number(bonus.black_three)))
    if bonus.special is not None and bonus.special_rank is not None:
        parts.append(
            _(
                "clean %(rank)s %(points)s",
                rank=_(rank_plural(bonus.special_rank)),
                points=number(bonus.special),
            )
        )
    if bonus.red_three is not None:
        parts.append(_("red threes %(points)s", points=number(bonus.red_three)))
    return " · ".join(parts)


def _red_threes(variant: Variant) -> str:
    return red_three_rule(variant.red_three, Register.SHEET).render(_, signed)


def _going_out(variant: Variant) -> str:
    text = _("%(bonus)s.", bonus=deal_values(variant.going_out_bonus, signed))
    if variant.going_out_concealed_bonus:
        text += " " + _(
            "%(bonus)s more for going out concealed.",
            bonus=signed(variant.going_out_concealed_bonus),
        )
    needs = [variant.going_out_for(deal) for deal in range(1, variant.deals + 1)]
    if len(set(needs)) == 1:
        text += " " + _("Books needed every deal: %(books)s.", books=books_text(needs[0]))
    else:
        text += " " + _("Books needed: shown beside each deal.")
    return " ".join((text, *(said(rule) for rule in going_out_books_rules(variant))))


def _first_meld(variant: Variant) -> str:
    if variant.first_meld_by_score:
        return _("By the side's score before the deal: %(table)s.", table=thresholds_text(variant))
    values = " · ".join(number(variant.first_meld_for(d)) for d in range(1, variant.deals + 1))
    if variant.deals == 1:
        return _("%(points)s.", points=values)
    return _("%(points)s (deals 1 to %(last)s).", points=values, last=variant.deals)


def thresholds_text(variant: Variant) -> str:
    """The first meld by running score as one line: "from 0: 50 · from 1,500: 90"."""
    ordered = sorted(variant.first_meld_by_score, key=lambda threshold: threshold.from_score)
    return " · ".join(
        _("from %(score)s: %(points)s", score=number(t.from_score), points=number(t.minimum))
        for t in ordered
    )


def table_text(variant: Variant, sides: int, players: int | None = None) -> str:
    table = variant.table_for(sides, players) or variant.table_for(sides)
    if table is None:
        return ngettext("%(num)s side", "%(num)s sides", sides)
    return " · ".join(
        (
            ngettext("%(num)s player", "%(num)s players", table.players),
            ngettext("%(num)s side", "%(num)s sides", table.sides),
            ngettext("%(num)s deck", "%(num)s decks", table.decks),
        )
    )


def _exact_cut(variant: Variant, bonus: int) -> str:
    """The exact cut's bonus, with the cards of the cut: one number, or each deal's."""
    cut = exact_cut(variant)
    if cut is not None:
        return _(
            "%(points)s for each player who cuts exactly %(cut)s cards.",
            points=signed(bonus),
            cut=cut,
        )
    return _(
        "%(points)s for each player who cuts exactly the cards of the deal's hand and foot "
        "(%(cuts)s by deal).",
        points=signed(bonus),
        cuts=deal_values(exact_cuts(variant), str),
    )


def reference(
    variant: Variant, sides: int, players: int | None = None
) -> tuple[tuple[ReferenceItem, ...], str]:
    """The compact rules box, and its footnote when a value in it is only a default."""

    def item(label: str, text: str, *names: str) -> ReferenceItem:
        return ReferenceItem(label, text, any(variant.is_inferred(n) for n in names))

    items = [
        item(_("Card values"), _card_values(variant), "card_points"),
        item(_("Book bonuses"), _book_bonuses(variant), "book_bonus"),
        item(_("Red threes"), _red_threes(variant), "red_three"),
        item(_("Going out"), _going_out(variant), "going_out_bonus", "going_out"),
        item(_("First meld"), _first_meld(variant), "first_meld"),
    ]
    if variant.exact_22_bonus is not None:
        items.append(
            item(_("Exact cut"), _exact_cut(variant, variant.exact_22_bonus), "exact_22_bonus")
        )
    if variant.failed_pickup_penalty is not None:
        items.append(
            item(
                _("Failed pickup"),
                _(
                    "%(points)s for each pickup of the discard pile given back.",
                    points=signed(-variant.failed_pickup_penalty),
                ),
                "failed_pickup_penalty",
            )
        )
    if variant.target_score is not None:
        items.append(
            item(
                _("End of the game"),
                _(
                    "First to %(target)s points: the game ends after the deal in which a side "
                    "reaches them, or after deal %(last)s at the latest.",
                    target=number(variant.target_score),
                    last=variant.deals,
                ),
                "target_score",
            )
        )
    items.append(item(_("Table"), table_text(variant, sides, players), "tables"))
    footnote = _("* default, not stated by the source") if any(i.inferred for i in items) else ""
    return tuple(items), footnote


NAME_FONT_PT = 8.0
NAME_EM_PER_CHARACTER = 0.68
"""A generous average width of a character of the side-name font (bold), in ems."""
NAME_CELL_PADDING_PT = 4.0


def _fits_one_line(name: str, width_pt: float) -> bool:
    return len(name) * NAME_FONT_PT * NAME_EM_PER_CHARACTER <= width_pt - NAME_CELL_PADDING_PT


def _columns(
    names: Sequence[str], width_pt: float, winners: Iterable[int] = ()
) -> tuple[Column, ...]:
    won = set(winners)
    return tuple(
        Column(name, i + 1, i in won, long=not _fits_one_line(name, width_pt))
        for i, name in enumerate(names)
    )


def blank_sheet(
    variant: Variant, sides: int, paper: Paper, names: Sequence[str], per_page: int
) -> Sheet:
    games = tuple(
        GameBlock(
            heading=_("Game %(num)s", num=n + 1) if per_page > 1 else "",
            columns=_columns(names, side_column_width_pt(paper, sides, per_page)),
        )
        for n in range(per_page)
    )
    items, footnote = reference(variant, sides)
    table = variant.table_for(sides)
    return Sheet(
        variant=variant,
        players=table.players if table else None,
        paper=paper,
        title=variant_text(variant.name),
        subtitle=_("Hand and Foot score sheet"),
        info=(InfoItem(_("Date")), InfoItem(_("Place"))),
        deals=deal_blocks(variant),
        games=games,
        reference=items,
        footnote=footnote,
    )


def _score_cells(score: SideScore) -> dict[str, Cell]:
    cells = {}
    for line in score.lines:
        cells[line.key] = Cell(number(line.points), count_label(line))
    cells[DEAL_TOTAL] = Cell(number(score.total), strong=True)
    return cells


def filled_cells(game: GameScore) -> dict[tuple[int, str], tuple[Cell, ...]]:
    """Every entered number of the game, by (deal, row key), one cell per side."""
    rows: dict[tuple[int, str], tuple[Cell, ...]] = {}
    for result in game.deals:
        per_side = [_score_cells(score) for score in result.scores]
        for key in per_side[0]:
            rows[(result.number, key)] = tuple(cells[key] for cells in per_side)
        rows[(result.number, RUNNING_TOTAL)] = tuple(
            Cell(number(total), strong=True) for total in result.running_totals
        )
    return rows


def result_text(game: GameScore) -> InfoItem:
    names = [game.side_names[i] for i in game.winners]
    if names:
        label = ngettext("Winner", "Winners", len(names))
        totals = number(game.totals[game.winners[0]])
        return InfoItem(label, _("%(names)s with %(points)s", names=_list(names), points=totals))
    return InfoItem(
        _("In progress"),
        _("%(num)s of %(total)s deals entered", num=len(game.deals), total=game.variant.deals),
    )


def game_sheet(
    game: GameScore,
    paper: Paper,
    *,
    name: str,
    date: str,
    players: int | None = None,
) -> Sheet:
    variant = game.variant
    sides = len(game.side_names)
    block = GameBlock(
        heading="",
        columns=_columns(game.side_names, side_column_width_pt(paper, sides, 1), game.winners),
        cells=filled_cells(game),
        notes={
            result.number: _("The stock ran out.")
            for result in game.deals
            if result.entry.stock_ran_out
        },
    )
    items, footnote = reference(variant, sides, players)
    info = [InfoItem(_("Date"), date), result_text(game)]
    last_deal = game.ended_after if game.ended_at_target else None
    return Sheet(
        variant=variant,
        players=players,
        paper=paper,
        title=name or variant_text(variant.name),
        subtitle=variant_text(variant.name) if name else _("Hand and Foot score sheet"),
        info=tuple(info),
        deals=deal_blocks(variant)[:last_deal],
        games=(block,),
        reference=items,
        footnote=footnote,
        filled=True,
        last_deal=last_deal,
    )
