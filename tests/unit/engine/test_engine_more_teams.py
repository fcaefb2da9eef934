"""Three and four teams of two, as house rules may play them: partners sit apart, a player
of each team in turn, and bots play whole games the rules core accepts and scores alike."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.engine import new_deal
from scorekeeper.engine.fuzz import play_checked
from scorekeeper.engine.game import play_game, side_names
from scorekeeper.rules.dealing import turn
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import Table

TEAMS = HouseRules(
    "Teams of two",
    "pagat",
    {
        "tables": [
            {"sides": 3, "players": 6, "decks": 7},
            {"sides": 4, "players": 8, "decks": 9},
        ]
    },
)


def test_house_rules_may_seat_three_or_four_teams_of_two() -> None:
    assert TEAMS.problems() == []
    assert TEAMS.checked_variant().tables == (Table(3, 6, 7), Table(4, 8, 9))


@pytest.mark.parametrize(
    ("sides", "players", "teammates", "names"),
    [
        (
            3,
            6,
            ((3,), (4,), (5,), (0,), (1,), (2,)),
            ("Player 1 & Player 4", "Player 2 & Player 5", "Player 3 & Player 6"),
        ),
        (
            4,
            8,
            ((4,), (5,), (6,), (7,), (0,), (1,), (2,), (3,)),
            (
                "Player 1 & Player 5",
                "Player 2 & Player 6",
                "Player 3 & Player 7",
                "Player 4 & Player 8",
            ),
        ),
    ],
)
def test_partners_sit_apart_a_player_of_each_team_in_turn(
    sides: int, players: int, teammates: tuple[tuple[int, ...], ...], names: tuple[str, ...]
) -> None:
    variant = TEAMS.checked_variant()
    table = variant.table_for(sides, players)
    assert table is not None

    state = new_deal(variant, 1, table, random.Random(0))

    assert state.teammates == teammates
    assert side_names(table) == names


def test_the_deal_passes_round_six_players_so_each_team_deals_in_turn() -> None:
    variant = TEAMS.checked_variant()

    dealers = [turn(variant, 3, 6, deal).dealer_seat for deal in range(1, 8)]
    dealing_sides = [turn(variant, 3, 6, deal).dealer_side for deal in range(1, 8)]

    assert dealers == [0, 1, 2, 3, 4, 5, 0]
    assert dealing_sides == [0, 1, 2, 0, 1, 2, 0]


@pytest.mark.parametrize(
    ("sides", "players", "went_out", "totals"),
    [
        (3, 6, [1, None, 0, None], (29475, 26350, 20145)),
        (4, 8, [None, 6, 5, 7], (17235, 26835, 26425, 19820)),
    ],
)
def test_bots_play_a_whole_game_of_teams_of_two_to_the_end(
    sides: int, players: int, went_out: list[int | None], totals: tuple[int, ...]
) -> None:
    variant = TEAMS.checked_variant()

    game = play_game(variant, seed=7, sides=sides, players=players)

    assert game.table == Table(sides, players, 7 if sides == 3 else 9)
    assert [deal.went_out for deal in game.deals] == went_out
    for deal in game.deals:
        entry: DealEntry = deal.entry
        assert len(entry.sides) == sides
        assert validate_deal(entry).errors == ()
        assert tuple(score.total for score in score_deal(entry)) == deal.totals
    assert game.totals == totals


@pytest.mark.parametrize(("sides", "players"), [(3, 6), (4, 8)])
def test_random_deals_of_teams_of_two_are_accepted_and_scored_alike(
    sides: int, players: int
) -> None:
    variant = TEAMS.checked_variant()
    table = variant.table_for(sides, players)
    assert table is not None

    findings = play_checked(variant, table, range(4))
    findings += play_checked(variant, table, range(4), against_heuristic=True)

    assert [str(finding) for finding in findings] == []


def test_the_demo_command_plays_house_rules_at_four_teams_of_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "teams.json"
    path.write_text(json.dumps(TEAMS.to_json()))

    assert (
        main(
            [
                "demo",
                "--rules",
                str(path),
                "--sides",
                "4",
                "--players",
                "8",
                "--seed",
                "7",
                "--json",
            ]
        )
        == 0
    )
    played = json.loads(capsys.readouterr().out)
    assert played["players"] == 8
    assert played["sides"][3] == "Player 4 & Player 8"
    assert [sum(deal["totals"][side] for deal in played["deals"]) for side in range(4)] == [
        17235,
        26835,
        26425,
        19820,
    ]

    assert main(["demo", "--rules", str(path), "--sides", "5", "--players", "10"]) == 2
    assert capsys.readouterr().err == "Teams of two has no table for 5 sides and 10 players\n"
