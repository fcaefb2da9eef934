"""The rules of one variant, written out section by section from its parameters.

Nothing here knows a variant by its id. Each section is composed from the `Variant` fields
that govern it: the paragraph about the discard pile is chosen by `pile_pickup`, the wild-card
table is computed from `wild_limit`, the going-out books come from `going_out_for(deal)`, and
every number in the prose is a placeholder filled from the data. The same text feeds the
page and the search index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.conventions import (
    DRAW_COUNT,
    MATCHING_TO_TAKE,
    MIN_MELD,
    PILE_TAKE,
    cut_target,
)
from scorekeeper.rules.cards import BOOK_SIZE, CardKind
from scorekeeper.rules.decks import STANDARD, Deck, get_deck
from scorekeeper.rules.messages import N_
from scorekeeper.rules.params import label_of, silent_source, stock_end_is_default
from scorekeeper.rules.score_lines import LineSpec, line_label, special_rank_words, variant_lines
from scorekeeper.rules.variants import (
    ConcealedOpening,
    PilePickup,
    RankMelds,
    UnknownVariant,
    Variant,
    WildDiscard,
    get_variant,
)

from .params import (
    BASELINE_ID,
    describe,
    differs,
    going_out_label,
    param_label,
    params,
    pile_pickup_label,
    table_lines,
    wild_discard_label,
    words,
)
from .words import (
    books_needed,
    buried_cards,
    deal_span,
    deal_values,
    join,
    labelled,
    points,
    priced_cards,
    rank_symbol,
    red_three_rule,
    runs,
    signed,
)

QUICK_REFERENCE = "quick-reference"

# The sections of every rules page, in reading order. The score-entry form links to
# card-values, books, wilds, red-threes, going-out, end-of-deal, scoring and first-meld.
SECTION_IDS: tuple[str, ...] = (
    "setup",
    "turn",
    "melds",
    "first-meld",
    "books",
    "wilds",
    "threes",
    "red-threes",
    "foot",
    "going-out",
    "end-of-deal",
    "card-values",
    "scoring",
    "differences",
)


def section_titles() -> dict[str, str]:
    return {
        QUICK_REFERENCE: _("Quick reference"),
        "setup": _("Set-up"),
        "turn": _("A turn"),
        "melds": _("Melds"),
        "first-meld": _("First meld"),
        "books": _("Books"),
        "wilds": _("Wild cards"),
        "threes": _("Threes"),
        "red-threes": _("Red threes"),
        "foot": _("The foot"),
        "going-out": _("Going out"),
        "end-of-deal": _("End of a deal"),
        "card-values": _("Card values"),
        "scoring": _("Scoring"),
        "differences": _("Differences from the partnership game"),
    }


def section_keywords() -> dict[str, str]:
    """Other words people use for each section's subject: searched, never shown."""
    return {
        "setup": _(
            "set up, setup, deal, dealing, dealer, shuffle, decks, players, partners, teams, "
            "hand, foot, stock, cut, packets, start"
        ),
        "turn": _(
            "turn, draw, stock, discard, discard pile, pile, pick up the pile, take the pile, "
            "pickup, top card, pack, play"
        ),
        "melds": _("meld, melds, melding, set, lay down, rank, table"),
        "first-meld": _(
            "first meld, initial meld, opening meld, minimum, open, going down, points needed"
        ),
        "books": _("book, books, pile, canasta, seven cards, clean, dirty, natural, mixed, bonus"),
        "wilds": _("wild, wild card, wildcard, wilds, joker, jokers, two, twos, deuce, deuces"),
        "threes": _("three, threes, black three, black threes, red three, block, blocker"),
        "red-threes": _("red three, red threes, red 3, bonus, penalty, held, foot, laid down"),
        "foot": _("foot, feet, hand, pick up the foot, second packet, play the foot"),
        "going-out": _("go out, going out, out, finish, close, permission, ask partner"),
        "end-of-deal": _(
            "end of the deal, end of the hand, round, stock runs out, cards left, count, "
            "penalty, remaining cards"
        ),
        "card-values": _("card values, card points, points, count, worth, value, joker, ace"),
        "scoring": _("score, scoring, total, bonus, points, exact cut, score sheet"),
        "differences": _("differences, compare, comparison, variant, variants, house rules"),
    }


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


@dataclass(frozen=True, slots=True)
class Handbook:
    variant: Variant
    quick_reference: tuple[QuickGroup, ...]
    first_meld: tuple[Row, ...]
    """The quick reference's first melds: by deal, or by running score."""
    first_meld_note: str
    first_meld_heading: str
    """What the first cell of each of those rows is: a deal, or a running score."""
    sections: tuple[Section, ...]
    titles: dict[str, str]
    inferred: tuple[str, ...]
    """The parameters no source states, in words (shown as defaults a table may change)."""


def differences(variant: Variant, baseline: Variant) -> list[Row]:
    """Every rule whose value differs from the baseline's, in the spec's order: its label,
    its value and the baseline's, linked to the section that explains it."""
    return [
        Row(
            (param_label(param), describe(param, variant), describe(param, baseline)),
            inferred=param.is_inferred_in(variant),
            link=param.section,
        )
        for param in params(variant)
        if differs(param, variant, baseline)
    ]


class _Writer:
    """Builds the blocks of one variant's sections; `fields` name what a block states."""

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

    # Facts several sections share.

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
        texts = {
            WildDiscard.NEEDS_MATCHING_WILDS: _(
                "If a wild card lies on top of the discard pile, the pile can be taken only "
                "with %(count)s wild cards of the same kind: twos to take a two, jokers to take "
                "a joker.",
                count=MATCHING_TO_TAKE,
            ),
            WildDiscard.NEVER_TAKEN: _(
                "A two, a three or a joker on top of the discard pile can never be taken, "
                "since no meld can be built on it."
            ),
            WildDiscard.FREEZES_PILE: _(
                "Discarding a two or a joker freezes the discard pile: the whole pile is set "
                "aside, out of play, and the next discard starts a new one."
            ),
        }
        return texts.get(self.v.wild_discard, str(self.v.wild_discard.value))

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

    def special_deck(self) -> list[Block]:
        """What a deck other than the standard one holds, card by card."""
        deck = self.deck
        if deck is STANDARD:
            return []
        points = self.v.card_points
        roles = {
            CardKind.TWO: N_("{card}: {count} a pack, wild, worth {points}"),
            CardKind.JOKER: N_("{card}: {count} a pack, wild, worth {points}"),
            CardKind.BLACK_THREE: N_("{card}: {count} a pack, played as black threes"),
            CardKind.RED_THREE: N_("{card}: {count} a pack, played as red threes"),
        }
        natural = N_("{card}: {count} a pack, a rank to meld, worth {points}")
        items = [
            _(roles.get(card.kind, natural)).format(
                card=_(card.plural), count=card.per_deck, points=card.points_in(points)
            )
            for card in deck.cards
        ]
        blocks = [
            self.p(
                _(
                    "These rules play with %(deck)s instead of standard decks. One pack takes "
                    "the place of %(count)s standard decks: where a table lists decks, it "
                    "counts packs. A pack holds:",
                    deck=_(deck.name),
                    count=deck.stands_for,
                )
            ),
            self.ul(items),
        ]
        blocks += [Block("p", text=_(note), inferred=True) for note in deck.inferred]
        return blocks

    # The sections.

    def setup(self) -> list[Block]:
        v = self.v
        packets = self.cut_packets() if v.cut_for_packets else self.dealt_packets()
        return [
            *self.players_and_decks(),
            *packets,
            self.p(_("Nobody may look at their foot before their hand is used up."), see=("foot",)),
            self.p(self.game_length_text(), "deals"),
        ]

    def players_and_decks(self) -> list[Block]:
        v = self.v
        blocks = [
            self.p(
                _(
                    "Who can play, and with how many decks of %(cards)s cards, jokers included:",
                    cards=self.deck.size,
                ),
            ),
            self.ul(table_lines(v.tables), "tables"),
            *self.special_deck(),
        ]
        if self.partnership:
            blocks.append(
                self.p(
                    _(
                        "Partners sit across from each other and play as one side: they share "
                        "their melds and their score."
                    ),
                )
            )
        return blocks

    def cut_packets(self) -> list[Block]:
        """Each player cuts their own hand and foot from the stock piles."""
        v = self.v
        blocks = [
            self.p(
                _(
                    "All the cards are shuffled together and spread into %(piles)s stock "
                    "piles. Each player lifts roughly %(cut)s cards from one of them, takes "
                    "more or puts some back until they hold exactly %(cut)s, and counts them "
                    "into two packets of %(hand)s and %(foot)s cards. The first packet is "
                    "the player's hand; the second goes face down to the player on their "
                    "right, whose foot it becomes.",
                    piles=v.stock_piles,
                    cut=cut_target(v),
                    hand=v.hand_size,
                    foot=v.foot_size,
                ),
                "cut_for_packets",
                "stock_piles",
                "hand_size",
                "foot_size",
            )
        ]
        if v.exact_22_bonus is not None:
            blocks.append(
                self.p(
                    _(
                        "A player who lifts exactly %(cut)s cards at the first attempt "
                        "earns a bonus of %(bonus)s points.",
                        cut=cut_target(v),
                        bonus=points(v.exact_22_bonus),
                    ),
                    "exact_22_bonus",
                    see=("scoring",),
                )
            )
        blocks.append(
            self.p(
                _(
                    "The cards nobody lifted stay where they are as the stock, and the "
                    "discard pile starts in the space between the piles."
                ),
                "stock_piles",
            )
        )
        return blocks

    def dealt_packets(self) -> list[Block]:
        v = self.v
        return [
            self.p(
                _(
                    "Each player is dealt two packets face down: a hand of %(hand)s cards, "
                    "which they pick up, and a foot of %(foot)s cards, which stays face "
                    "down until the hand has been used up.",
                    hand=v.hand_size,
                    foot=v.foot_size,
                ),
                "hand_size",
                "foot_size",
            ),
            self.p(self.stock_piles_text(), "stock_piles"),
        ]

    def stock_piles_text(self) -> str:
        v = self.v
        if v.stock_piles == 1:
            return self.single_stock()
        return _(
            "The cards left over form %(piles)s stock piles, face down in the middle "
            "of the table, with the discard pile between them.",
            piles=v.stock_piles,
        )

    def game_length_text(self) -> str:
        v = self.v
        if silent_source(v):
            return ngettext(
                "A game is a single deal, and once it is scored the highest total wins.",
                "A game is %(num)s deals, and once the last deal is scored the highest "
                "total wins.",
                v.deals,
            )
        return ngettext(
            "A game is a single deal: once it is scored the highest total wins.",
            "A game is %(num)s deals. The deal passes one seat to the left after "
            "each one, and once the last deal is scored the highest total wins.",
            v.deals,
        )

    def single_stock(self) -> str:
        """How one stock is laid out and whether its top card starts the discard pile."""
        v = self.v
        if not v.first_discard_turned:
            return _(
                "The cards left over form the stock, face down in the middle of the "
                "table; the discard pile starts empty."
            )
        if not v.first_discard_buried:
            return _(
                "The cards left over form the stock, face down in the middle of the "
                "table. Its top card is turned face up beside it to begin the discard pile."
            )
        return _(
            "The cards left over form the stock, face down in the middle of the "
            "table. Its top card is turned face up beside it to begin the discard "
            "pile; if that card is %(cards)s, it is buried in the stock and the next "
            "one is turned.",
            cards=buried_cards(v.first_discard_buried),
        )

    def turn(self) -> list[Block]:
        return [
            self.turn_start(),
            self.turn_steps(),
            self.red_three_drawn(),
            self.p(self.pile_pickup_text(), "pile_pickup"),
            *self.taking_the_pile(),
            self.first_meld_from_the_pile(),
        ]

    def draw_text(self) -> str:
        v = self.v
        if v.stock_piles == 1:
            return _(
                "Draw %(count)s cards from the stock, or take the discard pile instead "
                "(see below).",
                count=DRAW_COUNT,
            )
        return _(
            "Draw %(count)s cards from the stock piles, from the same pile or from "
            "different ones, or take the discard pile instead (see below).",
            count=DRAW_COUNT,
        )

    def pile_pickup_text(self) -> str:
        texts = {
            PilePickup.TOP_SEVEN: _(
                "Picking up the discard pile: you take its top %(count)s cards, or the whole pile "
                "if it holds fewer.",
                count=PILE_TAKE,
            ),
            PilePickup.TOP_SEVEN_FROM_FULL: _(
                "Picking up the discard pile: this is allowed only while the pile holds at least "
                "%(count)s cards, and you take exactly the top %(count)s.",
                count=PILE_TAKE,
            ),
            PilePickup.WHOLE_PILE: _("Picking up the discard pile: you take every card in it."),
        }
        return texts.get(self.v.pile_pickup, str(self.v.pile_pickup.value))

    def turn_start(self) -> Block:
        v = self.v
        if silent_source(v):
            # Each player cuts their own cards: there is no dealer, and the source names no
            # first player.
            return Block(
                "p",
                text=_(
                    "The table agrees who plays first; play then goes clockwise. Before their "
                    "first turn, each player lays any red threes from their hand face up and "
                    "draws the same number of replacement cards from the stock."
                )
                if v.red_threes_laid_down
                else _("The table agrees who plays first; play then goes clockwise."),
                inferred=True,
            )
        return self.p(
            _(
                "The player on the dealer's left starts, and play goes clockwise. Before "
                "their first turn, each player lays any red threes from their hand face up "
                "and draws the same number of replacement cards from the stock."
            )
            if v.red_threes_laid_down
            else _("The player on the dealer's left starts, and play goes clockwise.")
        )

    def turn_steps(self) -> Block:
        return Block(
            "ol",
            items=(
                self.draw_text(),
                self.sided(
                    _(
                        "Meld, if you can and wish to: start new melds or add cards to your "
                        "side's melds."
                    ),
                    _(
                        "Meld, if you can and wish to: start new melds or add cards to the "
                        "ones you already have."
                    ),
                ),
                _("Finish by discarding one card face up on the discard pile."),
            ),
            inferred=self.inferred(("stock_piles",)),
        )

    def red_three_drawn(self) -> Block:
        v = self.v
        return self.p(
            _(
                "A red three drawn from the stock is laid face up straight away, and you "
                "draw another card to replace it."
            )
            if v.red_threes_laid_down
            else _(
                "A red three drawn from the stock stays in your hand: the only way to be "
                "rid of it is to discard it."
            ),
            see=("red-threes",),
        )

    def taking_the_pile(self) -> list[Block]:
        """How the pile is taken, and what stops it from being taken."""
        v = self.v
        blocks = [
            self.p(
                _(
                    "To take it, you must hold %(count)s natural cards of the same rank as the "
                    "top card and meld them with it straight away, adding more cards from your "
                    "hand if you like. Only then do the rest of the taken cards join your hand.",
                    count=MATCHING_TO_TAKE,
                )
            ),
        ]
        if v.rank_melds is RankMelds.ONE_UNFINISHED:
            blocks.append(
                self.p(
                    _(
                        "If your side already has an unfinished meld of the top card's rank, "
                        "you may take the pile only when the top card and cards from your "
                        "hand are enough both to finish that meld as a book and to start a "
                        "new meld of at least %(min)s cards of the rank.",
                        min=MIN_MELD,
                    ),
                    "rank_melds",
                    see=("melds",),
                )
            )
        if not v.black_three_books and v.wild_discard is not WildDiscard.NEVER_TAKEN:
            blocks.append(self.p(_("The pile can never be taken while a three lies on top.")))
        if v.red_threes_laid_down:
            blocks.append(
                self.p(
                    _(
                        "A red three among the cards taken from the pile is laid face up and "
                        "replaced from the stock, like any other."
                    ),
                    see=("red-threes",),
                )
            )
        blocks += [
            self.p(
                _("A black three discarded on the pile stops the next player from taking it."),
                see=("threes",),
            ),
            self.p(self.wild_discard_text(), "wild_discard", see=("wilds",)),
        ]
        if v.black_three_books and not v.black_three_pair_takes_pile:
            blocks.append(
                self.p(
                    _("A pair of black threes can never be used to take the discard pile."),
                    "black_three_pair_takes_pile",
                )
            )
        return blocks

    def first_meld_from_the_pile(self) -> Block:
        return self.p(
            self.sided(
                _(
                    "If your side has not melded yet in this deal, the meld you make with "
                    "the top card must reach the first-meld minimum, and only the top card "
                    "and cards from your hand count toward it, never the rest of the pile."
                ),
                _(
                    "If you have not melded yet in this deal, the meld you make with the "
                    "top card must reach the first-meld minimum, and only the top card and "
                    "cards from your hand count toward it, never the rest of the pile."
                ),
            ),
            see=("first-meld",),
        )

    def melds(self) -> list[Block]:
        blocks = [
            self.p(
                _(
                    "A meld is a set of at least %(min)s cards of the same rank, laid face up on "
                    "the table. Any rank from %(high)s down to %(low)s can be melded; suits do "
                    "not matter.",
                    min=MIN_MELD,
                    high=self.rank_words(0),
                    low=self.rank_words(-1),
                )
            ),
            self.meld_size(),
        ]
        if self.partnership:
            blocks.append(
                self.p(
                    _(
                        "In a partnership, melds belong to the side: either partner may add to "
                        "any of them."
                    ),
                )
            )
        blocks += [
            self.p(self.rank_melds_text(), "rank_melds"),
            self.p(self.wild_melds_text(), "book_bonus", see=("wilds",)),
            self.threes_in_melds(),
        ]
        return blocks

    def meld_size(self) -> Block:
        v = self.v
        if v.max_meld_size is not None:
            return self.p(
                _(
                    "A meld can grow to %(max)s cards and no further.",
                    max=v.max_meld_size,
                ),
                "max_meld_size",
                see=("books",),
            )
        return self.p(
            _(
                "A meld has no upper size: cards of its rank may still be added after "
                "it has become a book."
            ),
            "max_meld_size",
            see=("books",),
        )

    def rank_melds_text(self) -> str:
        v = self.v
        rank_texts = {
            RankMelds.ONE_UNFINISHED: _(
                "A side may not have two unfinished melds of the same rank. Once a meld has "
                "become a book, a new meld of that rank may be started."
            ),
            RankMelds.ONE: self.sided(
                _("A side may never have two melds of the same rank, finished or not."),
                _("A player may never have two melds of the same rank, finished or not."),
            ),
        }
        return rank_texts.get(v.rank_melds, str(v.rank_melds.value))

    def threes_in_melds(self) -> Block:
        if self.v.black_three_books:
            return self.p(
                _(
                    "Threes are never part of an ordinary meld, but black threes may be "
                    "melded together as a meld of their own, never with wild cards."
                ),
                "book_bonus",
                see=("threes",),
            )
        return self.p(_("Threes are never part of a meld."), see=("threes",))

    def concealed_opening_text(self) -> str:
        """The reading of the concealed first meld this variant follows, and the other one."""
        if self.v.concealed_opening is ConcealedOpening.WITH_POINTS:
            return _(
                "Here the concealed book comes on top of the minimum: the first meld must "
                "include it and still reach the deal's points. The source can also be read "
                "as the concealed book replacing the points."
            )
        return _(
            "Here the concealed book takes the place of the minimum: with it, the first "
            "meld needs no particular points. The source can also be read as asking for "
            "both, the concealed book and the points; a table that reads it that way can "
            "say so in its house rules."
        )

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

    def first_meld_by_score(self) -> list[Block]:
        """The opening paragraph and table where the minimum follows the running score."""
        return [
            self.p(
                self.sided(
                    _(
                        "In each deal, the first meld your side puts down must be worth a "
                        "minimum in card points, set by your side's total before the deal: "
                        "the minimum of the highest score your side has reached in this "
                        "table (below the first score listed, that score's minimum)."
                    ),
                    _(
                        "In each deal, the first meld you put down must be worth a minimum in "
                        "card points, set by your total before the deal: the minimum of the "
                        "highest score you have reached in this table (below the first score "
                        "listed, that score's minimum)."
                    ),
                ),
                "first_meld_by_score",
            ),
            self.table((_("Score before the deal"), _("Minimum")), self.threshold_rows()),
        ]

    def first_meld(self) -> list[Block]:
        v = self.v
        opening = self.first_meld_by_score() if v.first_meld_by_score else self.first_meld_by_deal()
        blocks = [
            *opening,
            self.p(
                self.sided(
                    _(
                        "Only the values of the cards count: red threes and book bonuses do "
                        "not. You may put down several melds in the same turn to reach the "
                        "minimum; after that, your side melds freely for the rest of the deal."
                    ),
                    _(
                        "Only the values of the cards count: red threes and book bonuses do "
                        "not. You may put down several melds in the same turn to reach the "
                        "minimum; after that, you meld freely for the rest of the deal."
                    ),
                ),
                see=("card-values",),
            ),
        ]
        if self.partnership:
            blocks.append(
                self.p(
                    _(
                        "In a partnership the minimum is met once for the side: after one "
                        "partner's first meld, the other partner has no minimum to reach."
                    ),
                )
            )
        blocks += self.concealed_book_first_meld()
        blocks.append(
            self.p(
                _(
                    "When you take the discard pile to make your first meld, only the top card "
                    "and cards from your hand count toward the minimum."
                ),
                see=("turn",),
            )
        )
        return blocks

    def first_meld_by_deal(self) -> list[Block]:
        return [
            self.p(
                self.sided(
                    _(
                        "In each deal, the first meld your side puts down must be worth a "
                        "minimum in card points. The minimum grows from deal to deal:"
                    ),
                    _(
                        "In each deal, the first meld you put down must be worth a minimum in "
                        "card points. The minimum grows from deal to deal:"
                    ),
                ),
                "first_meld",
            ),
            self.table((_("Deal"), _("Minimum")), self.first_meld_rows()),
        ]

    def concealed_book_first_meld(self) -> list[Block]:
        """The deals whose first meld needs a concealed book, if any."""
        v = self.v
        if not v.concealed_book_first_meld_deals:
            return []
        return [
            self.p(
                _(
                    "In %(deals)s the first meld must include a concealed book: %(size)s "
                    "cards of one rank, all from your own hand, with no card from the "
                    "discard pile.",
                    deals=join(
                        deal_span(n, n) for n in sorted(v.concealed_book_first_meld_deals)
                    ),
                    size=BOOK_SIZE,
                ),
                "concealed_book_first_meld_deals",
            ),
            self.p(self.concealed_opening_text(), "concealed_opening"),
        ]

    def books(self) -> list[Block]:
        return [
            self.p(self.book_size_text(), "max_meld_size"),
            self.p(
                _(
                    "Square the book up and put a red card on top if it is clean, a black card "
                    "if it is dirty, so that everyone can read the table at a glance."
                )
            ),
            self.ul(self.book_kinds(), "book_bonus", "wild_limit"),
            self.p(
                self.sided(
                    _(
                        "Every side scores its book bonuses at the end of the deal, whether or "
                        "not it went out, on top of the values of the cards inside."
                    ),
                    _(
                        "Every player scores their book bonuses at the end of the deal, whether "
                        "or not they went out, on top of the values of the cards inside."
                    ),
                ),
                see=("scoring",),
            ),
            self.p(
                self.sided(
                    _("Books are also what a side needs to go out."),
                    _("Books are also what you need to go out."),
                ),
                see=("going-out",),
            ),
        ]

    def book_size_text(self) -> str:
        v = self.v
        if v.max_meld_size is not None and v.max_meld_size <= BOOK_SIZE:
            return _(
                "A meld that reaches %(size)s cards is a book, and it is closed.", size=BOOK_SIZE
            )
        return _("A meld of %(size)s or more cards is a book.", size=BOOK_SIZE)

    def book_kinds(self) -> list[str]:
        """Each kind of book the variant allows, with its bonus."""
        v = self.v
        bonus = v.book_bonus
        kinds = [
            _("Clean book: no wild card at all. Bonus: %(bonus)s.", bonus=points(bonus.clean)),
            _(
                "Dirty book: one or more wild cards, at most %(most)s in a book of %(size)s. "
                "Bonus: %(bonus)s.",
                most=v.wild_limit.most_wilds(BOOK_SIZE),
                size=BOOK_SIZE,
                bonus=points(bonus.dirty),
            ),
        ]
        if bonus.wild is not None:
            kinds.append(
                _("Wild book: wild cards only. Bonus: %(bonus)s.", bonus=points(bonus.wild))
            )
        if bonus.black_three is not None:
            kinds.append(
                _(
                    "Black-three book: black threes only, no wild card. Bonus: %(bonus)s.",
                    bonus=points(bonus.black_three),
                )
            )
        if bonus.special is not None and bonus.special_rank is not None:
            kinds.append(
                _(
                    "Book of %(rank)s: seven or more %(rank)s and never a wild card; a meld of "
                    "%(rank)s takes no two and no joker. Bonus: %(bonus)s instead of the clean "
                    "book's. It counts as a clean book toward going out.",
                    rank=_(special_rank_words(v)),
                    bonus=points(bonus.special),
                )
            )
        if bonus.red_three is not None:
            kinds.append(
                _(
                    "Red-three book: every seven red threes your side lays down make one book, "
                    "worth %(bonus)s instead of their points one by one. It is no meld: it does "
                    "not help to go out or to make the first meld.",
                    bonus=points(bonus.red_three),
                )
            )
        return kinds

    def wilds(self) -> list[Block]:
        v = self.v
        limit = v.wild_limit
        if limit.extra == 0:
            rule = _(
                "A meld must hold at least %(times)s times as many natural cards as wild cards.",
                times=limit.per_wild,
            )
        elif limit.per_wild == 1:
            rule = ngettext(
                "A meld must hold at least %(num)d more natural card than wild cards.",
                "A meld must hold at least %(num)d more natural cards than wild cards.",
                limit.extra,
            )
        else:
            rule = _(
                "A meld must hold at least %(times)s natural cards for each wild card, "
                "plus %(extra)s.",
                times=limit.per_wild,
                extra=limit.extra,
            )
        largest = v.max_meld_size or BOOK_SIZE
        rows = [
            self.row(str(size), str(limit.most_wilds(size)), names=("wild_limit",))
            for size in range(MIN_MELD, largest + 1)
        ]
        return [
            self.p(
                _(
                    "Twos and jokers are wild: in a meld, each stands for a natural card of the "
                    "meld's rank. A joker is worth %(joker)s points and a two %(two)s.",
                    joker=points(v.card_points.joker),
                    two=points(v.card_points.two),
                ),
                "card_points",
            ),
            self.p(rule, "wild_limit"),
            self.table((_("Cards in the meld"), _("Most wild cards")), rows),
            self.p(_("A meld with even one wild card in it is dirty."), see=("books",)),
            self.p(self.wild_melds_text(), "book_bonus"),
            self.p(self.wild_discard_text(), "wild_discard", see=("turn",)),
        ]

    def threes(self) -> list[Block]:
        v = self.v
        return [
            self.p(
                _(
                    "Threes are never melded like the other ranks. Red threes are bonus cards "
                    "laid out beside your melds; black threes are blockers."
                )
                if v.red_threes_laid_down
                else _(
                    "Threes are never melded like the other ranks. Red threes only ever cost "
                    "points, and you get rid of them by discarding them; black threes are "
                    "blockers."
                ),
                see=("red-threes",),
            ),
            self.p(
                _("Discarding a black three stops the next player from taking the discard pile.")
            ),
            self.p(
                _(
                    "Each black three still in a hand or foot when the deal ends counts "
                    "%(points)s against its side.",
                    points=points(v.card_points.black_three),
                ),
                "card_points",
            ),
            *(self.black_three_melds() if v.black_three_books else self.black_threes_discarded()),
        ]

    def black_three_melds(self) -> list[Block]:
        """Black threes melded together, where the variant allows it."""
        v = self.v
        blocks = [
            self.p(
                _(
                    "Black threes may be melded together into a meld of their own, never "
                    "with wild cards; completed, it is a black-three book worth %(bonus)s.",
                    bonus=points(v.book_bonus.black_three or 0),
                ),
                "book_bonus",
                see=("books",),
            )
        ]
        if v.card_points.black_three_melded:
            blocks.append(
                self.p(
                    _(
                        "Each black three inside such a meld still counts %(points)s.",
                        points=signed(v.card_points.black_three_melded),
                    ),
                    "card_points",
                )
            )
        if not v.black_three_pair_takes_pile:
            blocks.append(
                self.p(
                    _("A pair of black threes can never be used to take the discard pile."),
                    "black_three_pair_takes_pile",
                )
            )
        return blocks

    def black_threes_discarded(self) -> list[Block]:
        return [
            self.p(
                _(
                    "Black threes cannot be melded: the only way to be rid of them is to "
                    "discard them, one per turn."
                )
            )
        ]

    def red_threes(self) -> list[Block]:
        red = self.v.red_three
        if red.down is None:
            return self.red_threes_never_down(red.held)
        if red.down == red.held:
            score = _(
                "Every red three counts %(points)s at the end of the deal, laid down or not. "
                "Lay them down anyway: each one brings you a replacement card.",
                points=signed(red.held),
            )
        else:
            score = _(
                "Each red three laid down scores %(down)s for your side. One still in a hand "
                "or foot when the deal ends counts %(held)s instead.",
                down=signed(red.down),
                held=signed(red.held),
            )
        not_out = red.down_for(False)
        if not_out != red.down:
            score += " " + _(
                "A side that did not go out scores %(not_out)s for each red three it laid "
                "down; when the stock runs out, nobody went out, so every side does.",
                not_out=signed(not_out or 0),
            )
        return [
            self.p(
                _(
                    "A red three is never melded. Whenever you find one, in the hand you were "
                    "dealt, in a draw from the stock or in your foot when you pick it up, lay it "
                    "face up beside your side's melds at once and draw a replacement from the "
                    "stock."
                )
            ),
            self.p(score, "red_three"),
            self.p(
                _(
                    "A red three in a foot that was never picked up is still held: it counts "
                    "%(held)s.",
                    held=signed(red.held),
                ),
                "red_three",
                see=("foot",),
            ),
            self.p(_("Red threes never count toward the first-meld minimum."), see=("first-meld",)),
        ]

    def red_threes_never_down(self, held: int) -> list[Block]:
        return [
            self.p(
                _(
                    "A red three is never melded and never laid down: it brings your side "
                    "nothing. The only way to be rid of one is to discard it, one per turn, "
                    "and a red three on top of the discard pile can never be taken."
                )
            ),
            self.p(
                _(
                    "Each red three still in a hand or foot when the deal ends, a foot never "
                    "picked up included, costs %(held)s.",
                    held=signed(held),
                ),
                "red_three",
                see=("foot",),
            ),
        ]

    def foot(self) -> list[Block]:
        return [
            self.p(
                _(
                    "Once your hand is used up, you pick up your foot and carry on playing from "
                    "it. There are two ways to reach it:"
                )
            ),
            self.ul(
                (
                    _(
                        "Meld every card left in your hand. You pick up the foot straight away "
                        "and go on with the same turn, which still ends with a discard."
                    ),
                    _(
                        "Meld all your cards but one and discard that last card. Your turn ends "
                        "there, and you play from your foot from your next turn."
                    ),
                )
            ),
            self.p(
                _("Red threes found in the foot are laid down and replaced at once, as always.")
                if self.v.red_threes_laid_down
                else _("Red threes found in the foot stay in your hand until you discard them."),
                see=("red-threes",),
            ),
            self.p(
                self.sided(
                    _(
                        "If the deal ends before you reach your foot, every card in it counts "
                        "against your side, red threes included."
                    ),
                    _(
                        "If the deal ends before you reach your foot, every card in it counts "
                        "against you, red threes included."
                    ),
                ),
                see=("end-of-deal",),
            ),
        ]

    def going_out(self) -> list[Block]:
        return [
            *self.going_out_conditions(),
            *self.going_out_notes(),
            *self.going_out_bonuses(),
            self.keep_a_card_to_discard(),
        ]

    def books_to_go_out_text(self) -> str:
        v = self.v
        grouped = runs(v.going_out)
        if len(grouped) == 1:
            need = books_needed(v.going_out_for(1))
            return self.sided(
                _("To go out, your side must have completed at least %(books)s.", books=need),
                _("To go out, you must have completed at least %(books)s.", books=need),
            )
        by_deal = going_out_label(v)
        return self.sided(
            _(
                "To go out, your side must have completed the books the deal asks for "
                "(%(books)s).",
                books=by_deal,
            ),
            _(
                "To go out, you must have completed the books the deal asks for "
                "(%(books)s).",
                books=by_deal,
            ),
        )

    def going_out_conditions(self) -> list[Block]:
        v = self.v
        conditions = [self.books_to_go_out_text()]
        if v.going_out_needs_partner_in_foot:
            conditions.append(
                _(
                    "Your partner is already playing from their foot: it is not enough that "
                    "they have picked it up."
                )
            )
        if v.going_out_asks_partner:
            conditions.append(
                _(
                    "You ask your partner whether you may go out, and they agree. If they say "
                    "no, you may not go out this turn."
                )
            )

        if v.must_discard_to_go_out:
            conditions.append(
                _(
                    "You finish with a discard: the last card goes on the discard pile, not "
                    "into a meld."
                )
            )
        else:
            conditions.append(
                _("You either meld every last card, or meld all but one and discard it.")
            )
        return [
            self.p(
                _(
                    "Going out means getting rid of the last card of your foot. It ends the "
                    "deal, and it is allowed only when every condition below is met:"
                )
            ),
            self.ul(
                conditions,
                "going_out",
                "going_out_needs_partner_in_foot",
                "going_out_asks_partner",
                "must_discard_to_go_out",
            ),
        ]

    def going_out_notes(self) -> list[Block]:
        """Table talk, black-three books and the books needed deal by deal."""
        v = self.v
        grouped = runs(v.going_out)
        blocks: list[Block] = []
        if v.going_out_asks_partner and silent_source(v):
            # Brouillette's partnership version says so; the partnership game is silent.
            blocks.append(
                self.p(
                    _(
                        "No table talk: partners may not discuss their cards or their plans. "
                        "“May I go out?” is the only question allowed."
                    )
                )
            )
        if v.black_three_books:
            blocks.append(
                self.p(
                    _(
                        "A black-three book holds no wild card, so it is a clean book: it "
                        "counts toward the clean books needed to go out."
                    ),
                    see=("threes",),
                )
            )
        if len(grouped) > 1:
            blocks.append(
                self.table(
                    (_("Deal"), _("Books needed")),
                    (
                        self.row(deal_span(first, last), books_needed(need), names=("going_out",))  # type: ignore[arg-type]
                        for first, last, need in grouped
                    ),
                )
            )
        return blocks

    def going_out_bonuses(self) -> list[Block]:
        v = self.v
        blocks: list[Block] = []
        blocks.append(
            self.p(
                self.sided(
                    _(
                        "The side that goes out scores a bonus of %(bonus)s.",
                        bonus=deal_values(v.going_out_bonus),
                    ),
                    _(
                        "The player who goes out scores a bonus of %(bonus)s.",
                        bonus=deal_values(v.going_out_bonus),
                    ),
                ),
                "going_out_bonus",
            )
        )
        if len(set(v.going_out_bonus)) > 1:
            blocks.append(
                self.table(
                    (_("Deal"), _("Going-out bonus")),
                    (
                        self.row(str(deal), signed(bonus), names=("going_out_bonus",))
                        for deal, bonus in enumerate(v.going_out_bonus, start=1)
                    ),
                )
            )
        if v.going_out_concealed_bonus:
            blocks.append(
                self.p(
                    self.sided(
                        _(
                            "Going out concealed, with no meld of your side on the table before "
                            "and everything laid down in the turn you go out, adds %(bonus)s.",
                            bonus=signed(v.going_out_concealed_bonus),
                        ),
                        _(
                            "Going out concealed, with no meld on the table before and "
                            "everything laid down in the turn you go out, adds %(bonus)s.",
                            bonus=signed(v.going_out_concealed_bonus),
                        ),
                    ),
                    "going_out_concealed_bonus",
                )
            )
        return blocks

    def keep_a_card_to_discard(self) -> Block:
        return Block(
            "p",
            text=_(
                "Until you are allowed to go out, never meld so much that your cards run "
                "out: you need one for your discard and another still in your hand after it."
            ),
            inferred=silent_source(self.v),
        )

    def end_of_deal(self) -> list[Block]:
        return [*self.how_a_deal_ends(), *self.counting_a_deal()]

    def how_a_deal_ends(self) -> list[Block]:
        v = self.v
        blocks = [
            self.p(_("A deal ends in one of two ways:")),
            Block(
                "ul",
                items=(
                    _("A player goes out."),
                    _(
                        "The stock is empty: a player has to draw and it cannot give them the "
                        "cards. Nobody scores the going-out bonus then."
                    ),
                ),
                inferred=stock_end_is_default(v),
            ),
        ]
        if v.wild_discard is WildDiscard.FREEZES_PILE:
            blocks.append(
                self.p(
                    _(
                        "Before the stock gives out, the cards set aside by frozen piles are "
                        "shuffled and put under it, so that play can go on."
                    ),
                    "wild_discard",
                )
            )
        return blocks

    def counting_a_deal(self) -> list[Block]:
        v = self.v
        return [
            self.p(
                self.sided(
                    _(
                        "Every side then counts its cards. Everything it melded counts for it; "
                        "every card still in its players' hands and feet counts against it, "
                        "including a foot never picked up."
                    ),
                    _(
                        "Every player then counts their cards. Everything they melded counts for "
                        "them; every card still in their hand and foot counts against them, "
                        "including a foot never picked up."
                    ),
                ),
                see=("card-values",),
            ),
            self.p(
                self.sided(
                    _(
                        "Red threes, books and bonuses are then added as described under "
                        "Scoring, and the deal's score goes onto each side's running total."
                    ),
                    _(
                        "Red threes, books and bonuses are then added as described under "
                        "Scoring, and the deal's score goes onto each player's running total."
                    ),
                ),
                see=("scoring",),
            ),
            self.p(
                self.sided(
                    _(
                        "After deal %(deals)s, the side with the highest total wins the game.",
                        deals=v.deals,
                    ),
                    _(
                        "After deal %(deals)s, the player with the highest total wins the game.",
                        deals=v.deals,
                    ),
                )
            ),
        ]

    def card_values(self) -> list[Block]:
        rows = self.card_rows()
        rows.append(
            self.row(_("Red three"), self.red_three_rule(), names=("red_three",), link="red-threes")
        )
        return [
            self.p(
                _(
                    "A card is worth the same whether it counts for you, melded on the table, or "
                    "against you, left in a hand or foot when the deal ends."
                )
            ),
            self.table((_("Card"), _("Points")), rows),
            self.p(_("These values are what the first-meld minimum counts."), see=("first-meld",)),
        ]

    def line_rule(self, line: LineSpec) -> str:
        """What one score line counts under this variant, in the words of the rules page:
        its own sentence where the line counts card points or going out, else the points of
        each counted thing."""
        v = self.v
        going_out = deal_values(v.going_out_bonus, signed)
        wording = {
            "meld_points": lambda: self.sided(
                _("the value of every card your side melded, books included"),
                _("the value of every card you melded, books included"),
            ),
            "red_threes": self.red_three_rule,
            "going_out": lambda: self.sided(
                _("%(bonus)s for the side that went out", bonus=going_out),
                _("%(bonus)s for the player who went out", bonus=going_out),
            ),
            "going_out_concealed": lambda: _(
                "%(bonus)s more for going out with no meld on the table before",
                bonus=signed(v.going_out_concealed_bonus),
            ),
            "exact_22": lambda: _(
                "%(bonus)s for each player who lifted exactly %(cut)s cards at the first attempt",
                bonus=signed(v.exact_22_bonus or 0),
                cut=cut_target(v),
            ),
            "cards_left": lambda: _("minus the value of every card left in hands and feet"),
        }
        if line.key in wording:
            return wording[line.key]()
        each = line.unit(v, True, 1) if line.unit is not None else 0
        return _("%(bonus)s each", bonus=points(each or 0))

    def scoring_rows(self) -> list[Row]:
        return [
            self.row(
                line_label(line, self.v).render(_), self.line_rule(line), names=line.params
            )
            for line in variant_lines(self.v)
        ]

    def scoring(self) -> list[Block]:
        return [
            self.p(
                self.sided(
                    _(
                        "At the end of each deal every side adds up the lines below; the score "
                        "sheet has a row for each."
                    ),
                    _(
                        "At the end of each deal every player adds up the lines below; the "
                        "score sheet has a row for each."
                    ),
                )
            ),
            self.table((_("Line"), _("Counts")), self.scoring_rows()),
            self.p(
                self.sided(
                    _(
                        "Each deal's score is added to the side's running total. A total can go "
                        "below zero."
                    ),
                    _(
                        "Each deal's score is added to the player's running total. A total can "
                        "go below zero."
                    ),
                )
            ),
        ]

    def differences(self) -> list[Block]:
        try:
            baseline = get_variant(BASELINE_ID)
        except UnknownVariant:
            return []
        found = differences(self.v, baseline)
        if not found:
            return [
                self.p(
                    _(
                        "This variant sets every rule exactly as the partnership game from "
                        "pagat.com does; the other variants are described by how they differ "
                        "from it."
                    )
                )
            ]
        return [
            self.p(
                _("What this variant changes compared with the partnership game from pagat.com:")
            ),
            Block("diffs", diffs=tuple(found)),
        ]

    # The quick reference: one phone screen of numbers.

    def quick_reference(self) -> tuple[QuickGroup, ...]:
        bonuses = [*self.book_bonus_rows(), *self.red_three_rows(), *self.other_bonus_rows()]
        return (
            QuickGroup(_("Card values"), tuple(self.card_rows()), "card-values"),
            QuickGroup(_("Bonuses"), tuple(bonuses), "scoring"),
            QuickGroup(_("Discard pile"), tuple(self.pile_rows()), "turn"),
            QuickGroup(_("To go out"), tuple(self.going_out_rows()), "going-out"),
        )

    def book_bonus_rows(self) -> list[Row]:
        v = self.v
        bonus = v.book_bonus
        rows = [
            self.row(_("Clean book"), points(bonus.clean), names=("book_bonus",), link="books"),
            self.row(_("Dirty book"), points(bonus.dirty), names=("book_bonus",), link="books"),
        ]
        if bonus.wild is not None:
            rows.append(
                self.row(_("Wild book"), points(bonus.wild), names=("book_bonus",), link="books")
            )
        if bonus.black_three is not None:
            rows.append(
                self.row(
                    _("Black-three book"),
                    points(bonus.black_three),
                    names=("book_bonus",),
                    link="books",
                )
            )
        if bonus.special is not None and bonus.special_rank is not None:
            rows.append(
                self.row(
                    _("Clean book of %(rank)s", rank=_(special_rank_words(v))),
                    points(bonus.special),
                    names=("book_bonus",),
                    link="books",
                )
            )
        if bonus.red_three is not None:
            rows.append(
                self.row(
                    _("Red-three book"),
                    points(bonus.red_three),
                    names=("book_bonus",),
                    link="books",
                )
            )
        return rows

    def red_three_rows(self) -> list[Row]:
        red = self.v.red_three
        if red.down is None:
            return [
                self.row(
                    _("Red three still held"),
                    signed(red.held),
                    names=("red_three",),
                    link="red-threes",
                )
            ]
        if red.down == red.held:
            return [
                self.row(
                    _("Red three, down or held"),
                    signed(red.held),
                    names=("red_three",),
                    link="red-threes",
                )
            ]
        return [
            self.row(
                _("Red three laid down"),
                signed(red.down),
                names=("red_three",),
                link="red-threes",
            ),
            self.row(
                _("Red three still held"),
                signed(red.held),
                names=("red_three",),
                link="red-threes",
            ),
        ]

    def other_bonus_rows(self) -> list[Row]:
        """Going out, and an exact cut where the variant pays one."""
        v = self.v
        rows = [
            self.row(
                _("Going out"),
                deal_values(v.going_out_bonus, signed),
                names=("going_out_bonus",),
                link="going-out",
            )
        ]
        if v.exact_22_bonus is not None:
            rows.append(
                self.row(
                    _("Exact cut of %(cut)s", cut=cut_target(v)),
                    signed(v.exact_22_bonus),
                    names=("exact_22_bonus",),
                    link="scoring",
                )
            )
        return rows

    def going_out_rows(self) -> list[Row]:
        v = self.v
        rows = [
            self.row(
                deal_span(first, last) if len(runs(v.going_out)) > 1 else _("Every deal"),
                books_needed(need),  # type: ignore[arg-type]
                names=("going_out",),
                link="going-out",
            )
            for first, last, need in runs(v.going_out)
        ]
        if v.going_out_needs_partner_in_foot:
            rows.append(
                self.row(
                    _("Partner"),
                    _("must have played part of a turn from their foot"),
                    names=("going_out_needs_partner_in_foot",),
                    link="going-out",
                )
            )
        if v.going_out_asks_partner:
            rows.append(
                self.row(
                    _("Permission"),
                    _("ask your partner first"),
                    names=("going_out_asks_partner",),
                    link="going-out",
                )
            )
        rows.append(
            self.row(
                _("Last card"),
                _("must be discarded") if v.must_discard_to_go_out else _("melded or discarded"),
                names=("must_discard_to_go_out",),
                link="going-out",
            )
        )
        return rows

    def pile_rows(self) -> list[Row]:
        """Taking the discard pile, in a few words: what is taken, with what, and when not."""
        v = self.v
        rows = [
            self.row(_("You take"), pile_pickup_label(v.pile_pickup), names=("pile_pickup",)),
            self.row(
                _("You need"),
                _(
                    "%(count)s natural cards of the top card's rank, melded with it at once",
                    count=MATCHING_TO_TAKE,
                ),
            ),
            self.row(
                _("Wild card on top"), wild_discard_label(v.wild_discard), names=("wild_discard",)
            ),
            self.row(_("Black three on top"), _("the next player may not take it")),
        ]
        return [Row(row.cells, inferred=row.inferred, link="turn") for row in rows]

    def first_meld_note(self) -> str:
        deals = self.v.concealed_book_first_meld_deals
        if not deals:
            return ""
        listed = join(deal_span(n, n) for n in sorted(deals))
        if self.v.concealed_opening is ConcealedOpening.WITH_POINTS:
            return _("%(deals)s: a concealed book as well as the points", deals=listed)
        return _("%(deals)s: a concealed book instead of the points", deals=listed)


def handbook(variant: Variant) -> Handbook:
    """Every section of the variant's rules, in the current language."""
    writer = _Writer(variant)
    titles = section_titles()
    keywords = section_keywords()
    builders = {
        "setup": writer.setup,
        "turn": writer.turn,
        "melds": writer.melds,
        "first-meld": writer.first_meld,
        "books": writer.books,
        "wilds": writer.wilds,
        "threes": writer.threes,
        "red-threes": writer.red_threes,
        "foot": writer.foot,
        "going-out": writer.going_out,
        "end-of-deal": writer.end_of_deal,
        "card-values": writer.card_values,
        "scoring": writer.scoring,
        "differences": writer.differences,
    }
    sections = tuple(
        Section(id=sid, title=titles[sid], blocks=tuple(builders[sid]()), keywords=keywords[sid])
        for sid in SECTION_IDS
    )
    return Handbook(
        variant=variant,
        quick_reference=writer.quick_reference(),
        first_meld=tuple(
            writer.threshold_rows() if variant.first_meld_by_score else writer.first_meld_rows()
        ),
        first_meld_note=writer.first_meld_note(),
        first_meld_heading=(
            _("Score before the deal") if variant.first_meld_by_score else _("Deal")
        ),
        sections=sections,
        titles=titles,
        inferred=tuple(
            words(label_of(field.name))
            for field in fields(variant)
            if variant.is_inferred(field.name)
        ),
    )
