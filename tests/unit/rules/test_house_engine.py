"""The engine plays and checks melds under house rules, as it does under the built-in ones."""

import pytest

from scorekeeper.engine import check_meld, play_game
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import get_variant

RICH_WILDS = HouseRules(
    "Rich wilds",
    "pagat",
    {
        "book_bonus.wild": 2000,
        "going_out_bonus": 200,
        "red_three.down": -300,
        "red_three.held": -300,
        "wild_limit.per_wild": 1,
        "wild_limit.extra": 1,
        "first_meld.1": 100,
    },
).checked_variant()


@pytest.mark.parametrize("seed", [3, 8])
def test_a_demo_game_of_house_rules_scores_by_the_house_values(seed):
    game = play_game(RICH_WILDS, seed)

    assert game.variant.id == "house-rich-wilds"
    for deal in game.deals:
        assert deal.entry.variant is RICH_WILDS
        assert validate_deal(deal.entry).errors == ()
        assert tuple(s.total for s in score_deal(deal.entry)) == deal.totals
    for deal in game.deals:
        for side, score in zip(deal.entry.sides, score_deal(deal.entry), strict=True):
            assert score.breakdown["red_threes"] == -300 * (
                side.red_threes_down + side.red_threes_held
            )
            if side.went_out:
                assert score.breakdown["going_out"] == 200


def test_the_meld_checker_follows_the_house_wild_ratio():
    # pagat: naturals >= 2 x wilds; the house: naturals >= wilds + 1
    assert not check_meld(get_variant("pagat"), 2, "K", naturals=4, twos=3).legal
    assert check_meld(RICH_WILDS, 2, "K", naturals=4, twos=3).legal


def test_the_meld_checker_follows_the_house_first_meld():
    # 3 kings and a two: 50 points, enough in pagat's first deal, not in the house's (100)
    assert check_meld(get_variant("pagat"), 1, "K", naturals=3, twos=1, first_meld=True).legal
    check = check_meld(RICH_WILDS, 1, "K", naturals=3, twos=1, first_meld=True)
    assert not check.legal
    assert check.first_meld_minimum == 100


def test_the_demo_command_plays_a_house_rules_file(tmp_path, capsys):
    import json

    from scorekeeper.cli import main

    rules = HouseRules("Rich wilds", "pagat", {"book_bonus.wild": 2000})
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules.to_json()))

    assert main(["demo", "--rules", str(path), "--seed", "3", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["variant"] == "house-rich-wilds"

    path.write_text('{"name": "x", "based_on": "pagat", "changes": {"book_bonus.wild": 7}}')
    assert main(["demo", "--rules", str(path)]) == 2
    assert "Wild book bonus must be a multiple of 5" in capsys.readouterr().err
    assert main(["demo", "--rules", str(tmp_path / "missing.json")]) == 2
