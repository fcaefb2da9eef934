"""The one description of every rule parameter, and what is derived from it."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules.house_rules import HouseRules, house_rules_of
from scorekeeper.rules.messages import Phrase
from scorekeeper.rules.params import (
    PARAM_BY_KEY,
    PARAMS,
    Kind,
    VariantRejected,
    field_description,
    label_of,
    param_value,
    params_for,
)
from scorekeeper.rules.share_links import link_token, rules_from_link
from scorekeeper.rules.variant_json import variant_from_json
from scorekeeper.rules.variants import (
    BUILT_IN,
    MAX_DEALS,
    PAGAT,
    SIMPSON,
    ScoreThreshold,
    Variant,
    variant_from_dict,
)

EVERY_NEW_KEY = {
    "deals": 6,
    "going_out_bonus": 150,
    "going_out_bonus.5": 400,
    "red_three.down_not_out": 50,
    "book_bonus.special_rank": "7",
    "book_bonus.special": 1000,
    "book_bonus.red_three": 300,
    "going_out_concealed_bonus": 100,
    "first_meld_by_score": [
        {"from_score": 0, "minimum": 50},
        {"from_score": 1500, "minimum": 90},
    ],
    "deck": "handnfoot",
    "first_discard_turned": False,
    "first_discard_buried": ["joker"],
    "first_meld.6": 200,
    "going_out.6.clean": 3,
}
"""House rules over the partnership game that use every parameter added with issue 18."""

EVERY_NEW_RULE = HouseRules("Every new rule", "pagat", EVERY_NEW_KEY)


def _english(label: object) -> str:
    return label.render(str) if isinstance(label, Phrase) else str(label)


def _variants() -> list[Variant]:
    return [*BUILT_IN.values(), EVERY_NEW_RULE.checked_variant()]


def test_the_house_variant_with_every_new_key_is_playable_and_reads_each_one():
    variant = EVERY_NEW_RULE.checked_variant()

    assert variant.deals == 6
    assert variant.going_out_bonus == (150, 150, 150, 150, 400, 150)
    assert variant.first_meld == (50, 90, 120, 150, 150, 200)
    assert variant.going_out_for(6).clean == 3
    assert variant.red_three.down_for(went_out=False) == 50
    assert variant.red_three.down_for(went_out=True) == 100
    assert (variant.book_bonus.special_rank, variant.book_bonus.special) == ("7", 1000)
    assert variant.book_bonus.red_three == 300
    assert variant.going_out_concealed_bonus == 100
    assert variant.first_meld_by_score == (ScoreThreshold(0, 50), ScoreThreshold(1500, 90))
    assert variant.deck == "handnfoot"
    assert variant.first_discard_turned is False
    assert [kind.value for kind in variant.first_discard_buried] == ["joker"]


def test_no_parameter_is_labelled_twice():
    labels = [_english(param.label) for param in PARAMS]

    assert len(labels) == len(set(labels))


def test_every_field_of_a_variant_is_a_parameter_or_names_the_variant():
    named = {"id", "name", "summary", "source", "inferred"}
    fields = set(PAGAT.to_dict())

    assert fields - named == {param.field for param in PARAMS}


@pytest.mark.parametrize("param", PARAMS, ids=lambda param: param.key)
def test_every_parameter_has_a_section_a_description_and_its_built_in_values(param):
    assert param.section is not None
    assert param.description().startswith(_english(param.label))
    # A deal past the fourth is in no built-in variant.
    assert ("pagat" in param.built_in_values()) == ((param.deal or 0) <= PAGAT.deals)


def test_each_choice_has_its_own_words():
    for param in PARAMS:
        if param.kind is Kind.CHOICE:
            assert len(param.choice_words) == len(param.choices), param.key
            assert len(set(param.choice_words)) == len(param.choices), param.key


def test_a_choice_is_worded_from_the_spec():
    assert PARAM_BY_KEY["deck"].words_for("handnfoot") == "the special HANDnFOOT deck of 262 cards"
    assert PARAM_BY_KEY["max_meld_size"].words_for(None) == "no limit: a book is seven or more"


def test_built_in_values_are_read_from_the_variants():
    values = PARAM_BY_KEY["book_bonus.wild"].built_in_values()

    assert values["pagat"] == 1500
    assert values["simpson"] is None
    assert PARAM_BY_KEY["first_meld.5"].built_in_values() == {}


def test_a_field_made_of_several_parameters_is_described_by_its_parts():
    assert field_description("book_bonus") == (
        "Book bonuses: black_three, clean, dirty, lady, red_three, special, special_rank, wild."
    )
    assert field_description("first_meld") == (
        "Minimum first meld, deal by deal: one value for each deal, deal 1 first."
    )
    assert _english(label_of("going_out")) == "Books needed to go out, deal by deal"


@pytest.mark.parametrize("variant", _variants(), ids=lambda variant: variant.id)
def test_every_variant_round_trips_through_its_json(variant):
    data = json.loads(json.dumps(variant.to_dict()))

    assert variant_from_dict(data) == variant
    assert variant_from_json(data) == variant


@pytest.mark.parametrize("variant", _variants(), ids=lambda variant: variant.id)
def test_every_variant_round_trips_through_a_share_link(variant):
    rules = house_rules_of(variant, BUILT_IN["pagat"])

    back = rules_from_link(link_token(rules))

    assert back.checked_variant() == variant.with_changes(
        id=back.id,
        name=back.name,
        summary=back.checked_variant().summary,
        source=back.checked_variant().source,
        inferred=back.checked_variant().inferred,
    )
    for param in params_for(variant.deals):
        assert param_value(back.checked_variant(), param.key) == param_value(variant, param.key)


def test_the_house_rules_with_every_new_key_keep_each_one_through_a_link():
    back = rules_from_link(link_token(EVERY_NEW_RULE))

    assert dict(back.changes) == {
        **EVERY_NEW_KEY,
        "going_out_bonus.5": 400,
    }


def test_a_whole_variant_reads_the_engine_choices_like_any_parameter():
    data = {**SIMPSON.to_dict(), "id": "ours", "first_discard_buried": ["queen"]}

    with pytest.raises(VariantRejected) as refused:
        variant_from_json(data)

    assert [p.message for p in refused.value.problems] == [
        "Buried if turned up to start the pile must be a list of card kinds from joker, two, "
        "ace, high, low, black_three, red_three, each once."
    ]


def test_a_whole_variant_may_leave_out_what_older_files_do_not_have():
    data = PAGAT.to_dict()
    for key in (
        "first_discard_turned",
        "first_discard_buried",
        "deck",
        "first_meld_by_score",
        "going_out_concealed_bonus",
        "concealed_opening",
    ):
        del data[key]

    assert variant_from_json({**data, "id": "older"}) == PAGAT.with_changes(id="older")


def test_a_game_read_back_with_a_single_going_out_bonus_has_it_in_every_deal():
    data = {**PAGAT.to_dict(), "going_out_bonus": 200}
    del data["deals"]

    assert variant_from_dict(data).going_out_bonus == (200,) * 4


def test_a_variant_of_the_most_deals_round_trips():
    rules = HouseRules("Long game", "pagat", {"deals": MAX_DEALS, "first_meld.12": 300})
    variant = rules.checked_variant()

    assert variant_from_dict(variant.to_dict()) == variant
    assert variant.first_meld[-1] == 300


def test_more_deals_than_a_game_may_have_are_a_problem_not_an_error():
    rules = HouseRules("Too long", "pagat", {"deals": 13, "first_meld.2": 95})

    assert [p.message for p in rules.problems()] == [
        "Deals in a game must be from 1 to 12 (entered 13)."
    ]
    with pytest.raises(VariantRejected):
        variant_from_json({"name": "Too long", "based_on": "pagat", "changes": {"deals": 13}})
