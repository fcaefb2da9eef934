"""Bots play games of the variant's own number of deals, and open by running score."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import refused, table

from scorekeeper.cli import main
from scorekeeper.engine import Meld, Play, apply
from scorekeeper.engine.cards import Face
from scorekeeper.engine.fuzz import play_random_deal
from scorekeeper.engine.game import default_table, play_game
from scorekeeper.engine.state import new_deal
from scorekeeper.rules.game import score_game
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import PAGAT, SIMPSON, ScoreThreshold

FIVE_DEALS = PAGAT.with_changes(
    first_meld=(50, 90, 120, 150, 180),
    going_out=PAGAT.going_out + PAGAT.going_out[-1:],
    going_out_bonus=(100, 200, 300, 400, 500),
)
BY_SCORE = SIMPSON.with_changes(
    first_meld_by_score=(
        ScoreThreshold(0, 50),
        ScoreThreshold(1500, 90),
        ScoreThreshold(3000, 120),
    )
)


def test_the_bots_play_every_deal_of_a_five_deal_game_and_the_rules_accept_each() -> None:
    game = play_game(FIVE_DEALS, seed=5)

    assert [deal.deal for deal in game.deals] == [1, 2, 3, 4, 5]
    for deal in game.deals:
        assert validate_deal(deal.entry).errors == (), deal.deal
    score = score_game(FIVE_DEALS, game.side_names, game.entries)
    assert score.finished and score.totals == game.totals


@pytest.mark.parametrize("seed", [1, 2])
def test_the_bots_open_by_running_score_and_the_rules_accept_each_deal(seed: int) -> None:
    game = play_game(BY_SCORE, seed=seed)

    running = [0] * game.table.sides
    for deal in game.deals:
        assert deal.entry.running_scores == tuple(running)
        assert validate_deal(deal.entry).errors == (), deal.deal
        running = [total + points for total, points in zip(running, deal.totals, strict=True)]
    assert tuple(running) == game.totals


def test_a_side_at_1600_may_not_open_below_90() -> None:
    table = default_table(BY_SCORE)
    state = new_deal(BY_SCORE, 2, table, random.Random(3), running_scores=(1600,) * table.sides)

    assert state.first_meld_for(0) == 90
    assert new_deal(BY_SCORE, 4, table, random.Random(3)).first_meld_for(0) == 50


def test_the_fuzz_deals_follow_the_variants_number_of_deals() -> None:
    deals = {play_random_deal(FIVE_DEALS, default_table(FIVE_DEALS), seed).deal for seed in (4, 9)}

    assert deals == {5}


def test_a_side_at_1600_is_refused_a_first_meld_below_90_and_a_side_at_0_is_not() -> None:
    variant = PAGAT.with_changes(first_meld_by_score=BY_SCORE.first_meld_by_score)
    state = table(variant, ["A A A K K 5", "5 6 7 9", "5 6 7 9", "5 6 7 9"], deal=2)
    state.running_scores = (1600, 0)

    assert refused(state, Meld((Play(Face.ACE, 3),))) == (
        "Your side's first meld in deal 2 must be worth at least 90 points in cards; these make 60."
    )
    state.running_scores = (0, 1600)
    apply(state, Meld((Play(Face.ACE, 3),)))

    assert state.opened[0]


FIRST_TO_10000 = HouseRules(
    "First to 10000", "pagat", {"deals": 12, "target_score": 10_000}
).checked_variant()
TEN_DEALS = HouseRules("Ten deals", "pagat", {"deals": 10}).checked_variant()


def test_a_demo_game_to_10000_stops_after_the_deal_that_reaches_it() -> None:
    game = play_game(FIRST_TO_10000, seed=3)

    assert [deal.deal for deal in game.deals] == [1, 2]
    assert [deal.totals for deal in game.deals] == [(5105, 580), (6550, 6150)]
    assert game.totals == (11655, 6730) and game.winners == (0,)
    for deal in game.deals:
        assert validate_deal(deal.entry).errors == (), deal.deal
    score = score_game(FIRST_TO_10000, game.side_names, game.entries)
    assert (score.finished, score.ended_after, score.winners) == (True, 2, (0,))


def test_the_bots_play_all_ten_deals_of_a_ten_deal_game() -> None:
    game = play_game(TEN_DEALS, seed=1)

    assert [deal.deal for deal in game.deals] == list(range(1, 11))
    for deal in game.deals:
        assert validate_deal(deal.entry).errors == (), deal.deal
    score = score_game(TEN_DEALS, game.side_names, game.entries)
    assert score.finished and score.totals == game.totals


def test_the_command_line_demo_of_rules_to_10000_stops_at_the_target(tmp_path, capsys) -> None:
    rules = HouseRules("First to 10000", "pagat", {"deals": 12, "target_score": 10_000})
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules.to_json()))

    assert main(["demo", "--rules", str(path), "--seed", "3", "--json"]) == 0

    game = json.loads(capsys.readouterr().out)
    assert [deal["deal"] for deal in game["deals"]] == [1, 2]
    assert [deal["totals"] for deal in game["deals"]] == [[5105, 580], [6550, 6150]]
