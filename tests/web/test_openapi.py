"""The API against its own OpenAPI document: schemathesis drives every operation in process.

Positive and negative cases alike must get an answer the document describes, never a 500.
The example count stays small so that ``make test`` stays quick.
"""

import json

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.api.openapi import openapi_document
from scorekeeper.rules.entry import SIDE_FIELDS
from scorekeeper.rules.variants import all_variants

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


# The document the app serves (checked below), loaded without an app: each case is sent to
# the test's own app in process.
schema = schemathesis.openapi.from_dict(openapi_document())


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(app, case):
    case.call_and_validate(app=app, checks=CHECKS)


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
