"""The engine in the app: the meld checker page and demo games stored like any other."""

import re

from scorekeeper.engine.game import play_game
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.games.scoring import game_score


def text_of(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def test_the_meld_checker_says_why_a_meld_is_refused(client):
    response = client.get("/meld-checker?variant=pagat&deal=2&rank=9&naturals=3&twos=1&jokers=1")
    assert response.status_code == 200
    text = text_of(response)
    assert "Not a legal meld" in text
    assert "at least twice as many natural cards as wild cards" in text
    assert "Card points 100" in text  # three nines, a two and a joker


def test_the_meld_checker_names_a_clean_book_and_its_points(client):
    text = text_of(client.get("/meld-checker?variant=simpson&deal=1&rank=A&naturals=7"))
    assert "Legal meld" in text and "clean · a complete book" in text
    assert "Card points 140" in text
    assert "Reaches the minimum of 50 on its own." in text


def test_a_first_meld_below_the_deal_minimum_is_refused(client):
    text = text_of(
        client.get(
            "/meld-checker?variant=saskatchewan&deal=4&rank=K&naturals=5&twos=1&first_meld=y"
        )
    )
    assert "Not a legal meld" in text
    assert "This deal opens with a concealed book." in text


def test_bad_meld_checker_values_are_named_and_answered_422(client):
    response = client.get("/meld-checker?variant=pagat&deal=1&rank=K&naturals=-3&twos=x")
    assert response.status_code == 422
    text = text_of(response)
    assert "Number must be between 0 and 40." in text
    assert "Not a valid integer value." in text


def test_the_empty_meld_checker_asks_without_answering(client):
    response = client.get("/meld-checker")
    assert response.status_code == 200
    assert "legal meld" not in text_of(response).lower()


def test_a_demo_game_is_stored_with_the_engine_totals(app, client):
    response = client.post("/demo", data={"variant": "brouillette-high", "seed": "11"})
    assert response.status_code == 303
    game_path = response.headers["Location"]
    played = play_game("brouillette-high", 11)
    with app.app_context():
        game = db.session.scalars(db.select(Game)).one()
        score = game_score(game)
        assert score.finished
        assert score.totals == played.totals
        assert game.name == "Demo game (seed 11)"
    board = text_of(client.get(game_path))
    for total in played.totals:
        assert f"{total:,}" in board or str(total) in board


def test_a_demo_game_refuses_a_bad_seed_and_stores_nothing(app, client):
    response = client.post("/demo", data={"variant": "pagat", "seed": "-1"})
    assert response.status_code == 422
    assert "Number must be between 0 and 2147483647." in text_of(response)
    with app.app_context():
        assert db.session.query(Game).count() == 0
