"""The deal form's messages name the side and the field they are about, say when they add
up all sides, and never show an absurd total."""

from flask.testing import FlaskClient
from house_helpers import make_house_rules
from test_fast_entry import preview
from test_games import ANN, CY, DEAL_1, game_path, html, post_deal, start


def test_a_field_that_is_not_a_number_names_its_side_and_field(client: FlaskClient) -> None:
    game_id = start(client)
    deal = {**DEAL_1, 1: {**DEAL_1[1], "meld_points": "6o0"}}

    answer = preview(client, game_id, 1, deal).json
    page = html(post_deal(client, game_id, 1, deal))

    message = "Cy & Di, Melded cards (points): Enter a whole number, such as 0 or 120."
    assert answer["errors"] == [{"message": message, "target": "sides-1-meld_points"}]
    assert (
        '<p class="field-error" id="sides-1-meld_points-p1">Cy &amp; Di, Melded cards (points): '
        in page
    )


def test_a_huge_number_is_refused_as_typed_and_scored_into_no_total(
    client: FlaskClient,
) -> None:
    game_id = start(client)
    deal = {**DEAL_1, 0: {**DEAL_1[0], "meld_points": "99999999999999999999995"}}

    answer = preview(client, game_id, 1, deal).json

    assert answer["totals"] is None
    assert answer["errors"] == [
        {
            "message": "Ann & Bob, Melded cards (points): Enter a number of at most 6 digits.",
            "target": "sides-0-meld_points",
        }
    ]


def test_red_threes_of_both_sides_say_so_and_mark_each_sides_field(
    client: FlaskClient,
) -> None:
    game_id = start(client)
    deal = {**DEAL_1, 1: {**DEAL_1[1], "red_threes_held": 9}}

    page = html(post_deal(client, game_id, 1, deal))
    answer = preview(client, game_id, 1, deal).json

    message = (
        f"Together, the sides have 12 red threes ({ANN} 2, {CY} 10), but 5 decks hold only 10."
    )
    assert {"message": message, "target": "sides-0-red_threes_held"} in answer["errors"]
    escaped = message.replace("&", "&amp;")
    for side in (0, 1):
        assert f'<p class="field-error" id="sides-{side}-red_threes_held-p1">{escaped}</p>' in page
        assert f'id="sides-{side}-red_threes_held"' in page
    assert page.count(f"{escaped}</a></li>") == 1, "listed once at the top"


def test_clean_books_of_both_sides_say_so_and_mark_each_sides_field(
    client: FlaskClient,
) -> None:
    game_id = start(client)
    deal = {
        "went_out": "0",
        0: {"meld_points": 9000, "clean_books": 12, "cards_left_points": 15},
        1: {"meld_points": 9000, "clean_books": 11, "cards_left_points": 120},
    }

    page = html(post_deal(client, game_id, 1, deal))

    message = (
        "Together, the sides have 23 clean books (Ann &amp; Bob 12, Cy &amp; Di 11), but 5 "
        "decks allow at most 22 (2 of each rank)."
    )
    for side in (0, 1):
        assert f'id="sides-{side}-clean_books-p' in page
        assert message in page
    assert f'<a href="#sides-0-clean_books">{message}</a>' in page


def test_going_out_concealed_is_refused_by_name_where_the_partner_must_be_in_the_foot(
    client: FlaskClient,
) -> None:
    make_house_rules(client, name="Concealed pays", going_out_concealed_bonus=100)
    game_id = start(client, "house-concealed-pays")
    deal = {**DEAL_1, "went_out_concealed": "y"}

    answer = preview(client, game_id, 1, deal).json
    response = post_deal(client, game_id, 1, deal)

    message = (
        f"{ANN} cannot have gone out concealed: in Concealed pays a side goes out only once a "
        "partner has picked up the foot, which takes melding, so the side had melds on the "
        "table before it went out."
    )
    assert answer["errors"] == [{"message": message, "target": "went-out"}]
    assert response.status_code == 422
    page = html(response)
    assert f'<a href="#went-out">{message.replace("&", "&amp;")}</a>' in page
    assert 'class="card went-out has-error"' in page, "shown beside the box it is about"
    assert preview(client, game_id, 1, DEAL_1).json["errors"] == []


def test_the_deal_form_offers_going_out_concealed_only_where_a_side_can(
    client: FlaskClient,
) -> None:
    """Where a partner must be in the foot first (pagat's rule), no side of two goes out
    concealed: the box is not offered, though a deal that says so is still refused by name."""
    make_house_rules(client, name="Concealed pays", going_out_concealed_bonus=100)
    make_house_rules(
        client,
        name="Concealed alone",
        going_out_concealed_bonus=100,
        going_out_needs_partner_in_foot=False,
    )
    waiting = start(client, "house-concealed-pays")
    alone = start(client, "house-concealed-alone")

    assert 'name="went_out_concealed"' not in html(client.get(f"{game_path(waiting)}/deals/1"))
    assert 'name="went_out_concealed"' in html(client.get(f"{game_path(alone)}/deals/1"))
    refused = post_deal(client, waiting, 1, {**DEAL_1, "went_out_concealed": "y"})
    assert refused.status_code == 422
    assert 'name="went_out_concealed" id="went-out-concealed" value="y" checked' in html(refused)
