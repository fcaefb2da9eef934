"""The sections of a rules page on the first meld, books, wild cards, threes and the foot."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.conventions import MIN_MELD
from scorekeeper.handbook.blocks import Block, BlockWriter
from scorekeeper.rules.cards import BOOK_SIZE
from scorekeeper.rules.phrases import Register, red_three_rule_in_full, wild_limit_rule
from scorekeeper.rules.score_lines import special_rank_words
from scorekeeper.rules.variants import ConcealedOpening, RedThreeScore
from scorekeeper.wording.words import deal_span, join, points, said, signed


class CardSections(BlockWriter):
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
        blocks += self.first_meld_of_a_side()
        blocks += self.first_meld_emptying_hand()
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

    def first_meld_of_a_side(self) -> list[Block]:
        """In a partnership, one first meld for the side."""
        if not self.partnership:
            return []
        return [
            self.p(
                _(
                    "In a partnership the minimum is met once for the side: after one "
                    "partner's first meld, the other partner has no minimum to reach."
                ),
            )
        ]

    def first_meld_emptying_hand(self) -> list[Block]:
        """Where a first meld that lays down the whole hand needs no minimum."""
        if not self.v.first_meld_waived_to_empty_hand:
            return []
        return [
            self.p(
                _(
                    "One exception: a first meld that lays down every card left in your hand, "
                    "so that you go on to your foot, is allowed even below the minimum. It "
                    "does not apply in the foot, nor when you take the discard pile."
                ),
                "first_meld_waived_to_empty_hand",
            )
        ]

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
        """The deals whose first meld needs a concealed book, or any book, if any."""
        v = self.v
        blocks: list[Block] = []
        if v.book_first_meld_deals:
            blocks.append(
                self.p(
                    _(
                        "In %(deals)s the first meld must hold a book of %(size)s cards or "
                        "more, made in the hand or with the discard pile, and still reach the "
                        "minimum.",
                        deals=join(deal_span(n, n) for n in sorted(v.book_first_meld_deals)),
                        size=BOOK_SIZE,
                    ),
                    "book_first_meld_deals",
                )
            )
        if not v.concealed_book_first_meld_deals:
            return blocks
        return [
            *blocks,
            self.p(
                _(
                    "In %(deals)s the first meld must include a concealed book: %(size)s "
                    "cards of one rank, all from your own hand, with no card from the "
                    "discard pile.",
                    deals=join(deal_span(n, n) for n in sorted(v.concealed_book_first_meld_deals)),
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
        return kinds + self.books_of_threes_and_special_ranks()

    def books_of_threes_and_special_ranks(self) -> list[str]:
        """The books some variants add: of black threes, of a special rank, of red threes."""
        v = self.v
        bonus = v.book_bonus
        kinds = []
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

    def wild_limit_rule(self) -> str:
        """How many natural cards a meld needs for its wild cards."""
        return said(wild_limit_rule(self.v.wild_limit, Register.FULL))

    def most_wilds_rule(self) -> list[Block]:
        """The most wild cards any meld may hold, where the rules cap them."""
        most = self.v.wild_limit.most
        if most is None:
            return []
        text = ngettext(
            "A dirty meld holds at most %(num)d wild card, however many natural cards it has.",
            "A dirty meld holds at most %(num)d wild cards, however many natural cards it has.",
            most,
        )
        return [self.p(text, "wild_limit")]

    def wilds(self) -> list[Block]:
        v = self.v
        limit = v.wild_limit
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
            self.p(self.wild_limit_rule(), "wild_limit"),
            *self.most_wilds_rule(),
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
            return self.red_threes_never_down(red)
        return [
            self.p(
                _(
                    "A red three is never melded. Whenever you find one, in the hand you were "
                    "dealt, in a draw from the stock or in your foot when you pick it up, lay it "
                    "face up beside your side's melds at once and draw a replacement from the "
                    "stock."
                )
            ),
            self.p(said(red_three_rule_in_full(red)), "red_three"),
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

    def red_threes_never_down(self, red: RedThreeScore) -> list[Block]:
        return [
            self.p(
                _(
                    "A red three is never melded and never laid down: it brings your side "
                    "nothing. The only way to be rid of one is to discard it, one per turn, "
                    "and a red three on top of the discard pile can never be taken."
                )
            ),
            self.p(said(red_three_rule_in_full(red)), "red_three", see=("foot",)),
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
