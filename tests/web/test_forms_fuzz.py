"""Every form field tried with bad values: never a 500, and a refused request changes nothing.

Hypothesis posts each form of the app with values drawn from numbers far out of range, words,
odd Unicode, markup and missing or unknown fields. Only a save that answers with its redirect
(303) may change the database; every other answer must leave every row as it was. CSRF is
off here so that the values reach the forms; a separate test shows that, with CSRF on, a post
without its token is refused and changes nothing.
"""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT, form_values
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.limits.rates import RateCounter
from scorekeeper.rules.entry import SIDE_FIELDS

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ODD = [
    "",
    " ",
    "0",
    "-1",
    "1e5",
    "0x10",
    "１２",
    "٣",
    "NaN",
    "None",
    "null",
    "true",
    "stock",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\x00",
    "\u202e",
    "9" * 40,
    "-" + "9" * 25,
]
values = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.integers(-5, 2000).map(str),
    st.text(max_size=40),
    st.sampled_from(ODD),
)
COUNTERS = tuple(
    f"{where}_{kind}"
    for where in ("meld", "left")
    for kind in ("joker", "two", "ace", "high", "low", "black_three")
)


def snapshot(app) -> dict[str, list[tuple]]:
    """Every row of every table, in key order; the rate limits' counters aside (they count
    every attempt, refused ones included)."""
    with app.app_context():
        tables = {}
        for table in db.metadata.sorted_tables:
            if table.name == RateCounter.__tablename__:
                continue
            query = select(table).order_by(*table.primary_key.columns)
            tables[table.name] = [tuple(row) for row in db.session.execute(query)]
        db.session.remove()
        return tables


def start(client) -> str:
    response = client.post(
        "/games/new",
        data={
            "variant": "pagat",
            "table": "2x4",
            "side_names-0": "Us",
            "side_names-1": "Them",
            "start": "1",
        },
    )
    return re.match(r"(/g/[^/]+)/", response.headers["Location"]).group(1)


def check(app, client, method: str, path: str, **kwargs) -> None:
    before = snapshot(app)
    response = getattr(client, method)(path, **kwargs)
    status = response.status_code
    response.close()
    assert status < 500, (path, kwargs, status)
    if status != 303:
        assert snapshot(app) == before, (path, kwargs, status)


@pytest.fixture
def game_path(client) -> str:
    return start(client)


@FUZZ
@given(
    variant=values | st.sampled_from(["pagat", "simpson", "saskatchewan"]),
    table=values | st.sampled_from(["2x4", "3x3", "2x2", "7x7", "2x6"]),
    names=st.lists(values, max_size=9),
    name=values,
    button=st.sampled_from(["start", "refresh", "both", "none"]),
)
def test_new_game_form(app, client, variant, table, names, name, button):
    data = {"variant": variant, "table": table, "name": name}
    data.update({f"side_names-{i}": value for i, value in enumerate(names)})
    if button in ("start", "both"):
        data["start"] = "1"
    if button in ("refresh", "both"):
        data["refresh"] = "1"
    check(app, client, "post", "/games/new", data=data)


@FUZZ
@given(
    number=st.sampled_from(["1", "2", "4", "0", "5", "-1", "99999999999999999999", "x"]),
    fields=st.dictionaries(
        st.sampled_from(
            [f"sides-{side}-{name}" for side in (0, 1, 2) for name in SIDE_FIELDS + COUNTERS]
            + ["went_out", "confirm", "version", "save", "sides-0", "sides", "extra"]
        ),
        values,
        max_size=25,
    ),
)
def test_deal_form(app, client, game_path, number, fields):
    check(app, client, "post", f"{game_path}/deals/{number}", data=fields)


@FUZZ
@given(
    action=st.sampled_from(["deals/1/delete", "deals/2/delete", "delete", "links", "version"]),
    fields=st.dictionaries(st.sampled_from(["version", "which", "csrf_token", "x"]), values),
)
def test_delete_and_link_forms(app, client, game_path, action, fields):
    client.post(
        f"{game_path}/deals/1",
        data={
            "version": "0",
            "went_out": "stock",
            "sides-0-meld_points": "300",
            "sides-0-dirty_books": "1",
            "sides-0-cards_left_points": "85",
            "sides-1-meld_points": "300",
            "sides-1-dirty_books": "1",
            "sides-1-cards_left_points": "85",
        },
    )
    check(app, client, "post", f"{game_path}/{action}", data=fields)


@FUZZ
@given(
    content=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(str.encode),
        st.sampled_from([b"{}", b"[]", b"null", b'{"format": "hand-and-foot-scorekeeper"}']),
    ),
    field=st.sampled_from(["file", "other"]),
)
def test_import_form(app, client, content, field):
    check(
        app,
        client,
        "post",
        "/games/import",
        data={field: (io.BytesIO(content), "games.json")},
        content_type="multipart/form-data",
    )


@FUZZ
@given(lang=values, next_=values, code=st.sampled_from(["", "/fr", "/xx", "/" + "é" * 3]))
def test_language_form(app, client, lang, next_, code):
    check(app, client, "post", f"/language{code}", data={"lang": lang, "next": next_})


@FUZZ
@given(token=st.text(min_size=1, max_size=60).filter(lambda t: "/" not in t and "?" not in t))
def test_game_addresses_with_any_token(app, client, token):
    check(app, client, "get", f"/g/{token}")
    check(app, client, "post", f"/g/{token}/deals/1", data={"version": "0"})


def test_with_csrf_on_every_form_without_its_token_is_refused_and_changes_nothing(
    database_url, tmp_path
):
    app = create_app({"TESTING": True, "SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        db.create_all()
    keeper = app.test_client()
    page = keeper.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    made = keeper.post(
        "/games/new", data={"variant": "pagat", "table": "2x4", "start": "1", "csrf_token": token}
    )
    assert made.status_code == 303
    game = re.match(r"(/g/[^/]+)/", made.headers["Location"]).group(1)

    for path in [
        "/games/new",
        f"{game}/deals/1",
        f"{game}/deals/1/delete",
        f"{game}/delete",
        f"{game}/links",
        "/games/import",
        "/language/fr",
    ]:
        check(app, keeper, "post", path, data={"version": "0", "which": "edit", "lang": "fr"})
        response = keeper.post(path, data={"version": "0", "which": "edit"})
        assert response.status_code == 400, path
        assert "Form expired" in response.get_data(as_text=True)
    with app.app_context():
        db.engine.dispose()


VALID_DEAL = {"version": "0", **form_values(PAGAT_OUT, PAGAT_CAUGHT)}


@pytest.mark.parametrize("field", [k for k in VALID_DEAL if k.startswith("sides-")])
@pytest.mark.parametrize("value", [str(2**31), str(2**63), str(10**20), str(-(2**63) - 1)])
def test_numbers_beyond_any_column_are_refused_even_when_confirmed(
    app, client, game_path, field, value
):
    data = {**VALID_DEAL, field: value}
    check(app, client, "post", f"{game_path}/deals/1", data=data)
    page = client.post(f"{game_path}/deals/1", data=data).get_data(as_text=True)
    confirm = re.search(r'name="confirm" value="([^"]*)"', page)
    if confirm and confirm.group(1):
        check(
            app, client, "post", f"{game_path}/deals/1", data={**data, "confirm": confirm.group(1)}
        )
