"""The sections of a rules page on going out, the end of a deal, card values and scoring."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _

from scorekeeper.handbook.blocks import Block, BlockWriter, Row
from scorekeeper.handbook.params import (
    BASELINE_ID,
    describe,
    differs,
    param_label,
    params,
)
from scorekeeper.rules.params import silent_source, stock_end_is_default
from scorekeeper.rules.phrases import books_to_go_out_in_full, runs
from scorekeeper.rules.score_lines import LineSpec, exact_cuts, line_label, variant_lines
from scorekeeper.rules.variants import BookRole, UnknownVariant, Variant, WildDiscard, get_variant
from scorekeeper.wording.words import (
    books_needed,
    deal_span,
    deal_values,
    points,
    said,
    signed,
)


def rule_differences(variant: Variant, baseline: Variant) -> list[Row]:
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


class ScoringSections(BlockWriter):
    def going_out(self) -> list[Block]:
        return [
            *self.going_out_conditions(),
            *self.going_out_notes(),
            *self.going_out_bonuses(),
            # Where a player may run out of cards and wait, no card need be kept.
            *(() if self.v.players_may_run_out else (self.keep_a_card_to_discard(),)),
        ]

    def books_to_go_out_text(self) -> str:
        return said(books_to_go_out_in_full(self.v.going_out, self.solo))

    def going_out_conditions(self) -> list[Block]:
        return [
            self.p(
                _(
                    "Going out means getting rid of the last card of your foot. It ends the "
                    "deal, and it is allowed only when every condition below is met:"
                )
            ),
            self.ul(
                self.going_out_condition_texts(),
                "going_out",
                "going_out_needs_partner_in_foot",
                "going_out_asks_partner",
                "must_discard_to_go_out",
                "going_out_by_melding_only",
            ),
        ]

    def going_out_condition_texts(self) -> list[str]:
        """The books the deal asks for, the partner's foot and word, and the last card."""
        v = self.v
        conditions = [self.books_to_go_out_text()]
        if v.going_out_needs_partner_in_foot:
            conditions.append(
                _(
                    "Your partner is already playing from their foot: it is not enough that "
                    "they have picked it up."
                )
            )
        if v.partner_yes_binds:
            conditions.append(
                _(
                    "You ask your partner whether you may go out, and they agree: their yes "
                    "obliges you to go out this turn. If they say no, you may not go out this "
                    "turn."
                )
            )
        elif v.going_out_asks_partner:
            conditions.append(
                _(
                    "You ask your partner whether you may go out, and they agree. If they say "
                    "no, you may not go out this turn."
                )
            )

        if v.going_out_by_melding_only:
            conditions.append(
                _(
                    "You go out by melding your last card: a discard never takes you out, so "
                    "a player in the foot keeps at least two cards until they can meld them all."
                )
            )
        elif v.must_discard_to_go_out:
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
        return conditions

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
            blocks.append(self.black_three_book_toward_going_out())
        blocks.extend(self.other_books_toward_going_out())
        if len(grouped) > 1:
            blocks.append(
                self.table(
                    (_("Deal"), _("Books needed")),
                    (
                        self.row(deal_span(first, last), books_needed(need), names=("going_out",))
                        for first, last, need in grouped
                    ),
                )
            )
        return blocks

    def black_three_book_toward_going_out(self) -> Block:
        role = self.v.black_three_book_goes_out_as
        if role is BookRole.DIRTY:
            text = _(
                "A black-three book holds no wild card, yet it counts as a dirty book toward "
                "the books needed to go out."
            )
        elif role is BookRole.NONE:
            text = _(
                "A black-three book counts toward neither the clean nor the dirty books "
                "needed to go out."
            )
        else:
            text = _(
                "A black-three book holds no wild card, so it is a clean book: it "
                "counts toward the clean books needed to go out."
            )
        return self.p(text, "black_three_book_goes_out_as", see=("threes",))

    def other_books_toward_going_out(self) -> list[Block]:
        """Special books, books of any kind, and players who run out of cards."""
        v = self.v
        blocks: list[Block] = []
        role = v.special_book_goes_out_as
        if v.book_bonus.special_rank is not None and role is not BookRole.CLEAN:
            text = (
                _("A special book counts as a dirty book toward the books needed to go out.")
                if role is BookRole.DIRTY
                else _(
                    "A special book counts toward neither the clean nor the dirty books "
                    "needed to go out."
                )
            )
            blocks.append(self.p(text, "special_book_goes_out_as"))
        if v.going_out_needs_special_book and v.book_bonus.special_rank is not None:
            blocks.append(
                self.p(
                    _(
                        "Going out also needs a special book: a clean book of %(rank)s.",
                        rank=v.book_bonus.special_rank,
                    ),
                    "going_out_needs_special_book",
                )
            )
        if v.going_out_any_books:
            blocks.append(
                self.p(
                    _(
                        "Going out also needs at least %(count)s books in all, of any kind "
                        "(a red-three book aside).",
                        count=v.going_out_any_books,
                    ),
                    "going_out_any_books",
                )
            )
        if v.players_may_run_out:
            blocks.append(
                self.p(
                    _(
                        "A player who runs out of cards without being allowed to go out "
                        "simply waits until the deal ends; their side may then end with no "
                        "cards left."
                    ),
                    "players_may_run_out",
                )
            )
        return blocks

    def going_out_bonuses(self) -> list[Block]:
        """The going-out bonus, deal by deal where it changes, and going out concealed."""
        return [self.going_out_bonus(), *self.bonus_by_deal(), *self.concealed_bonus()]

    def going_out_bonus(self) -> Block:
        v = self.v
        return self.p(
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

    def bonus_by_deal(self) -> list[Block]:
        v = self.v
        if len(set(v.going_out_bonus)) == 1:
            return []
        return [
            self.table(
                (_("Deal"), _("Going-out bonus")),
                (
                    self.row(str(deal), signed(bonus), names=("going_out_bonus",))
                    for deal, bonus in enumerate(v.going_out_bonus, start=1)
                ),
            )
        ]

    def concealed_bonus(self) -> list[Block]:
        v = self.v
        blocks: list[Block] = []
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
            self.game_winner(),
        ]

    def game_winner(self) -> Block:
        deals = self.v.deals
        if self.v.target_score is not None:
            return self.p(
                _(
                    "After the deal in which a total reaches %(target)s points, or after deal "
                    "%(deals)s if none does, the highest total wins the game.",
                    target=points(self.v.target_score),
                    deals=deals,
                )
            )
        return self.p(
            self.sided(
                _(
                    "After deal %(deals)s, the side with the highest total wins the game.",
                    deals=deals,
                ),
                _(
                    "After deal %(deals)s, the player with the highest total wins the game.",
                    deals=deals,
                ),
            )
        )

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
        wording: dict[str, Callable[[], str]] = {
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
                cut=deal_values(exact_cuts(v)),
            ),
            "failed_pickups": lambda: _(
                "%(penalty)s for each pickup of the discard pile a player had to give back",
                penalty=signed(-(v.failed_pickup_penalty or 0)),
            ),
            "cards_left": lambda: _("minus the value of every card left in hands and feet"),
        }
        if line.key in wording:
            return wording[line.key]()
        each = line.unit(v, True, 1) if line.unit is not None else 0
        return _("%(bonus)s each", bonus=points(each or 0))

    def scoring_rows(self) -> list[Row]:
        return [
            self.row(line_label(line, self.v).render(_), self.line_rule(line), names=line.params)
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
        found = rule_differences(self.v, baseline)
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
