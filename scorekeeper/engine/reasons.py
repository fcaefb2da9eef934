"""Every refusal the engine gives, in one place: a rule key and a sentence for the player."""

from __future__ import annotations

from functools import cache
from typing import Final

from ..rules.decks import HANDNFOOT, STANDARD
from ..rules.messages import N_, Term
from ..rules.phrases import books_in_refusal, wild_limit_refusal
from ..rules.variants import BookCount, WildLimit
from .cards import Face, cards_by_face
from .errors import Reason

_PLAIN: Final[dict[tuple[str, str], Reason]] = {}
"""Reasons without parameters, made once: a reason is a value, and making one costs more
than most of the checks that refuse an action."""


def _r(rule: str, template: str, **params: object) -> Reason:
    if params:
        return Reason(rule, template, params)
    key = (rule, template)
    found = _PLAIN.get(key)
    if found is None:
        found = _PLAIN[key] = Reason(rule, template, {})
    return found


# --- words for rule values, translated with the sentence they go in ------------------------


def _face_words(plural: bool) -> dict[Face, Term]:
    """Each face in words, from the rules' deck vocabulary: the standard deck's cards, and
    the HANDnFOOT pack's for the natural faces beyond the standard ones."""
    words = {
        face: Term(card.plural if plural else card.name)
        for face, card in (*cards_by_face(HANDNFOOT), *cards_by_face(STANDARD))
    }
    if not plural:
        # TRANSLATORS: the card two, a wild card (as in "A 2 on top of the discard pile").
        words[Face.TWO] = Term(N_("2"))
    return words


_FACE_NAMES = _face_words(plural=False)
_FACE_PLURALS = _face_words(plural=True)

_WILD_CARDS = Term(N_("wild cards"))


def face_name(face: Face) -> Term:
    return _FACE_NAMES[face]


def face_plural(face: Face) -> Term:
    return _FACE_PLURALS[face]


# --- the shape of a meld ---------------------------------------------------------------------


def empty_play() -> Reason:
    return _r("empty-play", N_("Each meld play must put at least one card on the table."))


def negative_count() -> Reason:
    return _r("negative-count", N_("A number of cards cannot be below zero."))


def meld_too_small(least: int) -> Reason:
    # The refusal random play meets most (a new meld of one or two cards): made once a size.
    reason = _TOO_SMALL.get(least)
    if reason is None:
        reason = _r("meld-too-small", N_("A new meld needs at least {least} cards."), least=least)
        _TOO_SMALL[least] = reason
    return reason


_TOO_SMALL: dict[int, Reason] = {}


def meld_too_big(most: int) -> Reason:
    return _r(
        "meld-too-big",
        N_(
            "A meld can hold at most {most} cards in this variant; start a new one once it is "
            "a book."
        ),
        most=most,
    )


def too_many_wilds(limit: WildLimit) -> Reason:
    return _r(
        "too-many-wilds",
        N_("Too many wild cards: a meld must have {words}."),
        words=wild_limit_refusal(limit),
    )


def wild_limit_broken(limit: WildLimit, wilds: int) -> Reason:
    """Why a meld of `wilds` wild cards breaks the wild-card limit: past the most any meld may
    hold, or too few natural cards for them."""
    if limit.most is not None and wilds > limit.most:
        return too_many_wilds_in_any_meld(limit.most)
    return too_many_wilds(limit)


def too_many_wilds_in_any_meld(most: int) -> Reason:
    return _r(
        "too-many-wilds",
        N_("Too many wild cards: no meld may hold more than {most} of them."),
        most=most,
    )


def dirty_meld_too_big(most: int) -> Reason:
    return _r(
        "meld-too-big",
        N_(
            "A meld with a wild card can hold at most {most} cards in these rules: a dirty "
            "book is closed."
        ),
        most=most,
    )


def no_wild_melds() -> Reason:
    return _r(
        "no-wild-melds",
        N_("This variant has no all-wild melds: twos and jokers only join melds of a rank."),
    )


def wild_meld_has_naturals() -> Reason:
    return _r("wild-meld-naturals", N_("An all-wild meld is made of twos and jokers only."))


def wild_is_not_a_rank() -> Reason:
    return _r(
        "wild-not-a-rank",
        N_(
            "Twos and jokers are wild: they stand in for another rank and never form a rank "
            "of their own."
        ),
    )


def red_three_not_melded() -> Reason:
    return _r(
        "red-three-meld",
        N_("Red threes are never melded: they are laid down on their own and replaced."),
    )


def black_threes_not_melded() -> Reason:
    return _r(
        "black-three-meld",
        N_(
            "Black threes cannot be melded in this variant; the only way to be rid of one is "
            "to discard it."
        ),
    )


def black_threes_clean_only() -> Reason:
    return _r(
        "black-three-wilds",
        N_("A meld of black threes must be clean: no twos or jokers may join it."),
    )


def special_rank_clean_only(face: Face) -> Reason:
    return _r(
        "special-rank-wilds",
        N_(
            "A meld of {rank} makes a special book, which is always clean: no twos or jokers "
            "may join it."
        ),
        rank=face_plural(face),
    )


@cache  # a refusal random play meets often: made once for each rank
def one_meld_per_rank(face: Face | None) -> Reason:
    return _r(
        "one-meld-per-rank",
        N_("Your side already has a meld of {rank}: add to it instead of starting another."),
        rank=_rank_words(face),
    )


def one_unfinished_per_rank(face: Face | None) -> Reason:
    return _r(
        "one-unfinished-per-rank",
        N_(
            "Your side already has an unfinished meld of {rank}: finish it as a book before "
            "starting another."
        ),
        rank=_rank_words(face),
    )


def _rank_words(face: Face | None) -> Term:
    return _WILD_CARDS if face is None else face_plural(face)


def no_such_meld(index: int) -> Reason:
    return _r("no-such-meld", N_("Your side has no meld number {number}."), number=index + 1)


def wrong_rank(face: Face | None, target: Face | None) -> Reason:
    return _r(
        "wrong-rank",
        N_("Those cards cannot join a meld of {target}: they are {rank}."),
        target=_rank_words(target),
        rank=_rank_words(face),
    )


def not_held(face: Face) -> Reason:
    return _r(
        "not-held",
        N_("You do not hold enough {cards} for that."),
        cards=face_plural(face),
    )


# --- the first meld ---------------------------------------------------------------------------


def first_meld_short(deal: int, minimum: int, points: int) -> Reason:
    return _r(
        "first-meld-short",
        N_(
            "Your side's first meld in deal {deal} must be worth at least {minimum} points in "
            "cards; these make {points}."
        ),
        deal=deal,
        minimum=minimum,
        points=points,
    )


def first_meld_short_from_pile(deal: int, minimum: int, points: int) -> Reason:
    return _r(
        "first-meld-short",
        N_(
            "Your side's first meld in deal {deal} must be worth at least {minimum} points, "
            "counting only the top card of the pile and your own cards; these make {points}."
        ),
        deal=deal,
        minimum=minimum,
        points=points,
    )


def concealed_book_needed(deal: int) -> Reason:
    return _r(
        "concealed-book",
        N_(
            "In deal {deal} your side opens with a concealed book: a complete meld of seven "
            "made from your own hand, laid down at once."
        ),
        deal=deal,
    )


def book_needed(deal: int) -> Reason:
    return _r(
        "opening-book",
        N_(
            "In deal {deal} your side's first meld must hold a book: a meld of seven "
            "cards or more, with the discard pile or without."
        ),
        deal=deal,
    )


def concealed_book_not_from_pile(deal: int) -> Reason:
    return _r(
        "concealed-book",
        N_(
            "In deal {deal} your side must open with a concealed book from your own hand, so "
            "it cannot open by taking the discard pile."
        ),
        deal=deal,
    )


# --- the turn ------------------------------------------------------------------------------------


def deal_over() -> Reason:
    return _r("deal-over", N_("The deal is over."))


def red_threes_first() -> Reason:
    return _r(
        "red-threes-first",
        N_("Lay down your red threes and draw their replacements before anything else."),
    )


def red_threes_never_laid_down() -> Reason:
    return _r(
        "red-threes-kept",
        N_("In this variant red threes are never laid down: discard them to be rid of them."),
    )


def no_red_threes() -> Reason:
    return _r("no-red-threes", N_("You hold no red three to lay down."))


def foot_first() -> Reason:
    return _r(
        "foot-first",
        N_("Every card of your hand is played: pick up your foot before going on."),
    )


def foot_already_taken() -> Reason:
    return _r("foot-taken", N_("You have already picked up your foot."))


def hand_not_empty() -> Reason:
    return _r(
        "hand-not-empty",
        N_("You may pick up your foot only once every card of your hand has been played."),
    )


def draw_first() -> Reason:
    return _r(
        "draw-first",
        N_("Start your turn by drawing from the stock or taking the discard pile."),
    )


def already_drawn() -> Reason:
    return _r("already-drawn", N_("You have already drawn this turn."))


def no_such_stock_pile(number: int) -> Reason:
    return _r("no-such-stock", N_("There is no stock pile number {number}."), number=number + 1)


def draw_count(count: int) -> Reason:
    return _r(
        "draw-count",
        N_("A draw takes {count} cards from the stock in this deal: name a pile for each."),
        count=count,
    )


def stock_pile_short() -> Reason:
    return _r(
        "stock-pile-short",
        N_("That stock pile does not hold enough cards: take them from the other pile."),
    )


# --- the discard pile ---------------------------------------------------------------------------


def pile_empty() -> Reason:
    return _r("pile-empty", N_("The discard pile is empty."))


def pile_too_small(least: int) -> Reason:
    return _r(
        "pile-too-small",
        N_("The discard pile may be taken only when it holds at least {least} cards."),
        least=least,
    )


def black_three_blocks() -> Reason:
    return _r(
        "black-three-blocks",
        N_("A black three on top blocks the discard pile: draw from the stock."),
    )


def black_three_pair_refused() -> Reason:
    return _r(
        "black-three-pair",
        N_("A pair of black threes never takes the discard pile: draw from the stock."),
    )


def red_three_on_top() -> Reason:
    return _r("red-three-top", N_("A red three on top of the discard pile cannot be taken."))


def wild_never_taken(face: Face) -> Reason:
    return _r(
        "wild-on-top",
        N_("A {card} on top of the discard pile can never be taken: draw from the stock."),
        card=face_name(face),
    )


def pile_frozen() -> Reason:
    return _r(
        "pile-frozen",
        N_("A discarded wild card freezes the pile: it cannot be taken."),
    )


def matching_wilds_needed(face: Face) -> Reason:
    return _r(
        "matching-wilds",
        N_("To take a {card} from the pile you must hold two more {cards}."),
        card=face_name(face),
        cards=face_plural(face),
    )


def pair_needed(face: Face) -> Reason:
    return _r(
        "need-pair",
        N_("To take the discard pile you must hold two natural {cards} to meld with its top card."),
        cards=face_plural(face),
    )


def top_card_not_melded(face: Face) -> Reason:
    return _r(
        "meld-top-card",
        N_("Taking the pile means melding its top {card} at once with two {cards} from your hand."),
        card=face_name(face),
        cards=face_plural(face),
    )


# --- going out ------------------------------------------------------------------------------------


def books_to_go_out(deal: int, needed: BookCount, have: BookCount) -> Reason:
    return _r(
        "books-to-go-out",
        N_("Going out in deal {deal} needs {needed}; your side has {have}."),
        deal=deal,
        needed=books_in_refusal(needed),
        have=books_in_refusal(have),
    )


def books_of_any_kind_to_go_out(count: int, have: int) -> Reason:
    return _r(
        "books-to-go-out",
        N_("Going out needs at least {count} books of any kind; your side has {have}."),
        count=count,
        have=have,
    )


def special_book_to_go_out() -> Reason:
    return _r(
        "books-to-go-out",
        N_("Going out needs a special book among your side's books."),
    )


def partner_not_in_foot() -> Reason:
    return _r(
        "partner-in-foot",
        N_("Your partner must pick up their foot and play from it before you may go out."),
    )


def no_concealed_going_out() -> Reason:
    return _r(
        "no-concealed-going-out",
        N_(
            "Your side had no meld on the table before this turn, but a partner reaches the "
            "foot only by melding: with partners who must be in the foot, a side never goes "
            "out concealed."
        ),
    )


def must_go_out() -> Reason:
    return _r(
        "must-go-out",
        N_(
            "Your partner said yes, so you go out this turn: meld all your cards, or all but "
            "one and discard it."
        ),
    )


def ask_partner_first() -> Reason:
    return _r("ask-partner", N_("Ask your partner whether you may go out first."))


def partner_said_no() -> Reason:
    return _r("partner-said-no", N_("Your partner said no: you may not go out this turn."))


def meld_to_go_out() -> Reason:
    return _r(
        "meld-to-go-out",
        N_(
            "In this variant you go out by melding your last card, never by discarding it: "
            "keep two cards or meld them all."
        ),
    )


def discard_to_go_out() -> Reason:
    return _r(
        "discard-to-go-out",
        N_("In this variant you go out by discarding your last card: keep one to discard."),
    )


def keep_cards(left: int, why: Reason) -> Reason:
    return _r(
        "keep-two-cards",
        N_(
            "That would leave you {left} card(s) from your foot, but you may not go out yet: "
            "{why} Keep at least two cards, one to discard and one to hold."
        ),
        left=left,
        why=why,
    )


def cannot_go_out(why: Reason) -> Reason:
    return _r("cannot-go-out", N_("You may not discard your last card yet: {why}"), why=why)


def not_in_foot_to_ask() -> Reason:
    return _r(
        "ask-from-foot",
        N_("You can only go out from your foot, so there is nothing to ask yet."),
    )


def no_partner_to_ask() -> Reason:
    return _r("no-partner", N_("In this game nobody is asked before going out."))


def already_asked() -> Reason:
    return _r("asked-already", N_("You have already asked your partner this turn."))


def not_held_discard(face: Face) -> Reason:
    return _r("not-held", N_("You hold no {card} to discard."), card=face_name(face))


def no_red_three_bonus() -> Reason:
    return _r(
        "red-three-in-book",
        N_("Under these rules red threes are never added to books."),
    )


def not_a_clean_book(index: int) -> Reason:
    return _r(
        "red-three-clean-book",
        N_("A red three joins only a clean book of your side: meld number {number} is not one."),
        number=index + 1,
    )


def book_with_red_three_stays_clean() -> Reason:
    return _r(
        "red-three-book-clean",
        N_("A book holding a red three stays clean: no wild card may join it."),
    )
