"""House rules through the test client: make, edit, refuse, export, import, share, score."""

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from house_helpers import edit_house_rules, form_values, html, make_house_rules, text

from scorekeeper.extensions import db
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.params import GROUP_TERMS
from scorekeeper.rules.variant_json import MAX_FILE_BYTES
from scorekeeper.rules.variants import (
    UnknownVariant,
    Variant,
    all_variants,
    get_variant,
    variant_from_dict,
)
from scorekeeper.store.house import HouseVariant


def stored(app: Flask) -> list[HouseVariant]:
    with app.app_context():
        return list(db.session.scalars(db.select(HouseVariant).order_by(HouseVariant.id)))


def variant_in(client: FlaskClient, variant_id: str) -> Variant:
    """The variant of this id as the client's browser is offered it (UnknownVariant if not)."""
    for data in client.get("/api/v1/variants").get_json()["variants"]:
        if data["id"] == variant_id:
            return variant_from_dict(data)
    raise UnknownVariant(variant_id)


OUR_CHANGES = {"book_bonus__wild": 2000, "going_out_bonus": 200, "going_out__1__clean": 3}


# --- the list and the form ----------------------------------------------------------------


def test_the_list_offers_new_rules_from_any_built_in_variant_and_an_import(client):
    page = html(client.get("/house/"))

    assert "No house rules yet." in page
    for variant in all_variants():
        assert f'<option value="{variant.id}">' in page
    assert 'action="/house/import"' in page and 'enctype="multipart/form-data"' in page


def test_the_new_form_shows_each_rule_with_the_base_value_beside_it(client):
    page = html(client.get("/house/new?base=simpson"))

    assert "Based on Steve Simpson." in page
    assert "No change yet." in page
    values = form_values(page)
    assert values["book_bonus__clean"] == "300"
    assert values["book_bonus__wild"] == ""
    assert values["red_three__held"] == "-500"
    assert values["max_meld_size"] == "none"
    assert "Base: 300" in page and "Base: not allowed" in page
    assert 'name="decks__5"' in page  # Simpson's sixth table: 7 players, 8 decks


def test_making_rules_stores_only_what_differs_from_the_base(app, client):
    slug = make_house_rules(client, **OUR_CHANGES)

    assert slug == "our-table"
    (row,) = stored(app)
    assert row.based_on == "pagat" and row.version == 1
    assert row.changes == {
        "book_bonus.wild": 2000,
        "going_out_bonus": 200,
        "going_out.1.clean": 3,
    }
    page = text(client.get("/house/our-table"))
    assert "Your rules are saved." in page
    assert "Wild book bonus 1500 2000" in page
    assert "Going-out bonus 100 200" in page
    assert "Clean books to go out, deal 1 2 3" in page
    assert "Dirty book bonus" not in page


def test_the_edit_form_shows_the_changes_first_and_folds_the_rest_away(client):
    make_house_rules(client, **OUR_CHANGES)

    page = html(client.get("/house/our-table/edit"))

    changes, others = page.split('<section class="card house-others"')
    assert 'id="p-book_bonus__wild"' in changes and "Base: 1500" in changes
    assert 'id="p-going_out_bonus"' in changes
    assert 'id="p-book_bonus__clean"' not in changes
    assert 'id="p-book_bonus__clean"' in others and "Base: 500" in others
    # The summary of the changes, as on the saved rules' page, above the changed fields.
    summary = text_of(changes.split('id="house-summary"')[1].split("</table>")[0])
    assert "Wild book bonus 1500 2000" in summary and "Going-out bonus 100 200" in summary
    # The other rules are folded by group, each group a tap to open.
    assert others.count('<details class="house-group">') == len(GROUP_TERMS)
    assert '<input type="search" id="rule-finder"' in others


def test_the_changes_summary_follows_the_form_as_it_is_typed(client):
    values = form_values(html(client.get("/house/new?base=pagat")))
    values["book_bonus__wild"] = "1750"
    values["going_out__1__clean"] = "9"  # not playable yet: the summary still names it

    response = client.post("/house/changes?base=pagat", data=values)

    assert response.status_code == 200
    rows = re.findall(
        r"<tr><th scope=\"row\">(.*?)</th><td class=\"was\">(.*?)</td>"
        r"<td class=\"now\">(.*?)</td></tr>",
        html(response),
    )
    assert rows == [
        ("Wild book bonus", "1500", "1750"),
        ("Clean books to go out, deal 1", "2", "9"),
    ]
    assert stored(client.application) == []


def test_the_changes_summary_says_when_nothing_is_changed_and_refuses_an_unknown_base(client):
    values = form_values(html(client.get("/house/new?base=simpson")))

    page = text(client.post("/house/changes?base=simpson", data=values))
    assert "No change yet." in page
    assert client.post("/house/changes?base=nope", data=values).status_code == 404


def test_editing_keeps_the_id_and_counts_versions(app, client):
    make_house_rules(client, **OUR_CHANGES)

    response = edit_house_rules(client, "our-table", book_bonus__wild=2500, name="Friday rules")
    assert response.status_code == 303
    assert response.headers["Location"] == "/house/our-table"
    (row,) = stored(app)
    assert (row.name, row.version, row.changes["book_bonus.wild"]) == ("Friday rules", 2, 2500)

    response = edit_house_rules(client, "our-table")
    assert response.status_code == 303
    assert "Nothing was changed." in text(client.get(response.headers["Location"]))
    assert stored(app)[0].version == 2


def test_setting_a_rule_back_to_the_base_value_drops_the_change(app, client):
    make_house_rules(client, **OUR_CHANGES)

    edit_house_rules(client, "our-table", book_bonus__wild=1500)

    assert "book_bonus.wild" not in stored(app)[0].changes


@pytest.mark.parametrize(
    ("changes", "anchor", "message"),
    [
        (
            {"book_bonus__clean": 503},
            "p-book_bonus__clean",
            "Clean book bonus must be a multiple of 5, as every score is (entered 503).",
        ),
        (
            {"first_meld__2": -50},
            "p-first_meld__2",
            "Minimum first meld, deal 2 cannot be below 0 (entered -50).",
        ),
        (
            {"going_out__1__wild": 4},
            "p-going_out__1__wild",
            "Wild books to go out, deal 1: 4 wild books need 28 wild cards, but 2 players play "
            "with 3 decks, which hold only 18.",
        ),
        ({"red_three__held": 100}, "p-red_three__held", "must be 0 or less"),
        ({"card_points__joker": "fifty"}, "p-card_points__joker", "Enter a whole number"),
        ({"decks__0": 0}, "p-tables", "play with 1 to 16 decks (entered 0)"),
        ({"exact_22_bonus": 100}, "p-exact_22_bonus", "cut their own hand and foot"),
        (
            {"wild_limit__per_wild": 6, "wild_limit__extra": 6},
            "p-wild_limit__per_wild",
            "lets no wild card into a book of seven",
        ),
    ],
)
def test_impossible_rules_are_refused_next_to_the_field(app, client, changes, anchor, message):
    values = form_values(html(client.get("/house/new?base=pagat")))
    values.update({key: str(value) for key, value in changes.items()})

    response = client.post("/house/new", data=values)

    assert response.status_code == 422
    page = html(response)
    assert "These rules cannot be saved yet" in page
    field = page.split(f'id="{anchor}"', 1)[1].split('<div class="field house-param', 1)[0]
    assert message in text_of(field)
    assert stored(app) == []


def text_of(fragment: str) -> str:
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)).replace("&#39;", "'")


def test_rules_need_a_name(app, client):
    values = form_values(html(client.get("/house/new?base=pagat")))
    values["name"] = "  "

    response = client.post("/house/new", data=values)

    assert response.status_code == 422
    assert "The name cannot be empty." in html(response)
    assert stored(app) == []


def test_a_name_that_is_an_address_of_the_pages_gets_another_id(client):
    assert make_house_rules(client, name="New") == "new-rules"
    assert make_house_rules(client, name="New") == "new-rules-2"
    assert make_house_rules(client, name="Ça va") == "ca-va"


def test_unknown_rules_are_404(client):
    assert client.get("/house/nobody").status_code == 404
    assert client.get("/house/nobody/edit").status_code == 404
    assert client.get("/house/nobody/export").status_code == 404
    assert client.post("/house/nobody/delete").status_code == 404


# --- export, import, share -----------------------------------------------------------------


def test_export_then_import_gives_back_the_same_variant(app, client):
    make_house_rules(client, **OUR_CHANGES)
    before = variant_in(client, "house-our-table")

    response = client.get("/house/our-table/export")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == 'attachment; filename="house-our-table.json"'
    exported = response.data
    assert len(exported) < 1024
    assert client.post("/house/our-table/delete").status_code == 303
    with pytest.raises(UnknownVariant):
        variant_in(client, "house-our-table")

    response = client.post(
        "/house/import",
        data={"file": (__import__("io").BytesIO(exported), "rules.json")},
        content_type="multipart/form-data",
    )

    assert response.status_code == 303
    assert response.headers["Location"] == "/house/our-table"
    assert variant_in(client, "house-our-table") == before


def test_pasted_rules_import_too(app, client):
    rules = HouseRules("Pasted", "simpson", {"going_out_bonus": 300})

    response = client.post("/house/import", data={"text": json.dumps(rules.to_json())})

    assert response.status_code == 303
    assert variant_in(client, "house-pasted").going_out_bonus == (300, 300, 300, 300)


def test_importing_the_same_rules_twice_keeps_one_copy(app, client):
    rules = json.dumps(HouseRules("Twice", "pagat", {"going_out_bonus": 300}).to_json())
    client.post("/house/import", data={"text": rules})

    response = client.post("/house/import", data={"text": rules})

    assert response.status_code == 303
    assert "You already have these rules." in text(client.get(response.headers["Location"]))
    assert len(stored(app)) == 1


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"x" * (MAX_FILE_BYTES + 1), "The file is larger than 16 KB"),
        (b"\xff\xfe\x00", "The file is not UTF-8 text."),
        (b"<html>rules</html>", "The file is not valid JSON (line 1, column 1)."),
        (b"[" * 3000, "nested too deeply"),
        (
            b'{"name": "x", "based_on": "pagat", "changes": {"going_out_bonus": Infinity}}',
            "Infinity, which is not a number",
        ),
        (b'{"name": "x", "based_on": "pagat", "changes": {"__proto__": 1}}', "unknown parameter"),
        (
            b'{"name": "x", "based_on": "pagat", "changes": {"book_bonus.wild": 2001}}',
            "Wild book bonus must be a multiple of 5",
        ),
        (
            b'{"name": "x", "based_on": "pagat", "changes": {"going_out.2.wild": 5}}',
            "Wild books to go out, deal 2",
        ),
        (
            b'{"name": "x", "based_on": "../etc/passwd", "changes": {}}',
            "must be the id of a built-in variant",
        ),
    ],
)
def test_a_malformed_or_hostile_file_is_refused_with_a_message(app, client, raw, message):
    import io

    response = client.post(
        "/house/import",
        data={"file": (io.BytesIO(raw), "rules.json")},
        content_type="multipart/form-data",
    )

    assert response.status_code == 422
    assert "These rules cannot be imported:" in html(response)
    assert message in text(response).replace("&#34;", '"')
    assert stored(app) == []


def test_an_import_needs_a_file_or_pasted_rules(client):
    response = client.post("/house/import", data={})

    assert response.status_code == 422
    assert "Choose a rules file, or paste the rules." in html(response)


def test_a_share_link_opens_the_rules_and_saves_them(app, client):
    make_house_rules(client, **OUR_CHANGES)
    before = variant_in(client, "house-our-table")
    page = html(client.get("/house/our-table"))
    share = page.split('id="share-link" value="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert share.startswith("http://localhost/house/shared?rules=")
    client.post("/house/our-table/delete")

    preview = client.get(share)
    assert preview.status_code == 200
    assert "Wild book bonus 1500 2000" in text(preview)
    token = form_values(html(preview))["rules"]
    response = client.post("/house/shared", data={"rules": token})

    assert response.status_code == 303
    assert variant_in(client, "house-our-table") == before


@pytest.mark.parametrize("token", ["", "not!base64", "e30", "x" * 5000])
def test_a_damaged_share_link_is_refused_with_a_message(client, token):
    response = client.get("/house/shared", query_string={"rules": token})

    assert response.status_code == 400
    assert "This link does not hold rules that can be played:" in html(response)


def test_forms_need_their_csrf_token(live_app):
    client = live_app.test_client()

    assert client.post("/house/import", data={"text": "{}"}).status_code == 400
    assert client.post("/house/new", data={"name": "x"}).status_code == 400
    assert client.post("/house/shared", data={"rules": "e30"}).status_code == 400


def test_deleting_rules_takes_them_off_the_list(app, client):
    make_house_rules(client, **OUR_CHANGES)

    response = client.post("/house/our-table/delete")

    assert response.status_code == 303
    assert "No house rules yet." in html(client.get("/house/"))
    assert stored(app) == []


# --- the score API -------------------------------------------------------------------------

DEAL = {
    "deal": 1,
    "sides": [
        {
            "meld_points": 1210,
            "clean_books": 3,
            "dirty_books": 2,
            "wild_books": 1,
            "red_threes_down": 2,
            "cards_left_points": 15,
            "went_out": True,
        },
        {
            "meld_points": 600,
            "clean_books": 1,
            "dirty_books": 1,
            "red_threes_down": 1,
            "red_threes_held": 1,
            "cards_left_points": 120,
        },
    ],
}


def test_the_score_api_takes_a_stored_house_variant_by_id(client):
    make_house_rules(client, **OUR_CHANGES)

    response = client.post("/api/v1/score", json={**DEAL, "variant": "house-our-table"})

    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert data["variant"] == "house-our-table"
    first, second = data["sides"]
    assert first["total"] == 1210 + 1500 + 600 + 2000 + 200 + 200 - 15 == 5695
    assert first["breakdown"]["wild_books"] == 2000
    assert second["total"] == 1280


def test_the_score_api_refuses_the_going_out_books_of_the_house_variant(client):
    make_house_rules(client, **OUR_CHANGES)
    body = json.loads(json.dumps({**DEAL, "variant": "house-our-table"}))
    body["sides"][0]["clean_books"] = 2

    response = client.post("/api/v1/score", json=body)

    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "clean_books"


def test_the_score_api_takes_an_inline_variant(client):
    inline = {
        "name": "Tool rules",
        "based_on": "pagat",
        "changes": {"book_bonus.wild": 2000, "going_out_bonus": 200},
    }

    response = client.post("/api/v1/score", json={**DEAL, "variant": inline})

    assert response.status_code == 200
    assert [side["total"] for side in response.get_json()["sides"]] == [5695, 1280]


def test_the_score_api_names_the_field_of_an_impossible_inline_variant(client):
    inline = get_variant("pagat").to_dict()
    inline.update(
        id="tool-rules", name="Tool rules", tables=[{"sides": 2, "players": 4, "decks": 0}]
    )

    response = client.post("/api/v1/score", json={**DEAL, "variant": inline})

    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [e["field"] for e in errors] == ["variant.tables"]
    assert "1 to 16 decks (entered 0)" in errors[0]["message"]


def test_the_variants_list_holds_the_house_variants(client):
    make_house_rules(client, **OUR_CHANGES)

    ids = [v["id"] for v in client.get("/api/v1/variants").get_json()["variants"]]

    assert ids[-1] == "house-our-table"
    assert ids[:-1] == [v.id for v in all_variants()]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Chez nous House rules based on Partnership (pagat.com)."),
        ("fr", "Chez nous Règles maison basées sur En équipes (pagat.com)."),
    ],
)
def test_rules_saved_with_no_summary_are_summed_up_in_the_reader_language(client, language, words):
    make_house_rules(client, name="Chez nous", summary="", red_three__held=-300)

    page = text(client.get("/games/new", headers={"Accept-Language": language}))

    assert words in page
    if language != "en":
        assert "House rules based on" not in page
