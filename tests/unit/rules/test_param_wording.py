"""Each rule parameter worded by its declaration: the phrases its `Param` points to, in each
register that says them, rendered here in plain English; and no page module that names a
parameter to word it."""

import ast
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper.rules.params import PARAM_BY_KEY, PARAMS, WHOLE_RULES
from scorekeeper.rules.phrases import (
    Counted,
    Register,
    books_by_deal,
    books_in_refusal,
    books_to_go_out_in_full,
    say,
    wild_limit_refusal,
    wild_limit_rule,
)
from scorekeeper.rules.variants import (
    EVERY_DEAL_FIELDS,
    PAGAT,
    BookCount,
    PilePickup,
    Variant,
    WildDiscard,
    WildLimit,
    variant_from_dict,
)

PACKAGE = Path(scorekeeper.__file__).parent


class English:
    """English as written: lists with "and", clauses with "; ", labels with ": "."""

    def translate(self, template: str) -> str:
        return template

    def translate_in(self, context: str, template: str) -> str:
        return template

    def plural(self, words: Counted) -> str:
        return (words.singular if words.count == 1 else words.plural) % {"num": words.count}

    def listed(self, items: Sequence[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def number(self, value: int) -> str:
        return str(value)

    def signed(self, value: int) -> str:
        return f"{value:+d}" if value else "0"


def said(words: object) -> str:
    return say(words, English())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("per_wild", "extra", "clause", "sentence", "refusal"),
    [
        (
            1,
            1,
            "natural cards ≥ wild cards + 1",
            "A meld must hold at least 1 more natural card than wild cards.",
            "more natural cards than wild cards",
        ),
        (
            2,
            0,
            "natural cards ≥ 2 × wild cards",
            "A meld must hold at least 2 times as many natural cards as wild cards.",
            "at least twice as many natural cards as wild cards",
        ),
        (
            3,
            0,
            "natural cards ≥ 3 × wild cards",
            "A meld must hold at least 3 times as many natural cards as wild cards.",
            "at least 3 natural cards for every wild card",
        ),
        (
            1,
            2,
            "natural cards ≥ wild cards + 2",
            "A meld must hold at least 2 more natural cards than wild cards.",
            "at least 1 natural cards for every wild card, and 2 more",
        ),
        (
            2,
            1,
            "natural cards ≥ 2 × wild cards + 1",
            "A meld must hold at least 2 natural cards for each wild card, plus 1.",
            "at least 2 natural cards for every wild card, and 1 more",
        ),
    ],
)
def test_the_wild_card_limit_is_one_rule_said_in_three_registers(
    per_wild: int, extra: int, clause: str, sentence: str, refusal: str
) -> None:
    limit = WildLimit(per_wild, extra)

    assert said(wild_limit_rule(limit, Register.CLAUSE)) == clause
    assert said(wild_limit_rule(limit, Register.FULL)) == sentence
    assert wild_limit_refusal(limit).message == refusal


def test_the_comparison_adds_the_most_wild_cards_of_a_book_to_the_limit() -> None:
    worded = WHOLE_RULES["wild_limit"].worded
    assert worded is not None

    assert said(worded(WildLimit(1, 1))) == (
        "natural cards ≥ wild cards + 1; at most 3 in a book of 7"
    )


def test_the_books_to_go_out_are_one_wording_for_pages_and_refusals() -> None:
    books = BookCount(clean=2, dirty=2, wild=1)

    assert said(books_by_deal((books,))) == "2 clean books, 2 dirty books and 1 wild book"
    assert books_in_refusal(books).message == "2 clean books, 2 dirty books and 1 wild book"
    assert books_in_refusal(BookCount(clean=1)).message == "1 clean book"
    assert books_in_refusal(BookCount()).message == "no books"


def test_books_that_change_from_deal_to_deal_are_said_deal_by_deal() -> None:
    going_out = (BookCount(clean=1), BookCount(clean=1), BookCount(), BookCount(dirty=2))

    assert said(books_by_deal(going_out)) == (
        "deals 1–2: 1 clean book; deal 3: no books; deal 4: 2 dirty books"
    )
    assert said(books_to_go_out_in_full(going_out, solo=True)) == (
        "To go out, you must have completed the books the deal asks for (deals 1–2: 1 clean "
        "book; deal 3: no books; deal 4: 2 dirty books)."
    )
    assert said(books_to_go_out_in_full(going_out[:1], solo=False)) == (
        "To go out, your side must have completed at least 1 clean book."
    )


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("pile_pickup", PilePickup.TOP_SEVEN, "the top 7 cards, or the whole pile if fewer"),
        (
            "pile_pickup",
            PilePickup.TOP_SEVEN_FROM_FULL,
            "exactly the top 7 cards, only from a pile of 7 or more",
        ),
        (
            "wild_discard",
            WildDiscard.NEEDS_MATCHING_WILDS,
            "the pile is taken only with 2 matching wild cards",
        ),
        ("max_meld_size", 7, "7"),
        ("first_meld", (50, 90, 120, 150), "50 / 90 / 120 / 150"),
    ],
)
def test_a_choice_worded_with_its_numbers_is_worded_by_its_declaration(
    key: str, value: object, words: str
) -> None:
    param = PARAM_BY_KEY.get(key) or WHOLE_RULES[key]
    assert param.worded is not None

    assert said(param.worded(value)) == words


def test_the_rules_pages_word_no_parameter_by_its_name() -> None:
    names = {f.name for f in fields(Variant)} | {param.key for param in PARAMS}
    tree = ast.parse((PACKAGE / "handbook" / "params.py").read_text(encoding="utf-8"))
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }

    assert named & names == set()


def test_a_per_deal_field_given_as_one_number_is_declared_on_its_field() -> None:
    data = {**PAGAT.to_dict(), "going_out_bonus": 300}

    assert EVERY_DEAL_FIELDS == ("going_out_bonus",)
    assert [param.key for param in PARAMS if param.every_deal] == ["going_out_bonus"]
    assert variant_from_dict(data).going_out_bonus == (300,) * PAGAT.deals
