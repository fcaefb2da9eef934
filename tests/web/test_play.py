"""The engine in the app: the meld checker page and demo games stored like any other."""

import re

import pytest

from scorekeeper.engine import reasons
from scorekeeper.engine.cards import Face
from scorekeeper.engine.game import play_game
from scorekeeper.extensions import LANGUAGE_COOKIE, db
from scorekeeper.rules.variants import BookCount
from scorekeeper.store.games import Game
from scorekeeper.store.scores import game_score


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
    assert (
        "This deal opens with a concealed book (seven cards or more, laid down at once), "
        "whatever its points." in text
    )


def test_saskatchewans_last_deal_opens_with_a_concealed_canasta_of_any_points(client):
    text = text_of(
        client.get("/meld-checker?variant=saskatchewan&deal=4&rank=5&naturals=7&first_meld=y")
    )
    assert "Legal meld" in text and "Card points 35" in text
    assert "A concealed book opens this deal, whatever its points." in text


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        (
            "fr",
            "Trop de passe-partout : une combinaison doit avoir au moins deux fois plus de "
            "cartes naturelles que de passe-partout.",
        ),
        (
            "ja",
            "ワイルドカードが多すぎます。"
            "メルドにはワイルドカードの2倍以上のナチュラルカードが必要です。",
        ),
    ],
)
def test_the_meld_checker_refuses_wholly_in_the_readers_language(client, code, sentence):
    client.set_cookie(LANGUAGE_COOKIE, code)
    page = "/meld-checker?variant=pagat&deal=2&rank=9&naturals=3&twos=1&jokers=1"
    text = text_of(client.get(page))

    assert sentence in text
    assert "natural cards" not in text and "wild cards" not in text


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        (
            "fr",
            "Votre camp a déjà une combinaison de ce rang (dames) : complétez-la au lieu d'en "
            "commencer une autre.",
        ),
        ("ja", "チームにはすでにクイーンのメルドがあります。新しく始めずにそこへ加えてください。"),
    ],
)
def test_engine_reasons_take_their_card_words_from_the_catalog(app, code, sentence):
    from flask_babel import force_locale, gettext

    reason = reasons.one_meld_per_rank(Face.QUEEN)
    with app.test_request_context(), force_locale(code):
        assert reason.render(gettext) == sentence


def test_going_out_books_are_counted_in_the_readers_language(app):
    from flask_babel import force_locale, gettext

    reason = reasons.books_to_go_out(4, BookCount(clean=2, dirty=2, wild=1), BookCount(clean=1))
    assert reason.message == (
        "Going out in deal 4 needs 2 clean books, 2 dirty books and 1 wild book; "
        "your side has 1 clean book."
    )
    with app.test_request_context(), force_locale("fr"):
        assert reason.render(gettext) == (
            "Sortir à la donne 4 demande 2 canastas propres, 2 canastas sales et "
            "1 canasta de passe-partout ; votre camp a 1 canasta propre."
        )
    with app.test_request_context(), force_locale("ja"):
        assert reason.render(gettext) == (
            "第4ディールで上がるにはクリーンブック2個、ダーティブック2個とワイルドブック1個が"
            "必要です。チームにはクリーンブック1個があります。"
        )


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


@pytest.mark.parametrize("url", ["/meld-checker", "/demo"])
def test_the_variant_choices_are_named_in_the_readers_language(client, url):
    client.set_cookie(LANGUAGE_COOKIE, "fr")
    html = client.get(url).get_data(as_text=True)

    assert '<option selected value="pagat">En équipes (pagat.com)</option>' in html
    assert ">Brouillette en équipes (primes basses)</option>" in html
    assert "Partnership (pagat.com)" not in html and "low bonuses" not in html
