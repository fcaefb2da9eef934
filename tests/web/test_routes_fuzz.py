"""Every route of the app, with odd values in every part of its address, its query, its form
and its JSON: never a 500.

The routes are read from the app's own URL map, so a route added later is tried too (and the
test fails until it is). Each part takes a fixed list of values, from the expected ones to ids
past a 32-bit row (PostgreSQL) and past a 64-bit one (SQLite's driver), in a bounded number of
requests.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator

from flask import Flask
from flask.testing import FlaskClient
from game_helpers import save, start_game
from werkzeug.routing import Rule

from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import get_variant

MAX_ID = 2**31 - 1
NUMBERS = ["0", "1", "4", str(MAX_ID), str(MAX_ID + 1), str(2**63), str(2**64 + 1)]
ODD = ["", "-1", "1e3", "٣", "9" * 30, "<b>x</b>", "\u202e", "NaN", *NUMBERS]
FORM_FIELDS = (
    "version",
    "typo",
    "kept",
    "name",
    "which",
    "text",
    "rules",
    "variant",
    "table",
    "at",
    "seed",
    "deal",
    "number",
    "confirm",
    "went_out",
    "sides-0-meld_points",
    "player_names-0",
    "side_names-0",
    "base",
    "based_on",
    "slug",
    "q",
    "v",
    "page",
    "sides",
    "size",
    "per_page",
)
QUERY_FIELDS = (
    "page",
    "at",
    "variant",
    "rules",
    "q",
    "v",
    "first",
    "sides",
    "size",
    "per_page",
    "from",
    "to",
    "names",
    "deal",
)


PART = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
"""A variable part of a rule, such as ``<int:number>`` or ``<string(maxlength=64):slug>``."""


def json_bodies() -> list[object]:
    whole = get_variant("pagat").to_dict()
    del whole["deals"]
    return [
        {},
        [],
        "text",
        {"variant": whole, "deal": 1, "rank": "K", "naturals": 4, "twos": 1, "sides": []},
        {"variant": {"based_on": "pagat", "changes": {"deals": 2**63}}, "deal": 2**63},
        {"variant": "pagat", "deal": MAX_ID + 1, "players": 2**64, "sides": [{}, {}]},
        {"format": "hand-and-foot-games", "games": [{"version": 2**63, "deals": [{}]}]},
    ]


def forms() -> Iterator[dict[str, str]]:
    """Every field the app's forms read, each with an odd value, in turns."""
    for offset in itertools.count():
        yield {name: ODD[(offset + index) % len(ODD)] for index, name in enumerate(FORM_FIELDS)}


def queries() -> Iterator[str]:
    for offset in itertools.count():
        yield "&".join(
            f"{name}={ODD[(offset * 3 + index) % len(ODD)]}"
            for index, name in enumerate(QUERY_FIELDS)
        )


def addresses(rule: Rule, tokens: dict[str, str]) -> list[str]:
    """The rule's address with each of its parts given expected and odd values."""
    choices = []
    for name, converter in rule._converters.items():  # noqa: SLF001 - the parts and their kinds
        kind = type(converter).__name__
        if "Int" in kind:
            choices.append([(name, value) for value in NUMBERS])
        elif name in ("token", "poll_token", "link_token"):
            area = "table" if rule.rule.startswith("/t/") else "game"
            choices.append([(name, tokens[area]), (name, tokens["view"]), (name, "x" * 43)])
        elif name == "slug":
            choices.append([(name, "our-rules"), (name, "ü" * 64)])
        elif name == "filename":
            choices.append([(name, "css/../../secret"), (name, "nothing.js")])
        else:
            choices.append([(name, "pagat"), (name, "fr"), (name, "house-9" * 9)])
    made = []
    for picked in itertools.product(*choices) if choices else [()]:
        values = dict(picked)
        made.append(PART.sub(lambda part, values=values: values[part.group(1)], rule.rule))
    return made


READINESS = "health.readyz"
"""Answers 503 by design in a test app, whose tables are made without the migrations."""


def populate(client: FlaskClient, app: Flask) -> dict[str, str]:
    """A game with a deal, its table with players, and house rules: something for every
    address to find."""
    links = start_game(app, client, **{"player_names-0": "Ann", "player_names-3": "Cy"})
    assert save(client, links, 1, 0).status_code == 303
    page = client.get("/").get_data(as_text=True)
    table = re.search(r'href="/t/([A-Za-z0-9_-]+)"', page).group(1)
    rules = HouseRules("Our rules", "pagat", {"going_out_bonus": 300}).to_json()
    made = client.post("/house/import", data={"text": json.dumps(rules)})
    assert made.headers["Location"] == "/house/our-rules"
    return {"game": links.edit, "view": links.view, "table": table}


def test_every_route_answers_odd_values_without_a_server_error(make_app):
    app = make_app(SHEET_RENDER_NICE=0, LIMIT_SHEETS="3/minute")
    client = app.test_client()
    tokens = populate(client, app)
    form, query, bodies = forms(), queries(), itertools.cycle(json_bodies())
    tried: set[str] = set()
    failures = []
    requests = 0
    for rule in app.url_map.iter_rules():
        for path, method in itertools.product(addresses(rule, tokens), sorted(rule.methods)):
            if method in ("HEAD", "OPTIONS"):
                continue
            if method == "GET":
                kwargs: dict[str, object] = {"query_string": next(query)}
            elif rule.rule.startswith("/api/"):
                kwargs = {"data": json.dumps(next(bodies)), "content_type": "application/json"}
            else:
                kwargs = {"data": next(form)}
            requests += 1
            try:
                status = client.open(path, method=method, **kwargs).status_code
            except Exception as error:  # noqa: BLE001 - the test app lets a 500's error through
                status, kwargs = 500, {**kwargs, "error": repr(error)[:200]}
            if status >= 500 and not (rule.endpoint == READINESS and status == 503):
                failures.append((method, path, kwargs))
        tried.add(rule.rule)

    assert not failures, f"{len(failures)} x 500 in {requests} requests: {failures[:3]}"
    assert tried == {rule.rule for rule in app.url_map.iter_rules()}
    assert requests > 250
