"""Deal entry at the table: one pass through the rules a save, live totals, Undo."""

from collections import Counter
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_games import (
    CY,
    DEAL_1,
    DEAL_1_TOTALS,
    HELD_ONLY_RED,
    form_data,
    game_path,
    html,
    post_deal,
    start,
    stored_deals,
    stored_version,
)

from scorekeeper.extensions import db
from scorekeeper.games import deal_description, deal_pages, forms, game_pages
from scorekeeper.store import scores as scoring
from scorekeeper.store.games import Game

# A deal whose only problem is a warning: a Simpson player who did not go out holds only red
# threes, so no points of cards are left.
WARNED = HELD_ONLY_RED
REFUSED = {**DEAL_1, 0: {**DEAL_1[0], "clean_books": 1}}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often a save runs each step: the variant, the form, the entry, the validation and
    the variant's score lines, wherever the deal view reaches them."""
    counted: Counter[str] = Counter()

    def count(module: object, name: str, label: str) -> None:
        original: Callable[..., object] = getattr(module, name)

        def counting(*args: object, **kwargs: object) -> object:
            counted[label] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)

    count(scoring, "variant_from_dict", "variant_from_dict")
    count(deal_pages, "deal_form", "deal_form")
    count(forms.DealForm, "entry", "entry")
    count(deal_pages, "validate_deal", "validate_deal")
    count(forms, "entered_fields", "line_keys")
    count(deal_description, "entered_fields", "line_keys")
    count(game_pages, "shown_line_keys", "line_keys")
    # The variant's deal form is described once per variant: from scratch here, as if the
    # variant were met for the first time.
    deal_description.describe_deal_form.cache_clear()
    return counted


@pytest.mark.parametrize(
    ("deal", "status", "shown"),
    [
        (REFUSED, 422, "Nothing was saved."),
        (WARNED, 200, "Please check before saving"),
    ],
)
def test_a_refused_or_warned_save_reads_the_deal_once(
    client: FlaskClient, calls: Counter[str], deal: dict, status: int, shown: str
) -> None:
    game_id = start(client, "simpson", "2x2") if deal is WARNED else start(client)
    calls.clear()

    response = post_deal(client, game_id, 1, deal)

    assert response.status_code == status
    assert shown in html(response)
    assert calls == {
        "variant_from_dict": 1,
        "deal_form": 1,
        "entry": 1,
        "validate_deal": 1,
        "line_keys": 1,
    }


def test_a_save_reads_the_deal_once(app: Flask, client: FlaskClient, calls: Counter[str]) -> None:
    game_id = start(client)
    calls.clear()

    assert post_deal(client, game_id, 1, DEAL_1).status_code == 303

    assert calls == {
        "variant_from_dict": 1,
        "deal_form": 1,
        "entry": 1,
        "validate_deal": 1,
        "line_keys": 1,
    }
    assert len(stored_deals(app, game_id)) == 1


def test_the_deal_form_is_described_once_per_variant(
    app: Flask, client: FlaskClient, calls: Counter[str]
) -> None:
    game_id = start(client)
    assert client.get(f"{game_path(game_id)}/deals/1").status_code == 200
    assert post_deal(client, game_id, 1, DEAL_1).status_code == 303
    assert client.get(f"{game_path(game_id)}/deals/2").status_code == 200
    other_id = start(client)
    assert post_deal(client, other_id, 1, REFUSED).status_code == 422

    assert calls["line_keys"] == 1
    assert calls["deal_form"] == 4


def preview(client: FlaskClient, game_id: int, number: int, deal: dict):
    return client.post(f"{game_path(game_id)}/deals/{number}/preview", data=form_data(deal))


def test_the_preview_scores_the_deal_as_typed_and_saves_nothing(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)

    answer = preview(client, game_id, 1, DEAL_1)

    assert answer.status_code == 200
    assert answer.json == {"totals": list(DEAL_1_TOTALS), "errors": [], "warnings": []}
    assert stored_deals(app, game_id) == []


def test_the_preview_gives_the_totals_so_far_and_the_problems_save_would_show(
    client: FlaskClient,
) -> None:
    game_id = start(client)
    half_typed = {"went_out": "0", 0: {"meld_points": 1210}, 1: {"meld_points": 600}}

    answer = preview(client, game_id, 1, half_typed).json

    assert answer["totals"] == [1310, 600]
    assert {
        "message": "Ann & Bob went out with 0 clean books, but going out in deal 1 needs at "
        "least 2.",
        "target": "sides-0-clean_books",
    } in answer["errors"]


def test_the_preview_names_a_field_that_is_not_a_number(client: FlaskClient) -> None:
    game_id = start(client)

    answer = preview(client, game_id, 1, {**DEAL_1, 1: {**DEAL_1[1], "meld_points": "6o0"}})

    assert answer.status_code == 200
    assert answer.json["totals"] is None
    assert answer.json["errors"] == [
        {
            "message": "Cy & Di, Melded cards (points): Enter a whole number, such as 0 or 120.",
            "target": "sides-1-meld_points",
        }
    ]


def test_the_preview_escapes_nothing_itself_and_is_for_the_keeper_only(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, "pagat", "2x4", "<b>Ann</b>", CY)
    with app.app_context():
        view_token = db.session.get(Game, game_id).view_token

    mine = preview(client, game_id, 1, REFUSED)
    other_phone = app.test_client()
    watcher = other_phone.post(f"/g/{view_token}/deals/1/preview", data=form_data(DEAL_1))

    assert mine.mimetype == "application/json"
    assert "<b>Ann</b> went out with 1 clean book" in mine.json["errors"][0]["message"]
    assert watcher.status_code in (403, 404)


def test_after_a_save_the_totals_the_undo_and_the_next_deal_show(client: FlaskClient) -> None:
    game_id = start(client)

    response = post_deal(client, game_id, 1, DEAL_1)
    page = html(client.get(response.headers["Location"]))

    assert '<p class="flash flash-success" role="status">Deal 1 saved.</p>' in page
    assert "Ann &amp; Bob leads with 4,595 points." in page
    assert ">Undo</button>" in page
    assert page.count("Enter deal 2") == 1
    assert page.index(">Undo</button>") < page.index("Enter deal 2")


def test_after_the_last_deal_the_winner_is_named_once(client: FlaskClient) -> None:
    game_id = start(client)
    for number in range(1, 4):
        post_deal(client, game_id, number, DEAL_1)

    response = post_deal(client, game_id, 4, DEAL_1)
    page = html(client.get(response.headers["Location"]))

    assert '<p class="flash flash-success" role="status">Deal 4 saved.</p>' in page
    assert page.count("Ann &amp; Bob won with 18,380 points.") == 1


def undo(client: FlaskClient, game_id: int, number: int, version: str):
    return client.post(f"{game_path(game_id)}/deals/{number}/undo", data={"version": version})


def test_undo_deletes_exactly_the_deal_just_saved(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)
    post_deal(client, game_id, 2, {**DEAL_1, "went_out": "stock"})

    undone = undo(client, game_id, 2, stored_version(client, game_id))

    assert undone.status_code == 303
    assert undone.headers["Location"] == f"{game_path(game_id)}/deals/2"
    assert [deal.number for deal in stored_deals(app, game_id)] == [1]
    page = html(client.get(undone.headers["Location"]))
    assert "Deal 2 was taken back: its numbers are in the form, to correct and save." in page
    assert 'id="sides-0-meld_points" name="sides-0-meld_points" value="1210"' in page
    assert 'value="stock" checked' in page
    scoreboard = html(client.get(game_path(game_id)))
    assert ">Undo</button>" not in scoreboard
    again = html(client.get(undone.headers["Location"]))
    assert 'name="sides-0-meld_points" value="1210"' not in again, "given back once"


def test_undo_is_refused_once_the_game_changed_since_the_save(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)
    offered = stored_version(client, game_id)
    edited = {**DEAL_1, 1: {**DEAL_1[1], "cards_left_points": 125}}
    assert post_deal(client, game_id, 1, edited).status_code == 303  # another change

    refused = undo(client, game_id, 1, offered)

    assert refused.status_code == 409
    assert "cannot be undone any more" in html(refused)
    [deal] = stored_deals(app, game_id)
    assert deal.version == 2
    assert ">Undo</button>" not in html(client.get(game_path(game_id)))


def test_undo_is_refused_for_a_deal_this_browser_did_not_save_last(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    post_deal(client, game_id, 1, DEAL_1)

    refused = undo(client, game_id, 2, stored_version(client, game_id))
    damaged = undo(client, game_id, 1, "x")

    assert refused.status_code == 409
    assert damaged.status_code == 400
    assert len(stored_deals(app, game_id)) == 1
