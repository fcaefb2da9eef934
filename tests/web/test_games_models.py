"""The stored game: models, the migration that makes them, and the scoring of stored deals."""

import re

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import upgrade
from game_helpers import store_deal
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.extensions import db
from scorekeeper.games.forms import LEFT, MELDED, counter_kinds, entry_fields
from scorekeeper.games.rule_links import RULE_SECTIONS, rule_url
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.game import score_game
from scorekeeper.rules.variants import MAX_DEALS, BookBonus, get_variant
from scorekeeper.store.game_service import start_game
from scorekeeper.store.games import Deal, DealSide, Game
from scorekeeper.store.scores import deal_entry, game_score, game_variant


def two_deals(variant) -> list[DealEntry]:
    out, other = PAGAT_OUT, PAGAT_CAUGHT
    return [
        DealEntry(variant, 1, (out, other), players=4),
        DealEntry(variant, 2, (other, out), players=4),
    ]


def new_game(variant_id: str = "pagat") -> Game:
    variant = get_variant(variant_id)
    game = start_game(variant, variant.tables[0], ["Ann & Bob", "Cy & Di"], "Friday")
    for entry in two_deals(variant):
        store_deal(game, entry)
    db.session.commit()
    return game


def test_a_stored_game_scores_like_its_entries(app: Flask) -> None:
    with app.app_context():
        game = new_game()
        variant = get_variant("pagat")

        score = game_score(db.session.get(Game, game.id))

        assert score == score_game(variant, ("Ann & Bob", "Cy & Di"), two_deals(variant))
        assert score.totals == (4595 + 1280, 1280 + 4595)
        assert deal_entry(game, game.deal(2)) == two_deals(variant)[1]


def test_the_game_is_scored_with_its_frozen_rules(app: Flask) -> None:
    with app.app_context():
        game = new_game()
        rules = dict(game.rules, going_out_bonus=0)
        game.rules = rules
        db.session.commit()

        assert game_variant(game).going_out_bonus == (0, 0, 0, 0)
        assert game_score(game).deals[0].scores[0].total == 4595 - 100


def test_editing_a_deal_counts_versions(app: Flask) -> None:
    with app.app_context():
        game = new_game()
        entry = two_deals(get_variant("pagat"))[0]

        store_deal(game, entry)
        store_deal(game, entry)
        db.session.commit()

        # A deal takes the game's version at its write: deal 1 was written at 1, 3 and 4.
        assert [deal.version for deal in game.deals] == [4, 2]


def test_deleting_a_game_in_the_database_deletes_its_rows(app: Flask) -> None:
    with app.app_context():
        new_game()
        db.session.execute(text("DELETE FROM game"))
        db.session.commit()

        for table in ("game_side", "deal", "deal_side"):
            assert db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0


@pytest.mark.parametrize("number", [0, MAX_DEALS + 1])
def test_deal_numbers_are_one_to_the_longest_game(app: Flask, number: int) -> None:
    with app.app_context():
        game = new_game()
        game.deals.append(Deal(number=number))
        with pytest.raises(IntegrityError):
            db.session.commit()


def test_a_deal_number_is_used_once_per_game(app: Flask) -> None:
    with app.app_context():
        game = new_game()
        game.deals.append(Deal(number=1, sides=[DealSide(position=0)]))
        with pytest.raises(IntegrityError):
            db.session.commit()


def test_the_migrations_build_exactly_the_models(database_url: str) -> None:
    url = database_url
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade(directory=str(PROJECT_ROOT / "migrations"))
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"render_as_batch": True})
            assert compare_metadata(context, db.metadata) == []
    finally:
        engine.dispose()
        with app.app_context():
            db.engine.dispose()


# --- what the form asks, decided from the variant's data -------------------------------------


def test_form_fields_follow_the_variants_data_not_its_name() -> None:
    house = get_variant("pagat").with_changes(
        id="house",
        book_bonus=BookBonus(clean=500, dirty=300, black_three=200),
        exact_22_bonus=50,
    )

    fields = entry_fields(house)

    assert "wild_books" not in fields
    assert "black_three_books" in fields
    assert "exact_22" in fields
    assert fields[0] == "meld_points" and fields[-1] == "cards_left_points"
    assert [kind.kind for kind in counter_kinds(house, MELDED)][-1] == "black_three"


def test_the_counter_knows_each_kind_of_card_left() -> None:
    kinds = {kind.kind: kind.points for kind in counter_kinds(get_variant("simpson"), LEFT)}

    assert kinds == {"joker": 50, "two": 20, "ace": 20, "high": 10, "low": 5, "black_three": 5}


def test_every_field_links_to_a_section_of_the_variants_rules() -> None:
    for field in (*entry_fields(get_variant("brouillette-high")), "went_out", "first_meld"):
        assert re.fullmatch(r"/rules/brouillette-high#[a-z-]+", rule_url("brouillette-high", field))
    assert rule_url("pagat", "cards_left_points") == "/rules/pagat#end-of-deal"
    assert set(RULE_SECTIONS.values()) == {
        "card-values",
        "books",
        "red-threes",
        "going-out",
        "end-of-deal",
        "scoring",
        "first-meld",
    }
