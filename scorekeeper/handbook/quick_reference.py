"""The quick reference at the top of a rules page: the numbers a table looks up most."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.conventions import MATCHING_TO_TAKE
from scorekeeper.handbook.blocks import BlockWriter, QuickGroup, Row
from scorekeeper.rules.phrases import pile_pickup_words, runs, wild_discard_words
from scorekeeper.rules.score_lines import exact_cuts, special_rank_words
from scorekeeper.rules.variants import BookRole, ConcealedOpening, PilePickup
from scorekeeper.wording.words import (
    books_needed,
    deal_span,
    deal_values,
    join,
    points,
    said,
    signed,
)


class QuickReference(BlockWriter):
    def quick_reference(self) -> tuple[QuickGroup, ...]:
        bonuses = [*self.book_bonus_rows(), *self.red_three_rows(), *self.other_bonus_rows()]
        return (
            QuickGroup(_("Card values"), tuple(self.card_rows()), "card-values"),
            QuickGroup(_("Bonuses"), tuple(bonuses), "scoring"),
            QuickGroup(_("Discard pile"), tuple(self.pile_rows()), "turn"),
            QuickGroup(_("To go out"), tuple(self.going_out_rows()), "going-out"),
        )

    def book_bonus_rows(self) -> list[Row]:
        """Each kind of book the variant allows and its bonus."""
        v = self.v
        bonus = v.book_bonus
        books = [
            (_("Clean book"), bonus.clean),
            (_("Dirty book"), bonus.dirty),
            (_("Wild book"), bonus.wild),
            (_("Black-three book"), bonus.black_three),
            (
                _("Clean book of %(rank)s", rank=_(special_rank_words(v)))
                if bonus.special_rank is not None
                else "",
                bonus.special if bonus.special_rank is not None else None,
            ),
            (_("Red-three book"), bonus.red_three),
        ]
        return [
            self.row(label, points(value), names=("book_bonus",), link="books")
            for label, value in books
            if value is not None
        ]

    def red_three_rows(self) -> list[Row]:
        red = self.v.red_three
        if red.down is None:
            shown = [(_("Red three still held"), red.held)]
        elif red.down == red.held:
            shown = [(_("Red three, down or held"), red.held)]
        else:
            shown = [(_("Red three laid down"), red.down), (_("Red three still held"), red.held)]
        return [
            self.row(label, signed(value), names=("red_three",), link="red-threes")
            for label, value in shown
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
                    _("Exact cut of %(cut)s", cut=deal_values(exact_cuts(v))),
                    signed(v.exact_22_bonus),
                    names=("exact_22_bonus",),
                    link="scoring",
                )
            )
        if v.failed_pickup_penalty is not None:
            rows.append(
                self.row(
                    _("Failed pickup"),
                    signed(-v.failed_pickup_penalty),
                    names=("failed_pickup_penalty",),
                    link="scoring",
                )
            )
        return rows

    def going_out_rows(self) -> list[Row]:
        v = self.v
        rows = [
            self.row(
                deal_span(first, last) if len(runs(v.going_out)) > 1 else _("Every deal"),
                books_needed(need),
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
                self.last_card_text(),
                names=("must_discard_to_go_out", "going_out_by_melding_only"),
                link="going-out",
            )
        )
        return rows + self.other_going_out_rows()

    def other_going_out_rows(self) -> list[Row]:
        """What the rules set apart for going out: books of any kind, a special book, what a
        black-three or special book counts as, and a player who runs out of cards."""
        v = self.v
        rows: list[Row] = []
        if v.going_out_any_books:
            rows.append(
                self.row(
                    _("Books in all"),
                    ngettext(
                        "at least %(num)s book of any kind",
                        "at least %(num)s books of any kind",
                        v.going_out_any_books,
                    ),
                    names=("going_out_any_books",),
                    link="going-out",
                )
            )
        rank = v.book_bonus.special_rank
        if v.going_out_needs_special_book and rank is not None:
            rows.append(
                self.row(
                    _("Special book"),
                    _("a clean book of %(rank)s", rank=_(special_rank_words(v))),
                    names=("going_out_needs_special_book",),
                    link="going-out",
                )
            )
        counted = (
            (_("Black-three book"), v.book_bonus.black_three, v.black_three_book_goes_out_as),
            (
                _("Clean book of %(rank)s", rank=_(special_rank_words(v))) if rank else "",
                v.book_bonus.special if rank is not None else None,
                v.special_book_goes_out_as,
            ),
        )
        names = ("black_three_book_goes_out_as", "special_book_goes_out_as")
        for (label, bonus, role), name in zip(counted, names, strict=True):
            if bonus is not None and role is not BookRole.CLEAN:
                rows.append(self.row(label, self.counts_as(role), names=(name,), link="going-out"))
        if v.players_may_run_out:
            rows.append(
                self.row(
                    _("Out of cards"),
                    _("a player who may not go out waits for the end of the deal"),
                    names=("players_may_run_out",),
                    link="going-out",
                )
            )
        return rows

    def counts_as(self, role: BookRole) -> str:
        """What a book that holds no wild card counts as toward going out, in a few words."""
        if role is BookRole.DIRTY:
            return _("counts as a dirty book")
        return _("counts as neither a clean nor a dirty book")

    def last_card_text(self) -> str:
        """How the last card leaves the hand of a player going out."""
        if self.v.going_out_by_melding_only:
            return _("must be melded")
        return _("must be discarded") if self.v.must_discard_to_go_out else _("melded or discarded")

    def pile_take_text(self) -> str:
        """The cards a pickup takes, deal by deal where the rules give them so."""
        v = self.v
        if not v.pile_take_by_deal or v.pile_pickup is PilePickup.WHOLE_PILE:
            return said(pile_pickup_words(v.pile_pickup))
        return _(
            "the top %(counts)s cards (deal 1 first)",
            counts=deal_values([v.pile_take_for(deal) for deal in range(1, v.deals + 1)], str),
        )

    def pile_rows(self) -> list[Row]:
        """Taking the discard pile, in a few words: what is taken, with what, and when not."""
        v = self.v
        rows = [
            self.row(
                _("You take"), self.pile_take_text(), names=("pile_pickup", "pile_take_by_deal")
            ),
            self.row(
                _("You need"),
                _(
                    "%(count)s natural cards of the top card's rank, melded with it at once",
                    count=MATCHING_TO_TAKE,
                ),
            ),
            self.row(
                _("Wild card on top"),
                said(wild_discard_words(v.wild_discard)),
                names=("wild_discard",),
            ),
            self.row(_("Black three on top"), _("the next player may not take it")),
        ]
        return [Row(row.cells, inferred=row.inferred, link="turn") for row in rows]

    def first_meld_note(self) -> str:
        """What the first melds' table leaves out: a concealed book, and a first meld that
        lays down the whole hand where it needs no minimum."""
        notes = [self.concealed_note()]
        if self.v.first_meld_waived_to_empty_hand:
            notes.append(_("no minimum for a first meld that lays down the whole hand"))
        return " · ".join(note for note in notes if note)

    def concealed_note(self) -> str:
        deals = self.v.concealed_book_first_meld_deals
        if not deals:
            return ""
        listed = join(deal_span(n, n) for n in sorted(deals))
        if self.v.concealed_opening is ConcealedOpening.WITH_POINTS:
            return _("%(deals)s: a concealed book as well as the points", deals=listed)
        return _("%(deals)s: a concealed book instead of the points", deals=listed)
