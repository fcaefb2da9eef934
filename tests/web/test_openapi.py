"""The API against its own OpenAPI document: schemathesis drives every operation in process.

Every check of schemathesis runs: a request the document refuses must be refused, and one it
accepts must be accepted, or refused only by a verdict of the rules that no schema can state
(a deal impossible under its variant, house rules a table cannot play, a file whose games do
not hold together). The run is bounded: a fixed number of examples per operation, derandomized.
"""

import ast
import inspect
import io
import json
import re
import textwrap

import jsonschema_rs
import pytest
import schemathesis
from game_helpers import save, start_game
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from test_api import DEAL

from scorekeeper.api import keeping
from scorekeeper.api.openapi import openapi_document
from scorekeeper.rules import house_rules, params, validation, variant_checks, variant_json
from scorekeeper.rules.entry import SIDE_FIELDS
from scorekeeper.rules.variants import all_variants
from scorekeeper.store import transfer

EXAMPLES_PER_OPERATION = 30
ACCEPTED = range(200, 300)


def _templates(*functions) -> list[str]:
    """The messages (``N_("...")``) the functions' own code can give."""
    found = []
    for function in functions:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        found += [
            node.args[0].value
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "N_"
            and isinstance(node.args[0], ast.Constant)
        ]
    return found


def _pattern(template: str) -> re.Pattern[str]:
    """A message made from the template, anywhere in an answer's message."""
    parts = re.split(r"\{[a-z_0-9]+\}", template)
    return re.compile(".*".join(re.escape(part) for part in parts), re.DOTALL)


def _one(templates: list[str], words: str) -> list[str]:
    chosen = [t for t in templates if words in t]
    assert len(chosen) == 1, (words, templates)
    return chosen


# What the rules decide from several values at once: the checks of a deal under its variant, of
# a variant as a whole (its tables, red threes, cutting, going out; an id derived from a name,
# or taken by a built-in variant), and of an export file's games as wholes.
RULE_VERDICTS = [
    _pattern(template)
    for template in (
        # Melded points below 0 are the rules' verdict: allowed only where melded black
        # threes count against the side.
        *_templates(validation._check_shape, validation._check_side_ranges),
        *_templates(*validation.RULE_CHECKS),
        *(template for _field, _has, template in validation._BOOKS_A_VARIANT_MAY_LACK),
        *_templates(
            variant_checks._check_tables,
            variant_checks._check_red_threes,
            variant_checks._check_new_scoring_rules,
            variant_checks._check_lady_bonus,
            variant_checks._check_cutting,
            variant_checks._check_going_out_possible,
            variant_checks._going_out_shortage,
            variant_checks.check_known_tables,
            variant_json.check_deal_list,
            variant_checks._check_deal_numbers,
            variant_checks._check_sizes_by_deal,
            variant_checks._check_last_card,
            variant_checks._check_target_score,
            house_rules._past_last_deal,
            variant_checks._check_threshold_order,
        ),
        *_one(_templates(variant_checks._check_identity), "lowercase letters"),
        *_one(_templates(variant_json._full_variant), "belongs to a built-in variant"),
        *_one(_templates(transfer._rules), "exactly as exported"),
        *_one(_templates(transfer._read_deal), "must list"),
        *_one(_templates(transfer._read_game), "id of its rules"),
        *_one(_templates(transfer._read_game), "different name"),
        *_one(_templates(transfer._read_game), "has no table"),
        *_one(_templates(transfer._read_game), "only once"),
        *_one(_templates(transfer._read_game), "deal order"),
        # A list's cursor is one the list gave: no pattern can say which strings those are.
        *_one(_templates(keeping.page_request), "cursor"),
    )
]


def unexplained_refusals(body: dict) -> list[str]:
    """The messages of a 422 that no rule verdict explains: the request was not read."""
    return [
        error["message"]
        for error in body["errors"]
        if not any(verdict.search(error["message"]) for verdict in RULE_VERDICTS)
    ]


def schema_valid_requests_are_read(ctx, response, case):
    """schemathesis's positive_data_acceptance, where a 422 may be the rules' verdict."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    if response.status_code == 413:
        return None  # the body is over the app's size limit (the document's 413 says so)
    if response.status_code == 422:
        unexplained = unexplained_refusals(response.json())
        assert not unexplained, f"A schema-valid request was refused: {unexplained}"
        return None
    return positive_data_acceptance(ctx, response, case)


# The document the app serves (checked below), loaded without an app: each case is sent to
# the test's own app in process. A body over the app's size limit is refused with 413.
schema = schemathesis.openapi.from_dict(openapi_document())
schema.config.phases.coverage.enabled = False
refusals = schema.config.checks.negative_data_rejection
refusals.expected_statuses = [*refusals.expected_statuses, "413"]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_exactly_as_documented(app, case):
    case.call_and_validate(
        app=app,
        excluded_checks=[positive_data_acceptance],
        additional_checks=[schema_valid_requests_are_read],
    )


def test_the_document_is_served_as_json(client):
    response = client.get("/api/v1/openapi.json")

    assert response.status_code == 200
    document = response.get_json()
    assert document == json.loads(json.dumps(openapi_document()))
    assert document["openapi"].startswith("3.1")
    assert set(document["paths"]) >= {"/score", "/variants"}


def test_the_document_follows_the_rules_core(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]

    assert set(schemas["SideEntry"]["properties"]) == set(SIDE_FIELDS)
    assert schemas["SideEntry"]["properties"]["went_out"] == {"type": "boolean"}
    built_in = schemas["DealEntry"]["properties"]["variant"]["oneOf"][0]
    assert built_in["enum"] == [v.id for v in all_variants()]
    schemas_variant = schemas["DealEntry"]["properties"]["variant"]["oneOf"]
    house_form, whole = schemas_variant[1], schemas_variant[2]
    assert set(house_form["properties"]["changes"]["properties"]) == set(params.PARAM_BY_KEY)
    assert house_form["properties"]["name"]["maxLength"] == params.MAX_NAME
    assert house_form["required"] == ["name", "based_on", "changes"]
    assert whole["properties"]["book_bonus"]["properties"]["wild"]["oneOf"][0] == {
        "type": "integer",
        "minimum": 0,
        "maximum": params.MAX_POINTS,
        "multipleOf": params.POINT_STEP,
    }
    assert schemas["SideEntry"]["properties"]["meld_points"] == {
        "type": "integer",
        "multipleOf": 5,
    }
    assert schemas["SideEntry"]["properties"]["cards_left_points"] == {
        "type": "integer",
        "minimum": 0,
        "multipleOf": 5,
    }
    game = schemas["ExportGame"]["properties"]
    assert game["version"]["maximum"] == transfer.MAX_VERSION
    assert schemas["ExportDeal"]["properties"]["sides"]["items"]["properties"]["exact_22"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": transfer.MAX_INT,
    }


def _valid(schema_document: dict, name: str, value: object) -> bool:
    document = {**schema_document["components"]["schemas"][name]}
    document["$defs"] = schema_document["components"]["schemas"]
    text = json.dumps(document).replace("#/components/schemas/", "#/$defs/")
    return jsonschema_rs.validator_for(json.loads(text)).is_valid(value)


@pytest.mark.parametrize(
    ("variant", "readable"),
    [
        ({}, False),
        ({"name": "Ours"}, False),
        ({"name": "Ours", "based_on": "pagat", "changes": {}}, True),
        ({"name": "Ours", "based_on": "pagat", "changes": {"book_bonus.wild": 2000}}, True),
        ({"name": "Ours", "based_on": "pagat", "changes": {"book_bonus.wild": 2001}}, False),
        ({"name": "Ours", "based_on": "pagat", "changes": {"no.such": 1}}, False),
        ({"name": "O\u0007urs", "based_on": "pagat", "changes": {}}, False),
        ({"name": "   ", "based_on": "pagat", "changes": {}}, False),
        ({"name": "Ours", "based_on": "canasta", "changes": {}}, False),
    ],
)
def test_the_document_and_the_app_agree_on_an_inline_variant(client, variant, readable):
    body = {**DEAL, "variant": variant}

    response = client.post("/api/v1/score", json=body)

    assert _valid(openapi_document(), "DealEntry", body) is readable
    assert (response.status_code == 200) is readable, response.get_json()


def test_a_whole_number_written_with_a_fraction_is_read_as_one(client):
    first, second = DEAL["sides"]
    sides = [{**first, "meld_points": 1210.0}, second]
    written = {**DEAL, "deal": 1.0, "players": 4e0, "sides": sides}

    answer = client.post("/api/v1/score", json=DEAL)
    same = client.post("/api/v1/score", json=written)

    assert answer.status_code == same.status_code == 200
    assert same.get_json() == answer.get_json()


def test_a_fraction_is_still_refused_naming_the_field(client):
    response = client.post("/api/v1/score", json={"variant": "pagat", "deal": 1.5, "sides": [{}]})

    assert response.status_code == 422
    assert {"side": None, "field": "deal", "message": "deal must be a whole number."} in (
        response.get_json()["errors"]
    )


def test_a_file_with_whole_numbers_written_4_0_imports_through_the_page_and_the_api(app, client):
    game = start_game(app, client)
    assert save(client, game, 1, 0).status_code == 303
    document = client.get(f"/api/v1/games/{game.edit}").get_json()
    side = document["games"][0]["deals"][0]["sides"][0]
    side["meld_points"] = float(side["meld_points"])
    text = json.dumps(document)
    assert '.0, "' in text

    by_api = client.post("/api/v1/games", data=text, content_type="application/json")
    by_page = client.post(
        "/games/import",
        data={"file": (io.BytesIO(text.encode()), "games.json"), "submit": "1"},
        content_type="multipart/form-data",
    )

    assert by_api.status_code == 201
    assert by_page.status_code == 303
