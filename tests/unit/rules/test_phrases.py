"""The rules said in words, once: the deal form's hints and going-out words, and what a red
three scores as the rules pages tell it, rendered here in plain English."""

from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.rules.phrases import (
    Counted,
    field_hints,
    first_meld_by_side,
    going_out_rule,
    red_three_rule_in_full,
    say,
)
from scorekeeper.rules.variants import PAGAT, SIMPSON, RedThreeScore


class English:
    """English as written, lists with "and", hints' points signed."""

    def translate(self, template: str) -> str:
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


def hints(variant, number: int = 1) -> dict[str, str]:
    return {name: said(hint) for name, hint in field_hints(variant, number).items()}


def test_a_hint_gives_the_points_of_one_and_a_line_of_points_its_help() -> None:
    shown = hints(PAGAT)

    assert shown["clean_books"] == "+500 points each"
    assert shown["red_threes_held"] == "-100 points each"
    assert shown["meld_points"] == "Every melded card, books included."
    assert shown["went_out"] == "The bonus of the side that went out. +100 points."


def test_a_red_three_worth_less_to_a_side_that_did_not_go_out_says_both() -> None:
    variant = PAGAT.with_changes(red_three=RedThreeScore(down=100, held=-100, down_not_out=50))

    assert (
        hints(variant)["red_threes_down"] == "+100 points each; +50 for a side that did not go out"
    )
    assert said(red_three_rule_in_full(variant.red_three)) == (
        "Each red three laid down scores +100 for your side. One still in a hand or foot when "
        "the deal ends counts -100 instead. A side that did not go out scores +50 for each red "
        "three it laid down; when the stock runs out, nobody went out, so every side does."
    )


def test_a_red_three_worth_the_same_either_way_and_one_never_laid_down() -> None:
    assert said(red_three_rule_in_full(RedThreeScore(down=100, held=100))) == (
        "Every red three counts +100 at the end of the deal, laid down or not. Lay them down "
        "anyway: each one brings you a replacement card."
    )
    assert said(red_three_rule_in_full(SIMPSON.red_three)) == (
        "Each red three still in a hand or foot when the deal ends, a foot never picked up "
        "included, costs -500."
    )


def test_books_of_a_special_rank_are_counted_apart_but_go_out_as_clean_books() -> None:
    bonus = replace(PAGAT.book_bonus, special=1000, special_rank="7")
    variant = PAGAT.with_changes(book_bonus=bonus)

    assert hints(variant)["clean_books"] == (
        "+500 points each Books of sevens are not counted here but on their own line; for "
        "going out, they count as clean books."
    )
    assert hints(variant)["special_books"] == "+1000 points each"
    assert said(going_out_rule(variant, 1)) == (
        "To go out, a side needs at least 2 clean books, 2 dirty books and 1 wild book. "
        "Books of sevens count as clean books."
    )


def test_going_out_names_the_deals_bonus_only_where_it_changes() -> None:
    variant = SIMPSON.with_changes(going_out_bonus=(100, 200, 300, 400))

    assert said(going_out_rule(SIMPSON, 2)) == (
        "To go out, a side needs at least 1 clean book and 1 dirty book."
    )
    assert said(going_out_rule(variant, 2)) == (
        "To go out, a side needs at least 1 clean book and 1 dirty book. "
        "Going out scores 200 in this deal."
    )
    assert hints(variant, 3)["went_out"] == "The bonus of the side that went out. +300 points."


def test_each_sides_first_meld_is_listed_with_its_name() -> None:
    assert said(first_meld_by_side(["Ann", "Bob"], [50, 90])) == "Ann 50 and Bob 90"
