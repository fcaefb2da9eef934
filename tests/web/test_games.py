"""The games pages through the test client: start a game, enter deals, follow the score."""

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rules.variants import all_variants, get_variant
from scorekeeper.store.games import Deal, DealSide, Game, GameSide

ANN, CY = "Ann & Bob", "Cy & Di"

# A deal of the partnership game that validates cleanly: Ann & Bob went out.
DEAL_1 = {
    "went_out": "0",
    0: {
        "meld_points": 1210,
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "red_threes_down": 2,
        "cards_left_points": 15,
    },
    1: {
        "meld_points": 600,
        "clean_books": 1,
        "dirty_books": 1,
        "red_threes_down": 1,
        "red_threes_held": 1,
        "cards_left_points": 120,
    },
}
DEAL_1_TOTALS = (4595, 1280)


def form_data(deal: dict) -> dict[str, str]:
    """A deal as the deal form posts it: ``sides-<i>-<field>`` plus the deal-wide fields."""
    data = {}
    for key, value in deal.items():
        if isinstance(key, int):
            for name, number in value.items():
                data[f"sides-{key}-{name}"] = str(number)
        else:
            data[key] = str(value)
    return data


def start(
    client: FlaskClient, variant: str = "pagat", table: str = "2x4", *names: str, name: str = ""
) -> int:
    data = {"variant": variant, "table": table, "name": name, "start": "1"}
    for index, side_name in enumerate(names or (ANN, CY)):
        data[f"side_names-{index}"] = side_name
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    match = re.fullmatch(r"(/g/[A-Za-z0-9_-]{43})/deals/1", response.headers["Location"])
    assert match
    with client.application.app_context():
        game = db.session.scalars(db.select(Game).order_by(Game.id.desc())).first()
        GAME_PATHS[game.id] = match.group(1)
        return game.id


# Game id -> the address of the game by its edit link, for the games started by ``start``.
GAME_PATHS: dict[int, str] = {}


def game_path(game_id: int) -> str:
    return GAME_PATHS[game_id]


def stored_version(client: FlaskClient, game_id: int, number: int | None = None) -> str:
    """The version a form of the game (or of one of its deals) is made from."""
    with client.application.app_context():
        game = db.session.get(Game, game_id)
        if number is None:
            return str(game.version)
        deal = game.deal(number)
        return str(deal.version if deal is not None else 0)


def post_deal(client: FlaskClient, game_id: int, number: int, deal: dict, **extra: str):
    data = {"version": stored_version(client, game_id, number), **form_data(deal), **extra}
    return client.post(f"{game_path(game_id)}/deals/{number}", data=data)


def html(response) -> str:
    return response.get_data(as_text=True)


def stored_deals(app: Flask, game_id: int) -> list[Deal]:
    with app.app_context():
        return list(db.session.scalars(db.select(Deal).where(Deal.game_id == game_id)))


# --- the list of games -------------------------------------------------------------------


def test_the_home_page_lists_no_games_yet_and_offers_a_new_one(client: FlaskClient) -> None:
    page = html(client.get("/"))

    assert "No games yet" in page
    assert 'href="/games/new"' in page


def test_games_are_listed_newest_first_in_progress_then_finished(client: FlaskClient) -> None:
    first = start(client, name="Older")
    second = start(client, name="Newer")
    finished = start(client, name="Done")
    for number in range(1, 5):
        assert post_deal(client, finished, number, deal_for(number)).status_code == 303

    page = html(client.get("/"))

    in_progress, done = page.split("Finished</h3>")
    assert in_progress.index("Newer") < in_progress.index("Older")
    assert "Done" in done and "Ann &amp; Bob won." in done
    assert "Deal 1 of 4 is next." in in_progress
    assert first != second


# --- starting a game ---------------------------------------------------------------------


def test_new_game_starts_with_the_defaults_in_two_taps(app: Flask, client: FlaskClient) -> None:
    page = html(client.get("/games/new"))
    assert 'value="pagat" data-tables="2x4 2x6 2x2 3x3 4x4 5x5 6x6" checked' in page
    assert '<option value="2x4" selected>2 teams of 2</option>' in page
    for variant in all_variants():
        assert escape(variant.summary) in page

    # What the browser sends for the untouched form: every name field empty.
    data = {"variant": "pagat", "table": "2x4", "name": "", "start": "1"}
    data.update({f"side_names-{i}": "" for i in range(7)})
    response = client.post("/games/new", data=data)

    assert response.status_code == 303
    with app.app_context():
        game = db.session.scalars(db.select(Game)).one()
        assert game.side_names == ("Team 1", "Team 2")
        assert game.players == 4
        assert game.rules == get_variant("pagat").to_dict()
        assert game.created_at is not None


def test_individual_variants_name_players_and_keep_only_the_tables_sides(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, "simpson", "3x3", "Eve", "", "", "Not used")

    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.side_names == ("Eve", "Player 2", "Player 3")
        assert game.players == 3


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"variant": "simpson", "table": "2x4"}, "Steve Simpson is not played at that table."),
        ({"table": "9x9"}, "Partnership (pagat.com) is not played at that table."),
        ({"side_names-0": "Us", "side_names-1": "us"}, "Give each side a different name."),
        ({"side_names-1": "Team 1"}, "Give each side a different name."),
        ({"side_names-0": "x" * 41}, "Keep names to 40 characters."),
        ({"name": "x" * 81}, "Keep the name to 80 characters."),
    ],
)
def test_new_game_refuses_what_cannot_be_played(
    app: Flask, client: FlaskClient, data: dict[str, str], message: str
) -> None:
    response = client.post(
        "/games/new", data={"variant": "pagat", "table": "2x4", "start": "1", **data}
    )

    assert response.status_code == 422
    assert message in html(response)
    with app.app_context():
        assert db.session.scalars(db.select(Game)).first() is None


def test_without_script_the_update_button_shows_the_variants_tables_and_keeps_names(
    client: FlaskClient,
) -> None:
    data = {"variant": "simpson", "table": "2x4", "side_names-0": "Eve", "refresh": "1"}

    page = html(client.post("/games/new", data=data))

    assert '<option value="2x2" selected>2 players</option>' in page
    assert '<option value="2x4" disabled>' in page
    assert 'value="Eve"' in page
    assert "not played at that table" not in page
    assert 'placeholder="Player 2"' in page


# --- the deal form -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_the_deal_form_has_the_fields_the_variant_scores_and_no_others(
    client: FlaskClient, variant
) -> None:
    table = variant.tables[0]
    names = [f"Side {i}" for i in range(table.sides)]
    game_id = start(client, variant.id, f"{table.sides}x{table.players}", *names)

    page = html(client.get(f"{game_path(game_id)}/deals/1"))

    assert ('name="sides-0-wild_books"' in page) == variant.wild_books
    assert ('name="sides-0-black_three_books"' in page) == variant.black_three_books
    assert ('name="sides-0-meld_black_three"' in page) == variant.black_three_books
    assert ('name="sides-0-exact_22"' in page) == (variant.exact_22_bonus is not None)
    assert ('name="sides-0-red_threes_down"' in page) == variant.red_threes_laid_down
    for field in (
        "meld_points",
        "clean_books",
        "dirty_books",
        "red_threes_held",
        "cards_left_points",
        "left_black_three",
    ):
        assert f'name="sides-{table.sides - 1}-{field}"' in page
    assert page.count('type="radio" name="went_out"') == table.sides + 1


def test_the_deal_form_shows_the_deals_first_meld_and_going_out_needs(
    client: FlaskClient,
) -> None:
    game_id = start(client, "brouillette-low", "2x2", "Eve", "Flo")

    first = html(client.get(f"{game_path(game_id)}/deals/1"))
    last = html(client.get(f"{game_path(game_id)}/deals/4"))

    assert "First meld: at least 50 points in one go." in first
    assert "To go out, a side needs at least 1 clean book and 1 dirty book." in first
    assert "First meld: at least 150 points in one go." in last
    assert "To go out, a side needs at least 2 clean books and 2 dirty books." in last


def test_every_field_is_labelled_numeric_and_linked_to_its_rule(client: FlaskClient) -> None:
    game_id = start(client)

    page = html(client.get(f"{game_path(game_id)}/deals/1"))

    ids = re.findall(r'<input type="number" inputmode="numeric" id="([^"]+)"', page)
    assert len(ids) == 2 * (7 + 5 + 6)
    for input_id in ids:
        assert f'<label for="{input_id}">' in page
    for section in ("card-values", "books", "red-threes", "going-out", "end-of-deal", "first-meld"):
        assert f'href="/rules/pagat#{section}" target="_blank" rel="noopener"' in page
    assert "Rules on card values (opens in a new tab)" in page


def test_a_valid_deal_is_saved_and_the_scoreboard_shows_it(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)

    response = post_deal(client, game_id, 1, DEAL_1)

    assert response.status_code == 303
    assert response.headers["Location"] == game_path(game_id), "the page opens on the totals"
    [deal] = stored_deals(app, game_id)
    assert deal.version == 1 and not deal.stock_ran_out
    page = html(client.get(response.headers["Location"]))
    assert "Deal 1 saved." in page
    assert "Ann &amp; Bob leads with 4,595 points." in page
    # Counts in words, never "2× 1000"; red threes laid down and still held on lines of their own.
    assert (
        '<tr><th scope="row">Clean books</th>'
        '<td><span class="times">2 books:</span> 1000</td>'
        '<td><span class="times">1 book:</span> 500</td></tr>'
    ) in page
    assert (
        '<tr><th scope="row">Red threes laid down</th>'
        '<td><span class="times">2 laid down:</span> 200</td>'
        '<td><span class="times">1 laid down:</span> 100</td></tr>'
    ) in page
    assert (
        '<tr><th scope="row">Red threes still held</th><td>0</td>'
        '<td><span class="times">1 held:</span> -100</td></tr>'
    ) in page
    assert "×" not in page.split('id="deal-1"')[1]
    assert "Enter deal 2" in page


def test_rules_errors_are_shown_beside_their_field_and_nothing_is_saved(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    deal = {**DEAL_1, 0: {**DEAL_1[0], "clean_books": 1, "meld_points": 1215}}

    response = post_deal(client, game_id, 1, deal)

    assert response.status_code == 422
    page = html(response)
    assert "Nothing was saved." in page
    assert re.search(r'id="sides-0-clean_books"[^>]*aria-invalid="true"', page), (
        "the clean books field is marked"
    )
    assert (
        '<p class="field-error" id="sides-0-clean_books-p1">Ann &amp; Bob went out with '
        "1 clean book, but going out in deal 1 needs at least 2.</p>"
    ) in page
    assert 'value="1215"' in page, "what was typed is kept"
    assert 'id="went_out-0" value="0" checked' in page
    assert stored_deals(app, game_id) == []


@pytest.mark.parametrize(
    ("side", "values", "message"),
    [
        (
            1,
            {"cards_left_points": 12},
            "Cy &amp; Di: points of cards left must be a multiple of 5, as every card is "
            "(entered 12).",
        ),
        (0, {"dirty_books": -1}, "Ann &amp; Bob: dirty books cannot be below 0 (entered -1)."),
        (
            1,
            {"red_threes_held": 9},
            "Together, the sides have 12 red threes (Ann &amp; Bob 2, Cy &amp; Di 10), but 5 "
            "decks hold only 10.",
        ),
    ],
)
def test_impossible_numbers_are_explained(
    client: FlaskClient, side: int, values: dict, message: str
) -> None:
    game_id = start(client)

    response = post_deal(client, game_id, 1, {**DEAL_1, side: {**DEAL_1[side], **values}})

    assert response.status_code == 422
    assert message in html(response)


def test_deal_wide_errors_go_to_the_went_out_choice(client: FlaskClient) -> None:
    game_id = start(client)
    deal = {key: value for key, value in DEAL_1.items() if key != "went_out"}

    page = html(post_deal(client, game_id, 1, deal))

    assert 'id="went-out-p1">A deal ends when a side goes out or the stock runs out' in page
    assert '<a href="#went-out">A deal ends' in page


def test_the_stock_running_out_means_nobody_went_out(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    deal = {
        "went_out": "stock",
        0: {"meld_points": 500, "clean_books": 1, "cards_left_points": 40},
        1: {"meld_points": 300, "dirty_books": 1, "cards_left_points": 85},
    }

    assert post_deal(client, game_id, 1, deal).status_code == 303
    [stored] = stored_deals(app, game_id)
    assert stored.stock_ran_out
    page = html(client.get(f"{game_path(game_id)}"))
    assert "The stock ran out." in page


def test_went_out_choice_must_be_one_of_the_sides(client: FlaskClient) -> None:
    game_id = start(client)

    response = post_deal(client, game_id, 1, {**DEAL_1, "went_out": "7"})

    assert response.status_code == 422
    assert "Choose who went out from the list." in html(response)


def test_words_in_number_fields_are_refused_in_plain_words(client: FlaskClient) -> None:
    game_id = start(client)
    deal = {**DEAL_1, 1: {**DEAL_1[1], "meld_points": "six hundred"}}

    response = post_deal(client, game_id, 1, deal)

    assert response.status_code == 422
    page = html(response)
    assert "Cy &amp; Di, Melded cards (points): Enter a whole number, such as 0 or 120." in page
    assert 'value="six hundred"' in page


# Simpson: a player who did not go out may end holding only red threes (never laid down).
HELD_ONLY_RED = {
    "went_out": "0",
    0: {"meld_points": 400, "clean_books": 1, "dirty_books": 1},
    1: {"meld_points": 100, "red_threes_held": 1},
}


def test_warnings_ask_for_a_confirmation_before_saving(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, "simpson", "2x2")
    deal = HELD_ONLY_RED

    first = post_deal(client, game_id, 1, deal)

    assert first.status_code == 200
    page = html(first)
    assert "Please check before saving" in page
    assert (
        "Cy &amp; Di: with no points of cards left, every player still holding cards holds "
        "only red threes. Is that right?"
    ) in page
    assert "Save anyway" in page
    assert stored_deals(app, game_id) == []
    key = re.search(r'name="confirm" value="([0-9a-f]+)"', page).group(1)

    second = post_deal(client, game_id, 1, deal, confirm=key)

    assert second.status_code == 303
    assert len(stored_deals(app, game_id)) == 1


def test_a_confirmation_covers_only_the_warnings_that_were_shown(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, "simpson", "2x2")
    warned = HELD_ONLY_RED
    key = re.search(
        r'name="confirm" value="([0-9a-f]+)"', html(post_deal(client, game_id, 1, warned))
    ).group(1)
    other = {"went_out": "1", 0: warned[1], 1: warned[0]}

    response = post_deal(client, game_id, 1, other, confirm=key)

    assert response.status_code == 200
    assert "Ann &amp; Bob: with no points of cards left" in html(response)
    assert stored_deals(app, game_id) == []


def test_errors_are_never_saved_even_when_confirmed(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    deal = {**DEAL_1, 0: {**DEAL_1[0], "clean_books": 0, "cards_left_points": 0}}

    response = post_deal(client, game_id, 1, deal, confirm="anything")

    assert response.status_code == 422
    assert "Save anyway" not in html(response)
    assert stored_deals(app, game_id) == []


# --- the card counter without script ------------------------------------------------------


def test_counted_cards_fill_empty_points_fields_on_submit(client: FlaskClient) -> None:
    game_id = start(client)
    counted = {
        **DEAL_1[1],
        "meld_points": "",
        "cards_left_points": "",
        "meld_joker": 2,
        "meld_ace": 10,
        "meld_high": 30,
        "meld_low": 4,
        "left_high": 10,
        "left_low": 4,
        "left_black_three": 0,
    }

    response = post_deal(client, game_id, 1, {**DEAL_1, 1: counted})

    assert response.status_code == 303
    page = html(client.get(f"{game_path(game_id)}"))
    # 2 jokers, 10 aces, 30 K-8, 4 7-4 = 620 melded; 10 K-8 and 4 7-4 = 120 left.
    assert "<td>620</td>" in page
    assert "<td>-120</td>" in page


def test_typed_points_win_over_the_counter(client: FlaskClient) -> None:
    game_id = start(client)
    both = {**DEAL_1[1], "meld_points": 600, "meld_joker": 1}

    post_deal(client, game_id, 1, {**DEAL_1, 1: both})

    assert "<td>600</td>" in html(client.get(f"{game_path(game_id)}"))


def test_counted_points_are_shown_when_the_deal_is_refused(client: FlaskClient) -> None:
    game_id = start(client)
    counted = {**DEAL_1[1], "meld_points": "", "meld_joker": 1, "meld_low": -2}

    response = post_deal(client, game_id, 1, {**DEAL_1, 1: counted})

    page = html(response)
    assert response.status_code == 422
    assert "Enter a count from 0 to 999." in page
    assert '<details class="counter" open>' in page


def test_a_score_pad_carries_every_side_s_counters(client: FlaskClient) -> None:
    game_id = start(client)

    page = html(client.get(f"{game_path(game_id)}/deals/1"))

    assert page.count('<details class="counter">') == 4
    assert 'name="sides-1-left_black_three"' in page
    assert '<template id="counters">' not in page and 'class="counter-open"' not in page


THREE = ("brouillette-low", "3x3", "Eve", "Flo", "Gus")


def test_past_a_score_pad_the_counters_are_sent_once_and_each_side_has_buttons(
    client: FlaskClient,
) -> None:
    game_id = start(client, *THREE)

    page = html(client.get(f"{game_path(game_id)}/deals/1"))

    template = page.split('<template id="counters">', 1)[1].split("</template>", 1)[0]
    assert template.count('<details class="counter">') == 2
    assert page.count('<details class="counter"') == 2
    assert 'id="sides-0-meld_joker" name="sides-0-meld_joker" min="0">' in template
    assert "sides-1-meld_joker" not in page and "sides-2-left_joker" not in page
    buttons = re.findall(r'<button class="counter-open" name="count" value="([^"]+)">', page)
    assert buttons == ["0-meld", "0-left", "1-meld", "1-left", "2-meld", "2-left"]
    assert '<button id="enter-saves" hidden></button>' in page
    # The hints go with the first side alone.
    assert page.count("Cards still in hands and feet") == 1


def test_a_side_s_counter_button_shows_the_form_again_with_it_open_and_saves_nothing(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, *THREE)
    typed = {"went_out": "0", 0: {"meld_points": 210}, 1: {"meld_points": 95}}

    response = post_deal(client, game_id, 1, typed, count="1-left")

    page = html(response)
    assert response.status_code == 200
    assert stored_deals(app, game_id) == []
    assert 'id="problems"' not in page
    assert 'id="went_out-0" value="0" checked' in page
    assert 'id="sides-0-meld_points" name="sides-0-meld_points" value="210"' in page
    assert 'id="sides-1-meld_points" name="sides-1-meld_points" value="95"' in page
    opened = page.split('<details class="counter" open>', 1)[1].split("</details>", 1)[0]
    assert 'data-counter-for="sides-1-cards_left_points"' in opened
    assert 'name="sides-1-left_black_three"' in opened
    assert page.count('<details class="counter" open>') == 1
    assert 'value="1-left"' not in page and 'value="1-meld"' in page
    assert '<input type="hidden" name="version" value="0">' in page


def test_a_counted_side_keeps_its_counter_when_the_deal_is_refused(client: FlaskClient) -> None:
    game_id = start(client, *THREE)
    counted = {"went_out": "0", 2: {"meld_points": "", "meld_joker": 1, "meld_low": -2}}

    page = html(post_deal(client, game_id, 1, counted))

    assert "Enter a count from 0 to 999." in page
    opened = page.split('<details class="counter" open>', 1)[1].split("</details>", 1)[0]
    assert 'id="sides-2-meld_joker" name="sides-2-meld_joker" value="1"' in opened
    assert 'value="2-meld"' not in page and 'value="2-left"' in page


def test_black_threes_melded_in_a_black_three_book_count_as_the_variant_says(
    client: FlaskClient,
) -> None:
    game_id = start(client, "brouillette-low", "3x3", "Eve", "Flo", "Gus")
    deal = {
        "went_out": "0",
        0: {
            "meld_points": "",
            "meld_black_three": 7,
            "meld_ace": 14,
            "meld_two": 1,
            "meld_high": 6,
            "clean_books": 1,
            "dirty_books": 1,
            "black_three_books": 1,
        },
        1: {"meld_points": 0, "cards_left_points": 40},
        2: {"meld_points": 0, "cards_left_points": 30},
    }

    response = post_deal(client, game_id, 1, deal)

    assert response.status_code == 303, html(response)
    # 7 black threes at -5, 14 aces at 20, a two at 20 and 6 K-8 at 10 = 325.
    assert "<td>325</td>" in html(client.get(f"{game_path(game_id)}"))


# --- editing and deleting ------------------------------------------------------------------


def deal_for(number: int) -> dict:
    """A valid deal of the partnership game for any deal number: both sides meld at least
    the 150 points of deal 4's first meld."""
    return DEAL_1


def test_editing_a_deal_prefills_it_and_the_totals_follow(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)
    post_deal(client, game_id, 2, deal_for(2))

    form = html(client.get(f"{game_path(game_id)}/deals/1"))
    assert "Edit deal 1" in form
    assert 'id="sides-0-meld_points" name="sides-0-meld_points" value="1210"' in form
    assert 'id="went_out-0" value="0" checked' in form

    edited = {**DEAL_1, 1: {**DEAL_1[1], "cards_left_points": 20}}
    response = post_deal(client, game_id, 1, edited)

    assert response.status_code == 303
    page = html(client.get(response.headers["Location"]))
    assert "Deal 1 updated." in page
    # Cy & Di: 1380 in deal 1 (100 more), 1280 in deal 2.
    assert re.search(
        r"<tfoot><tr><th scope=\"row\">Total</th><td class=\"num lead\">9190</td>"
        r"<td class=\"num\">2660</td>",
        page,
    )
    # Each deal at the game's version its last save was made on: 1, 2, then 3 for the edit.
    versions = {deal.number: deal.version for deal in stored_deals(app, game_id)}
    assert versions == {1: 3, 2: 2}


def test_a_finished_game_names_the_winner(client: FlaskClient) -> None:
    game_id = start(client)
    for number in range(1, 5):
        post_deal(client, game_id, number, deal_for(number))

    page = html(client.get(f"{game_path(game_id)}"))

    assert "Final score" in page
    assert "Ann &amp; Bob won with 18,380 points." in page
    assert '<p class="next">' not in page


def test_a_tie_names_every_leader(client: FlaskClient) -> None:
    game_id = start(client)
    same = {
        "went_out": "stock",
        0: {"meld_points": 300, "dirty_books": 1, "cards_left_points": 85},
        1: {"meld_points": 300, "dirty_books": 1, "cards_left_points": 85},
    }
    post_deal(client, game_id, 1, same)

    page = html(client.get(f"{game_path(game_id)}"))

    assert "Ann &amp; Bob and Cy &amp; Di are tied for the lead with 515 points." in page


def test_deleting_a_deal_recomputes_the_totals(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)
    post_deal(client, game_id, 2, deal_for(2))

    response = client.post(
        f"{game_path(game_id)}/deals/1/delete",
        data={"version": stored_version(client, game_id, 1)},
    )

    assert response.status_code == 303
    page = html(client.get(f"{game_path(game_id)}"))
    assert "Deal 1 deleted." in page
    assert "Enter deal 1" in page
    assert [deal.number for deal in stored_deals(app, game_id)] == [2]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(DealSide)) == 2


def test_deleting_a_game_asks_first_then_removes_everything(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, name="Friday")
    post_deal(client, game_id, 1, DEAL_1)

    question = html(client.get(f"{game_path(game_id)}/delete"))
    assert "Delete this game?" in question
    assert "“Friday” and its 1 deal will be deleted for good." in question

    response = client.post(
        f"{game_path(game_id)}/delete", data={"version": stored_version(client, game_id)}
    )

    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert "The game Friday was deleted." in html(client.get("/"))
    with app.app_context():
        for model in (Game, GameSide, Deal, DealSide):
            assert db.session.scalars(db.select(model)).first() is None


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/games/99"),
        ("get", "/g/" + "x" * 43),
        ("get", "{game}/deals/5"),
        ("get", "{game}/deals/0"),
        ("post", "{game}/deals/2/delete"),
        ("get", "/g/" + "x" * 43 + "/delete"),
    ],
)
def test_unknown_games_and_deals_are_not_found(client: FlaskClient, method: str, path: str) -> None:
    game_id = start(client)

    response = getattr(client, method)(path.format(game=game_path(game_id)))

    assert response.status_code == 404


def test_every_form_needs_its_csrf_token(database_url: str) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "SQLALCHEMY_DATABASE_URI": database_url,
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()

    assert 'name="csrf_token"' in html(client.get("/games/new"))
    response = client.post("/games/new", data={"variant": "pagat", "table": "2x4"})

    assert response.status_code == 400
    assert "Form expired" in html(response)
    with app.app_context():
        db.engine.dispose()


def test_a_game_keeps_the_rules_it_started_with(
    monkeypatch: pytest.MonkeyPatch, client: FlaskClient
) -> None:
    from scorekeeper.rules import variants

    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)
    changed = variants.PAGAT.with_changes(going_out_bonus=(1000,) * 4)
    monkeypatch.setitem(variants.BUILT_IN, "pagat", changed)

    page = html(client.get(f"{game_path(game_id)}"))

    assert "Ann &amp; Bob leads with 4,595 points." in page


def test_a_finished_game_page_weighs_under_60_kb(client: FlaskClient) -> None:
    game_id = start(client)
    for number in range(1, 5):
        post_deal(client, game_id, number, deal_for(number))

    page = client.get(f"{game_path(game_id)}").get_data()
    assets = re.findall(rb'<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="([^"]+)"', page)
    sizes = []
    for url in assets:
        response = client.get(url.decode())
        sizes.append(len(response.get_data()))
        response.close()

    assert len(assets) >= 2
    assert len(page) + sum(sizes) < 60 * 1024
