"""Whole deals played by bots: no card is made or lost, and every game ends."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import (
    DealEnd,
    DealState,
    Draw,
    HeuristicBot,
    IllegalAction,
    RandomBot,
    TurnCapReached,
    apply,
    is_legal,
    legal_actions,
    new_deal,
    play_game,
)
from scorekeeper.engine import game as game_module
from scorekeeper.engine.bots import Bot
from scorekeeper.engine.cards import counts_of, shoe
from scorekeeper.engine.game import default_table, play_deal
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import (
    DEALS_PER_GAME,
    BookBonus,
    BookCount,
    PilePickup,
    RankMelds,
    Table,
    Variant,
    WildDiscard,
    all_variants,
    get_variant,
)

VARIANTS = all_variants()


def play_checked(variant: Variant, table: Table, seed: int, bot: Bot, deal: int = 1) -> DealState:
    """Play a deal, checking after every action that every card is still somewhere."""
    shoe_counts = counts_of(card.face for card in shoe(table.decks))
    state = new_deal(variant, deal, table, random.Random(seed))
    assert state.card_counts() == shoe_counts
    while state.outcome is None:
        assert state.turn < game_module.TURN_CAP
        action = bot.choose(state)
        apply(state, action)
        assert state.card_counts() == shoe_counts
        assert all(count >= 0 for hand in state.hands for count in hand)
    return state


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_the_heuristic_bot_never_makes_or_loses_a_card(variant: Variant) -> None:
    for deal in range(1, DEALS_PER_GAME + 1):
        state = play_checked(variant, default_table(variant), deal, HeuristicBot(), deal)
        assert state.outcome is not None


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_random_legal_play_never_makes_or_loses_a_card(variant: Variant) -> None:
    table = min(variant.tables, key=lambda t: t.players)
    state = play_checked(variant, table, 5, RandomBot(5))

    assert state.outcome is not None


def test_every_listed_action_is_legal_along_a_random_deal() -> None:
    variant = get_variant("pagat")
    state = new_deal(variant, 2, default_table(variant), random.Random(3))
    rng = random.Random(3)
    while state.outcome is None:
        actions = legal_actions(state)
        assert actions and all(is_legal(state, action) for action in actions)
        apply(state, rng.choice(actions))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_bot_games_always_end_by_going_out_or_an_empty_stock(variant: Variant) -> None:
    ends = set()
    for seed in range(40):
        game = play_game(variant, seed)
        assert len(game.deals) == DEALS_PER_GAME
        for deal in game.deals:
            assert deal.turns < game_module.TURN_CAP
            ends.add(deal.went_out is None)
            assert deal.stock_ran_out == (deal.went_out is None)
    assert False in ends  # the bots do go out, not only run the stock down


@pytest.mark.parametrize(
    "variant_id, sides, players",
    [("pagat", 2, 6), ("pagat", 3, 3), ("pagat", 5, 5), ("gamerules", 7, 7), ("simpson", 2, 2)],
)
def test_bot_games_end_at_every_table_size(variant_id: str, sides: int, players: int) -> None:
    for seed in range(3):
        game = play_game(variant_id, seed, sides=sides, players=players)
        assert len(game.side_names) == sides and len(game.deals) == DEALS_PER_GAME


def test_a_deal_that_never_ends_hits_the_turn_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "TURN_CAP", 3)
    variant = get_variant("pagat")
    table = default_table(variant)

    with pytest.raises(TurnCapReached):
        play_deal(variant, 1, table, random.Random(0), [HeuristicBot()] * 4)


def test_a_stock_run_dry_is_how_a_deal_ends_when_nobody_goes_out() -> None:
    variant = get_variant("simpson")
    state = play_checked(variant, default_table(variant), 1, RandomBot(1))

    assert state.outcome is not None and state.outcome.end is DealEnd.STOCK_RAN_OUT


def test_a_copied_deal_plays_on_without_touching_the_original() -> None:
    variant = get_variant("saskatchewan")
    state = new_deal(variant, 1, default_table(variant), random.Random(2))
    bot = HeuristicBot()
    for _ in range(30):
        apply(state, bot.choose(state))
    before = state.card_counts(), [list(hand) for hand in state.hands], len(state.history)

    twin = state.copy()
    while twin.outcome is None:
        apply(twin, bot.choose(twin))

    assert (state.card_counts(), state.hands, len(state.history)) == before
    assert state.outcome is None


HOUSE_VARIANTS = [
    get_variant("pagat").with_changes(
        id="house-pagat-mix",
        stock_piles=2,
        wild_discard=WildDiscard.FREEZES_PILE,
        rank_melds=RankMelds.ONE,
        pile_pickup=PilePickup.WHOLE_PILE,
        max_meld_size=None,
    ),
    get_variant("simpson").with_changes(
        id="house-simpson-mix",
        wild_discard=WildDiscard.NEEDS_MATCHING_WILDS,
        book_bonus=BookBonus(clean=300, dirty=100, wild=1000),
        going_out=(BookCount(1, 1, 1),) * 4,
        tables=(Table(3, 12, 12),),
    ),
    get_variant("brouillette-low").with_changes(
        id="house-brouillette-mix", black_three_pair_takes_pile=True, stock_piles=1
    ),
]


@pytest.mark.parametrize("variant", HOUSE_VARIANTS, ids=lambda v: v.id)
def test_house_rule_mixes_play_through_and_validate(variant: Variant) -> None:
    table = variant.tables[0]
    for seed in range(4):
        game = play_game(variant, seed, sides=table.sides, players=table.players)
        for deal in game.deals:
            assert validate_deal(deal.entry).errors == ()
    play_checked(variant, table, 1, RandomBot(1), deal=4)


def test_an_action_found_legal_is_checked_again_once_another_has_been_applied() -> None:
    """`apply` trusts `refusal`'s last yes only while the deal is where it was then."""
    variant = get_variant("pagat")
    state = new_deal(variant, 1, default_table(variant), random.Random(3))
    while not is_legal(state, Draw()):  # red threes are laid down before drawing
        apply(state, legal_actions(state)[0])
    draw = Draw()
    assert is_legal(state, draw)
    apply(state, draw)

    with pytest.raises(IllegalAction, match="already drawn"):
        apply(state, draw)
