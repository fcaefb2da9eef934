"""House rules: a built-in variant with a table's own changes, checked and shared."""

import json

import pytest

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules, diff_from_base, house_rules_of, nearest_base
from scorekeeper.rules.json_entry import answer
from scorekeeper.rules.messages import Severity
from scorekeeper.rules.params import PARAMS, VariantRejected
from scorekeeper.rules.scoring import line_keys, score_deal
from scorekeeper.rules.share_links import link_token, rules_from_link
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variant_checks import validate_variant
from scorekeeper.rules.variant_json import (
    MAX_FILE_BYTES,
    house_rules_from_json,
    read_house_file,
    resolve_variant,
    variant_from_json,
)
from scorekeeper.rules.variants import all_variants, get_variant, variant_from_dict

# The table of the issue: wild books worth 2000, going out worth 200, three clean books to
# go out, and every red three at -300 whether laid down or not.
OUR_TABLE = HouseRules(
    "Our table",
    "pagat",
    {
        "book_bonus.wild": 2000,
        "red_three.down": -300,
        "red_three.held": -300,
        "going_out_bonus": 200,
        **{f"going_out.{deal}.clean": 3 for deal in range(1, 5)},
    },
)


def scored(variant, deal, *sides, stock_ran_out=False):
    entry = DealEntry(variant, deal, sides, stock_ran_out=stock_ran_out)
    assert validate_deal(entry).errors == ()
    return score_deal(entry)


def refused(rules: HouseRules) -> dict[str, str]:
    """Each refused field with its messages (one per line)."""
    problems = rules.problems()
    assert problems, "expected the rules to be refused"
    messages: dict[str, str] = {}
    for problem in problems:
        before = messages.get(problem.field)
        messages[problem.field] = f"{before}\n{problem.message}" if before else problem.message
    return messages


# --- the rules change the totals exactly as their parameters say -----------------------------


def test_every_built_in_variant_is_a_valid_variant():
    for variant in all_variants():
        assert validate_variant(variant) == [], variant.id


def test_house_rules_change_the_totals_as_their_parameters_say():
    variant = OUR_TABLE.checked_variant()
    out = SideEntry(
        meld_points=1210,
        clean_books=3,
        dirty_books=2,
        wild_books=1,
        red_threes_down=2,
        cards_left_points=15,
        went_out=True,
    )
    caught = SideEntry(
        meld_points=600,
        clean_books=1,
        dirty_books=1,
        red_threes_down=1,
        red_threes_held=1,
        cards_left_points=120,
    )
    first, second = scored(variant, 1, out, caught)
    assert first.total == 1210 + 3 * 500 + 2 * 300 + 2000 - 2 * 300 + 200 - 15 == 4895
    assert first.breakdown == {
        "meld_points": 1210,
        "clean_books": 1500,
        "dirty_books": 600,
        "wild_books": 2000,
        "red_threes": -600,
        "going_out": 200,
        "cards_left": -15,
    }
    assert second.total == 600 + 500 + 300 - 300 - 300 - 120 == 680
    # the same deal under the base variant
    first, second = scored(get_variant("pagat"), 1, out, caught)
    assert (first.total, second.total) == (5095, 1280)


def test_house_going_out_books_are_required_in_validation():
    variant = OUR_TABLE.checked_variant()
    two_clean = SideEntry(
        meld_points=1210,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        cards_left_points=15,
        went_out=True,
    )
    other = SideEntry(meld_points=600, clean_books=1, cards_left_points=120)
    report = validate_deal(DealEntry(variant, 2, (two_clean, other)))
    (error,) = report.errors
    assert (error.side, error.field) == (0, "clean_books")
    assert "needs at least 3" in error.message
    assert validate_deal(DealEntry(get_variant("pagat"), 2, (two_clean, other))).ok


def test_card_values_and_first_meld_of_a_house_variant():
    # Simpson's game where sevens to fours are worth 10, black-three points 20 against,
    # the exact-22 bonus 200 and a first meld of 100 in deal 1.
    rules = HouseRules(
        "Tens",
        "simpson",
        {
            "card_points.low": 10,
            "card_points.black_three": 20,
            "exact_22_bonus": 200,
            "first_meld.1": 100,
        },
    )
    variant = rules.checked_variant()
    out = SideEntry(meld_points=700, clean_books=1, dirty_books=1, went_out=True, exact_22=1)
    low = SideEntry(meld_points=100, cards_left_points=40, red_threes_held=1)
    first, second = scored(variant, 1, out, low)
    assert first.total == 700 + 300 + 100 + 100 + 200 == 1400
    assert second.total == 100 - 500 - 40 == -440
    # 95 melded is below the new first meld of 100 (and not a multiple of the low card)
    short = SideEntry(meld_points=95, cards_left_points=40)
    error = next(p for p in validate_deal(DealEntry(variant, 1, (out, short))).errors)
    assert (error.side, error.field) == (1, "meld_points")
    assert "must reach 100" in error.message
    # a clean book of seven tens is now at least 70 points of cards
    thin = SideEntry(meld_points=65, clean_books=1, cards_left_points=40)
    errors = validate_deal(DealEntry(variant, 1, (out, thin))).errors
    assert any("whose cards alone are worth at least 70" in p.message for p in errors)


def test_a_house_variant_without_wild_books_takes_none():
    no_wild = HouseRules(
        "No wild books",
        "gamerules",
        {
            "book_bonus.wild": None,
            **{f"going_out.{deal}.wild": 0 for deal in range(1, 5)},
        },
    )
    variant = no_wild.checked_variant()
    assert not variant.wild_books
    assert "wild_books" not in line_keys(variant)
    side = SideEntry(
        meld_points=900,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        cards_left_points=10,
        went_out=True,
    )
    other = SideEntry(meld_points=100, cards_left_points=50)
    errors = validate_deal(DealEntry(variant, 1, (side, other))).errors
    assert [(e.side, e.field) for e in errors] == [(0, "wild_books")]


def test_black_three_books_for_a_variant_that_had_none():
    rules = HouseRules(
        "Black threes",
        "gamerules",
        {
            "book_bonus.black_three": 250,
            "card_points.black_three_melded": -5,
        },
    )
    variant = rules.checked_variant()
    side = SideEntry(
        meld_points=1000,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        black_three_books=1,
        went_out=True,
        cards_left_points=15,
    )
    other = SideEntry(meld_points=200, cards_left_points=50)
    first, _ = scored(variant, 1, side, other)
    assert first.total == 1000 + 1000 + 600 + 1500 + 250 + 100 - 15 == 4435


def test_more_decks_for_a_table_allow_more_wild_books():
    seven_decks = HouseRules(
        "Seven decks",
        "gamerules",
        {
            "tables": [{"sides": 2, "players": 4, "decks": 7}],
        },
    )
    variant = seven_decks.checked_variant()
    assert variant.table_for(2, 4).decks == 7
    # 5 wild and 2 dirty books need 37 wild cards: too many for 5 decks (30), not for 7 (42)
    side = SideEntry(
        meld_points=2500,
        clean_books=2,
        dirty_books=2,
        wild_books=5,
        cards_left_points=5,
        went_out=True,
    )
    other = SideEntry(meld_points=200, cards_left_points=50)
    assert validate_deal(DealEntry(variant, 1, (side, other))).ok
    assert not validate_deal(DealEntry(get_variant("gamerules"), 1, (side, other))).ok


# --- impossible house variants are refused, naming the field ----------------------------------


@pytest.mark.parametrize(
    ("base", "changes", "field", "words"),
    [
        ("pagat", {"card_points.ace": 22}, "card_points.ace", "multiple of 5"),
        ("pagat", {"card_points.low": 0}, "card_points.low", "at least 5"),
        ("pagat", {"book_bonus.clean": -100}, "book_bonus.clean", "cannot be below 0"),
        ("pagat", {"going_out_bonus": 150.0}, "going_out_bonus", "whole number"),
        ("pagat", {"going_out_bonus": True}, "going_out_bonus", "whole number"),
        ("pagat", {"first_meld.3": -50}, "first_meld.3", "cannot be below 0"),
        ("pagat", {"going_out.2.clean": -1}, "going_out.2.clean", "from 0 to"),
        ("pagat", {"red_three.held": 100}, "red_three.held", "0 or less"),
        (
            "simpson",
            {"red_three.held": -300, "red_three.down": -500},
            "red_three.held",
            "more than a red three laid down",
        ),
        ("simpson", {"going_out.1.wild": 1}, "going_out.1.wild", "no wild books"),
        ("gamerules", {"going_out.2.wild": 5}, "going_out.2.wild", "only 30"),
        (
            "gamerules",
            {"going_out.2.wild": 4, "going_out.2.dirty": 3},
            "going_out.2.dirty",
            "at least 31 wild cards",
        ),
        ("pagat", {"going_out.1.wild": 4}, "going_out.1.wild", "3 decks, which hold only 18"),
        ("gamerules", {"going_out.4.clean": 23}, "going_out.4.clean", "at most 22 clean"),
        (
            "gamerules",
            {"going_out.4.clean": 22, "going_out.4.dirty": 14},
            "going_out.4.dirty",
            "more natural cards",
        ),
        (
            "gamerules",
            {"wild_limit.per_wild": 6, "wild_limit.extra": 6},
            "wild_limit.per_wild",
            "no wild card",
        ),
        ("pagat", {"max_meld_size": 8}, "max_meld_size", "one of 7, none"),
        ("pagat", {"pile_pickup": "half-the-pile"}, "pile_pickup", "one of"),
        ("pagat", {"exact_22_bonus": 100}, "exact_22_bonus", "cut their own hand and foot"),
        ("simpson", {"hand_size": 13}, "cut_for_packets", "add up to 22"),
        (
            "gamerules",
            {"tables": [{"sides": 2, "players": 4, "decks": 0}]},
            "tables",
            "1 to 16 decks",
        ),
        ("gamerules", {"tables": [{"sides": 2, "players": 5, "decks": 5}]}, "tables", "equal size"),
        (
            "gamerules",
            {
                "tables": [
                    {"sides": 2, "players": 4, "decks": 5},
                    {"sides": 2, "players": 4, "decks": 6},
                ]
            },
            "tables",
            "twice",
        ),
        (
            "gamerules",
            {"tables": [{"sides": 2, "players": 4, "decks": 1}]},
            "tables",
            "leaves no stock",
        ),
        ("gamerules", {"tables": [{"sides": 2, "players": 4}]}, "tables", "a list of"),
        (
            "gamerules",
            {"tables": [{"sides": 3, "players": 9, "decks": 7}]},
            "tables",
            "Players and decks: 9 players in 3 sides is not a table this app lays out; house "
            "rules keep to the tables of the built-in variants, or "
            "three or four teams of two.",
        ),
        (
            "pagat",
            {"tables": [{"sides": 4, "players": 8, "decks": 3}]},
            "tables",
            "Players and decks: dealing 8 players a hand of 13 and a foot of 13 takes 208 "
            "cards, which leaves no stock from 3 × 54 = 162 cards.",
        ),
        (
            "pagat",
            {"tables": [{"sides": 5, "players": 10, "decks": 11}]},
            "tables",
            "Players and decks: 10 players in 5 sides is not a table this app lays out",
        ),
        (
            "pagat",
            {"concealed_book_first_meld_deals": [5]},
            "concealed_book_first_meld_deals",
            "past the last deal of a game of 4 deals",
        ),
        (
            "pagat",
            {"concealed_book_first_meld_deals": [13]},
            "concealed_book_first_meld_deals",
            "deal numbers from 1 to 12",
        ),
        (
            "pagat",
            {"first_meld.6": 150},
            "first_meld.6",
            "the game has 4 deals; add deals before setting deal 6",
        ),
        ("pagat", {"wings": 2}, "changes", "unknown parameter"),
    ],
)
def test_impossible_house_variants_are_refused_naming_the_field(base, changes, field, words):
    problems = refused(HouseRules("Trial", base, changes))
    assert field in problems, problems
    assert words in problems[field]
    assert all(p.severity is Severity.ERROR for p in HouseRules("Trial", base, changes).problems())


def test_the_messages_name_the_field_in_words():
    problems = refused(HouseRules("Trial", "gamerules", {"going_out.2.wild": 5}))
    assert problems["going_out.2.wild"] == (
        "Wild books to go out, deal 2: 5 wild books need 35 wild cards, but 4 players play "
        "with 5 decks, which hold only 30."
    )
    problems = refused(HouseRules("Trial", "pagat", {"book_bonus.wild": 1999}))
    assert problems["book_bonus.wild"] == (
        "Wild book bonus must be a multiple of 5, as every score is (entered 1999)."
    )


def test_every_problem_is_reported_at_once():
    problems = refused(
        HouseRules(
            "Trial",
            "gamerules",
            {
                "card_points.joker": "fifty",
                "book_bonus.clean": 503,
                "red_three.held": 50,
                "going_out.2.wild": 5,
            },
        )
    )
    assert set(problems) == {
        "card_points.joker",
        "book_bonus.clean",
        "red_three.held",
        "going_out.2.wild",
    }


def test_a_house_variant_needs_a_name_and_a_known_base():
    assert "name" in refused(HouseRules("  ", "pagat"))
    assert "name" in refused(HouseRules("x" * 61, "pagat"))
    assert "name" in refused(HouseRules("bad\u202ename", "pagat"))
    assert "based_on" in refused(HouseRules("Trial", "canasta"))


def test_the_messages_translate_their_field_labels():
    (problem,) = HouseRules("Trial", "pagat", {"first_meld.2": -5}).problems()
    words = {
        "Minimum first meld, deal {deal}": "Premiere pose, donne {deal}",
        "{field} cannot be below 0 (entered {value}).": "{field} : pas sous 0 ({value}).",
    }
    assert problem.render(lambda text: words.get(text, text)) == (
        "Premiere pose, donne 2 : pas sous 0 (-5)."
    )


# --- the variant a house makes ----------------------------------------------------------------


def test_a_house_variant_has_its_own_id_and_keeps_the_rest_of_its_base():
    variant = OUR_TABLE.checked_variant()
    pagat = get_variant("pagat")
    assert variant.id == "house-our-table"
    assert variant.name == "Our table"
    assert "pagat" in variant.source
    assert variant.tables == pagat.tables and variant.card_points == pagat.card_points
    assert variant.book_bonus.clean == 500 and variant.book_bonus.wild == 2000


def test_inferred_values_a_table_sets_are_no_longer_inferred():
    rules = HouseRules("Sask", "saskatchewan", {"book_bonus.clean": 400})
    variant = rules.checked_variant()
    assert "book_bonus" not in variant.inferred
    assert "red_three" in variant.inferred


def test_a_house_id_is_a_slug_of_the_name():
    assert HouseRules("Ça va, Friday night!", "pagat").id == "house-ca-va-friday-night"
    assert HouseRules("日本", "pagat").id == "house-rules"
    assert HouseRules("x", "pagat", slug="Our Rules").id == "house-our-rules"


def test_the_difference_from_the_base_lists_only_what_changed_with_the_base_value():
    variant = OUR_TABLE.checked_variant()
    differences = {d.key: (d.base, d.value) for d in diff_from_base(variant, get_variant("pagat"))}
    assert differences == {
        "book_bonus.wild": (1500, 2000),
        "red_three.down": (100, -300),
        "red_three.held": (-100, -300),
        "going_out_bonus": (100, 200),
        **{f"going_out.{deal}.clean": (2, 3) for deal in range(1, 5)},
    }
    assert diff_from_base(get_variant("pagat"), get_variant("pagat")) == ()


def test_house_rules_of_a_variant_give_it_back():
    variant = OUR_TABLE.checked_variant()
    again = house_rules_of(variant, get_variant("pagat"))
    assert again == OUR_TABLE
    assert again.variant() == variant
    assert nearest_base(variant).id == "pagat"


def test_every_parameter_key_reads_and_changes_a_variant():
    base = get_variant("brouillette-low")
    for param in PARAMS:
        assert param.field in base.to_dict()
    assert len({p.key for p in PARAMS}) == len(PARAMS)


# --- sharing: export, import, links, inline variants -------------------------------------------


def test_export_then_import_gives_back_the_same_variant():
    exported = json.dumps(OUR_TABLE.to_json())
    imported = read_house_file(exported.encode())
    assert imported == OUR_TABLE
    assert imported.checked_variant() == OUR_TABLE.checked_variant()
    assert len(exported) < 1000


def test_a_share_link_carries_the_same_rules():
    token = link_token(OUR_TABLE)
    assert rules_from_link(token).checked_variant() == OUR_TABLE.checked_variant()


def test_a_whole_variant_imports_as_house_rules_over_its_nearest_base():
    data = get_variant("simpson").to_dict()
    data.update(id="their-rules", name="Their rules", going_out_bonus=250)
    rules = house_rules_from_json(data)
    assert rules.based_on == "simpson"
    assert rules.changes == {"going_out_bonus": 250}
    assert rules.id == "house-their-rules"


def test_a_house_variant_survives_its_frozen_json_form():
    variant = OUR_TABLE.checked_variant()
    assert variant_from_dict(json.loads(json.dumps(variant.to_dict()))) == variant


HOSTILE_FILES = [
    (b"x" * (MAX_FILE_BYTES + 1), "larger than 16 KB"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"{not json", "not valid JSON (line 1, column 2)"),
    (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (b'{"name": NaN, "based_on": "pagat", "changes": {}}', "NaN, which is not a number"),
    (b'{"name": "a", "name": "b", "based_on": "pagat", "changes": {}}', 'key "name" twice'),
    (b"[1, 2, 3]", "must be a JSON object"),
    (b'"pagat"', "must be a JSON object"),
    (b"{}", "name is required"),
    (b'{"name": "x", "based_on": "pagat", "changes": [], "extra": 1}', 'Unknown field "extra"'),
    (b'{"name": "x", "based_on": "pagat", "changes": []}', "changes must be a JSON object"),
    (b'{"name": 5, "based_on": "pagat", "changes": {}}', "name must be text"),
    (b'{"name": "x", "based_on": "../../etc", "changes": {}}', "built-in variant"),
    (b'{"format": "zip", "name": "x", "based_on": "pagat", "changes": {}}', "format must be"),
    (b'{"version": 9, "name": "x", "based_on": "pagat", "changes": {}}', "version 9"),
    (b'{"id": "pagat", "name": "x", "based_on": "pagat", "changes": {}}', "starts with house-"),
    (
        b'{"name": "x", "based_on": "pagat", "changes": {"card_points.joker": 1'
        + b"0" * 5000
        + b"}}",
        "not JSON a variant can be read from",
    ),
    (
        json.dumps(
            {"name": "x", "based_on": "pagat", "changes": {f"k{i}": i for i in range(200)}}
        ).encode(),
        "at most",
    ),
    (
        json.dumps(
            {"name": "x", "based_on": "pagat", "changes": {"card_points.joker": 10**30}}
        ).encode(),
        "from 0 to 100000",
    ),
    (
        json.dumps(
            {"name": "<script>", "based_on": "pagat", "changes": {"going_out.1.wild": 9}}
        ).encode(),
        "9 wild books",
    ),
]


@pytest.mark.parametrize(("raw", "words"), HOSTILE_FILES)
def test_a_malformed_or_hostile_file_is_refused_with_a_message(raw, words):
    with pytest.raises(VariantRejected) as refusal:
        read_house_file(raw)
    messages = [p.message for p in refusal.value.problems]
    assert any(words in message for message in messages), messages


@pytest.mark.parametrize("token", ["!!!", "a" * 5000, "eyJh", link_token(OUR_TABLE)[:-8]])
def test_a_damaged_link_is_refused_with_a_message(token):
    with pytest.raises(VariantRejected) as refusal:
        rules_from_link(token)
    assert refusal.value.problems


def test_an_inline_whole_variant_is_read_strictly():
    data = get_variant("pagat").to_dict()
    data.update(id="club-rules", name="Club rules")
    data["book_bonus"] = {**data["book_bonus"], "wild": 2000}
    variant = variant_from_json(data)
    assert variant.id == "club-rules" and variant.book_bonus.wild == 2000
    del data["red_three"]
    data["card_points"] = {**data["card_points"], "queen": 10}
    with pytest.raises(VariantRejected) as refusal:
        variant_from_json({**data, "colour": "red"})
    assert {p.field for p in refusal.value.problems} == {"colour", "red_three"}


def test_an_inline_variant_may_not_pass_changed_rules_off_as_a_built_in():
    data = get_variant("pagat").to_dict()
    assert variant_from_json(data) == get_variant("pagat")
    data["going_out_bonus"] = 300
    with pytest.raises(VariantRejected) as refusal:
        variant_from_json(data)
    assert [p.field for p in refusal.value.problems] == ["id"]


def test_the_score_answer_takes_an_inline_house_variant():
    body = {
        "variant": OUR_TABLE.to_json(),
        "deal": 1,
        "sides": [
            {
                "meld_points": 1210,
                "clean_books": 3,
                "dirty_books": 2,
                "wild_books": 1,
                "red_threes_down": 2,
                "cards_left_points": 15,
                "went_out": True,
            },
            {
                "meld_points": 600,
                "clean_books": 1,
                "dirty_books": 1,
                "red_threes_down": 1,
                "red_threes_held": 1,
                "cards_left_points": 120,
            },
        ],
    }
    result = answer(body)
    assert result.accepted, result.body
    assert result.body["variant"] == "house-our-table"
    assert [s["total"] for s in result.body["sides"]] == [4895, 680]


def test_the_score_answer_names_the_field_of_a_bad_inline_variant():
    rules = {"name": "x", "based_on": "pagat", "changes": {"book_bonus.dirty": 333}}
    result = answer({"variant": rules, "deal": 1, "sides": [{}, {}]})
    assert not result.accepted
    (error,) = result.body["errors"]
    assert error["field"] == "variant.book_bonus.dirty"
    assert "multiple of 5" in error["message"]


def test_resolve_variant_takes_ids_and_objects_only():
    assert resolve_variant("simpson") is get_variant("simpson")
    with pytest.raises(KeyError):
        resolve_variant("house-nobody")
    with pytest.raises(KeyError):
        resolve_variant(12)
