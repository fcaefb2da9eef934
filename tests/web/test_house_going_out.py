"""Going out as other tables play it, set on the house-rules form and entered on the deal form:
a black-three book counted as a dirty book, a book of sevens that counts toward no kind of
book but is needed, books of any kind, a player who runs out of cards and waits, and a first
meld that needs a book. The API scores the same rules given inline."""

import re

import pytest
from house_helpers import edit_house_rules, make_house_rules, text
from test_house_games import post_deal, totals


def start(client, variant: str, *names: str) -> str:
    """Start a game of lone players, one side each; the address of its scoreboard."""
    sides = {f"side_names-{index}": name for index, name in enumerate(names)}
    response = client.post(
        "/games/new",
        data={
            "variant": variant,
            "table": f"{len(names)}x{len(names)}",
            "name": "",
            "start": "1",
            **sides,
        },
    )
    assert response.status_code == 303, text(response)
    return response.headers["Location"].removesuffix("/deals/1")


def refused(client, game: str, number: int, data: dict[str, str]) -> str:
    response = client.post(f"{game}/deals/{number}", data=data)
    assert response.status_code == 422
    return text(response)


# Three lone players of Brouillette's game (4 decks: 8 black threes). Ann went out in deal 1,
# which asks one clean book and one dirty book, with a clean book and a black-three book: 60
# melded points (seven black threes at -5 each among them).
BLACK_AS_DIRTY = {
    "went_out": "0",
    "sides-0-meld_points": "60",
    "sides-0-clean_books": "1",
    "sides-0-black_three_books": "1",
    "sides-1-cards_left_points": "30",
    "sides-2-cards_left_points": "45",
}


def test_a_black_three_book_set_to_count_as_dirty_lets_its_side_go_out(client) -> None:
    make_house_rules(
        client, base="brouillette-low", name="Black dirty", black_three_book_goes_out_as="dirty"
    )
    game = start(client, "house-black-dirty", "Ann", "Bob", "Cy")

    form = text(client.get(f"{game}/deals/1"))
    post_deal(client, game, 1, BLACK_AS_DIRTY)

    assert "Black-three books count as dirty books." in form
    # 60 + 300 clean + 100 black-three book + 100 going out; -30; -45.
    assert totals(client, game) == (560, -30, -45)
    assert "yet it counts as a dirty book" in text(client.get("/rules/house-black-dirty"))


def test_the_built_in_game_refuses_the_same_deal(client) -> None:
    game = start(client, "brouillette-low", "Ann", "Bob", "Cy")

    page = refused(client, game, 1, BLACK_AS_DIRTY)

    assert "Ann went out with 0 dirty books, but going out in deal 1 needs at least 1." in page


SEVENS_NEEDED = {
    "book_bonus__special_rank": "7",
    "book_bonus__special": 1500,
    "special_book_goes_out_as": "none",
    "going_out_needs_special_book": True,
    "going_out_any_books": 3,
}
WITH_SEVENS = {
    "went_out": "0",
    "sides-0-meld_points": "200",
    "sides-0-clean_books": "1",
    "sides-0-dirty_books": "1",
    "sides-0-special_books": "1",
    "sides-1-cards_left_points": "30",
}


def test_a_book_of_sevens_that_is_needed_but_counts_as_neither(client) -> None:
    make_house_rules(client, base="simpson", name="Sevens needed", **SEVENS_NEEDED)
    game = start(client, "house-sevens-needed", "Ann", "Bob")

    form = text(client.get(f"{game}/deals/1"))
    no_sevens = refused(
        client,
        game,
        1,
        {**WITH_SEVENS, "sides-0-special_books": "0", "sides-0-clean_books": "2"},
    )
    two_books = refused(
        client, game, 1, {**WITH_SEVENS, "sides-0-clean_books": "0", "sides-0-meld_points": "150"}
    )
    post_deal(client, game, 1, WITH_SEVENS)

    assert "Books of sevens count as neither clean nor dirty books." in form
    assert "Going out also needs a book of sevens." in form
    assert "Going out also needs at least 3 books of any kind." in form
    assert "Ann went out with no special book, but going out needs one." in no_sevens
    assert "Ann went out with 0 clean books, but going out in deal 1 needs at least 1." in (
        two_books
    )
    assert (
        "Ann went out with 2 books in all, but going out needs at least 3 books of any kind."
        in (two_books)
    )
    # 200 + 300 clean + 100 dirty + 1,500 sevens + 100 going out; -30.
    assert totals(client, game) == (2200, -30)


def test_a_special_book_cannot_be_needed_without_a_special_rank(client) -> None:
    slug = make_house_rules(client, base="simpson", name="No rank")

    response = edit_house_rules(client, slug, going_out_needs_special_book=True)

    assert response.status_code == 422
    assert (
        "A special book is needed to go out: choose the rank of the special book first; this "
        "variant has none." in text(response)
    )


EMPTY_HANDED = {
    "went_out": "0",
    "sides-0-meld_points": "100",
    "sides-0-clean_books": "1",
    "sides-0-dirty_books": "1",
    "sides-1-meld_points": "150",
    "sides-1-cards_left_points": "0",
}


def test_a_player_who_ran_out_of_cards_and_waited_is_scored(client) -> None:
    make_house_rules(client, base="simpson", name="Run out", players_may_run_out=True)
    plain = start(client, "simpson", "Ann", "Bob")
    game = start(client, "house-run-out", "Ann", "Bob")

    page = refused(client, plain, 1, EMPTY_HANDED)
    post_deal(client, game, 1, EMPTY_HANDED)

    assert (
        "Bob did not go out, so each of its players still holds at least one card: the points "
        "of cards left cannot be 0." in page
    )
    # 100 + 300 + 100 + 100 going out; 150 melded, nothing left.
    assert totals(client, game) == (600, 150)
    assert "A player who runs out of cards without going out waits" in text(
        client.get(f"{game}/deals/2")
    )


def test_a_first_meld_that_needs_a_book_in_deal_two(client) -> None:
    make_house_rules(client, base="simpson", name="Book opens", book_first_meld_deals__2=True)
    game = start(client, "house-book-opens", "Ann", "Bob")
    no_book = {**EMPTY_HANDED, "sides-1-meld_points": "120", "sides-1-cards_left_points": "30"}
    post_deal(client, game, 1, no_book)

    first = text(client.get(f"{game}/deals/1"))
    second = text(client.get(f"{game}/deals/2"))
    page = refused(client, game, 2, no_book)
    post_deal(client, game, 2, {**no_book, "sides-1-dirty_books": "1"})

    assert "The first meld of this deal holds a book." in second
    assert "The first meld of this deal holds a book." not in first
    assert (
        "Bob: the first meld of deal 2 must hold a book, so a side that melded has at least one "
        "book (entered 120 melded card points and no book)." in page
    )
    # Deal 1: 600 and 120 - 30; deal 2: 600 and 120 + 100 dirty - 30.
    assert totals(client, game) == (1200, 280)


# --- the score API, with the rules given inline ----------------------------------------------


def api_score(client, changes: dict, *sides: dict, based_on: str = "simpson", deal: int = 1):
    variant = {"name": "Ours", "based_on": based_on, "changes": changes}
    body = {"variant": variant, "deal": deal, "players": len(sides), "sides": list(sides)}
    return client.post("/api/v1/score", json=body)


@pytest.mark.no_database
def test_the_api_scores_a_black_three_book_counted_as_dirty(client) -> None:
    out = {"meld_points": 60, "clean_books": 1, "black_three_books": 1, "went_out": True}
    caught = {"cards_left_points": 30}
    changes = {"black_three_book_goes_out_as": "dirty"}

    response = api_score(client, changes, out, caught, caught, based_on="brouillette-low")
    plain = api_score(client, {}, out, caught, caught, based_on="brouillette-low")

    assert response.status_code == 200, response.get_json()
    assert [side["total"] for side in response.get_json()["sides"]] == [560, -30, -30]
    assert plain.status_code == 422
    assert plain.get_json()["errors"] == [
        {
            "side": 0,
            "field": "dirty_books",
            "message": "Side 1 went out with 0 dirty books, but going out in deal 1 needs at "
            "least 1.",
        }
    ]


@pytest.mark.no_database
def test_the_api_asks_for_the_books_of_any_kind_and_the_special_book(client) -> None:
    changes = {key.replace("__", "."): value for key, value in SEVENS_NEEDED.items()}
    out = {"meld_points": 200, "clean_books": 1, "dirty_books": 1, "special_books": 1}
    caught = {"cards_left_points": 30}

    accepted = api_score(client, changes, {**out, "went_out": True}, caught)
    no_sevens = api_score(
        client, changes, {**out, "special_books": 0, "clean_books": 2, "went_out": True}, caught
    )

    assert [side["total"] for side in accepted.get_json()["sides"]] == [2200, -30]
    assert no_sevens.get_json()["errors"] == [
        {
            "side": 0,
            "field": "special_books",
            "message": "Side 1 went out with no special book, but going out needs one.",
        }
    ]


@pytest.mark.no_database
def test_the_api_scores_a_player_who_ran_out_and_a_first_meld_with_a_book(client) -> None:
    out = {"meld_points": 100, "clean_books": 1, "dirty_books": 1, "went_out": True}
    empty = {"meld_points": 150}
    no_book = {"meld_points": 120, "cards_left_points": 30}

    ran_out = api_score(client, {"players_may_run_out": True}, out, empty)
    opened = api_score(client, {"book_first_meld_deals": [2]}, out, no_book, deal=2)

    assert [side["total"] for side in ran_out.get_json()["sides"]] == [600, 150]
    assert opened.get_json()["errors"] == [
        {
            "side": 1,
            "field": "meld_points",
            "message": "Side 2: the first meld of deal 2 must hold a book, so a side that "
            "melded has at least one book (entered 120 melded card points and no book).",
        }
    ]


@pytest.mark.no_database
@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"going_out_any_books": 22},
            "variant.going_out_any_books",
            "Books of any kind to go out: 2 players play with 3 decks, whose cards make at "
            "most 21 books, not 22.",
        ),
        (
            {"special_book_goes_out_as": "wild"},
            "variant.special_book_goes_out_as",
            "Toward going out, a special book counts as must be one of clean, dirty, none "
            '(entered "wild").',
        ),
        (
            {"book_first_meld_deals": [5]},
            "variant.book_first_meld_deals",
            "Deals whose first meld needs a book: deal 5 is past the last deal of a game of 4 "
            "deals.",
        ),
    ],
)
def test_the_api_refuses_these_rules_set_wrong_naming_the_parameter(
    client, changes, field, message
) -> None:
    out = {"meld_points": 100, "clean_books": 1, "dirty_books": 1, "went_out": True}

    response = api_score(client, changes, out, {"cards_left_points": 30})

    assert response.status_code == 422
    assert [(e["field"], e["message"]) for e in response.get_json()["errors"]] == [(field, message)]


def test_the_comparison_shows_what_a_black_three_book_counts_as(client) -> None:
    make_house_rules(
        client, base="brouillette-low", name="Black dirty", black_three_book_goes_out_as="dirty"
    )

    page = client.get("/rules/compare?v=house-black-dirty&v=brouillette-low").get_data(True)
    row = re.search(r'<tr id="param-black-three-book-goes-out-as">.*?</tr>', page, re.S)

    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(), re.S)
    # Brouillette's game first, then the house rules built on it.
    assert [re.sub(r"<[^>]+>|\s+", " ", cell).strip() for cell in cells] == [
        "a clean book",
        "a dirty book",
    ]


def test_the_printed_sheet_says_what_going_out_and_the_first_meld_ask(client) -> None:
    make_house_rules(
        client, base="simpson", name="Sheet rules", book_first_meld_deals__2=True, **SEVENS_NEEDED
    )

    sheet = text(client.get("/sheets/house-sheet-rules.html"))

    assert "Books of sevens count as neither clean nor dirty books." in sheet
    assert "Going out also needs a book of sevens." in sheet
    assert "Going out also needs at least 3 books of any kind." in sheet
    assert "and a book" in sheet
    assert "and a book" not in text(client.get("/sheets/simpson.html"))


def test_the_rules_page_tells_a_player_who_may_run_out_to_wait_not_to_keep_cards(client) -> None:
    make_house_rules(client, base="simpson", name="Run out", players_may_run_out=True)

    page = text(client.get("/rules/house-run-out"))
    plain = text(client.get("/rules/simpson"))

    assert "simply waits until the deal ends" in page
    assert "never meld so much that your cards run out" not in page
    assert "never meld so much that your cards run out" in plain


def test_the_rules_page_says_which_deals_open_with_a_book(client) -> None:
    make_house_rules(client, base="simpson", name="Book opens", book_first_meld_deals__2=True)

    page = text(client.get("/rules/house-book-opens"))

    assert (
        "In deal 2 the first meld must hold a book of 7 cards or more, made in the hand or with "
        "the discard pile, and still reach the minimum." in page
    )
    assert "must hold a book" not in text(client.get("/rules/simpson"))


def quick_reference(client, variant: str) -> str:
    """The quick reference of a rules page, in words: each row's label and value."""
    page = client.get(f"/rules/{variant}").get_data(as_text=True)
    section = page.split('id="quick-reference"')[1].split("</section>")[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))


def test_the_quick_reference_says_what_going_out_needs_besides_the_books_of_each_deal(
    client,
) -> None:
    make_house_rules(client, base="simpson", name="Sevens needed", **SEVENS_NEEDED)
    make_house_rules(
        client,
        base="simpson",
        name="Run out",
        players_may_run_out=True,
        going_out_any_books=1,
        first_meld_waived_to_empty_hand=True,
    )
    make_house_rules(
        client, base="brouillette-low", name="Black dirty", black_three_book_goes_out_as="dirty"
    )

    sevens = quick_reference(client, "house-sevens-needed")
    run_out = quick_reference(client, "house-run-out")
    black = quick_reference(client, "house-black-dirty")
    simpson = quick_reference(client, "simpson")

    assert " Books in all at least 3 books of any kind " in sevens
    assert " Special book a clean book of sevens " in sevens
    assert " Clean book of sevens counts as neither a clean nor a dirty book " in sevens
    assert " Books in all at least 1 book of any kind " in run_out
    assert " Out of cards a player who may not go out waits for the end of the deal " in run_out
    assert " no minimum for a first meld that lays down the whole hand " in run_out
    assert " Black-three book counts as a dirty book " in black
    for words in ("Books in all", "Special book", "counts as", "Out of cards", "no minimum"):
        assert words not in simpson
