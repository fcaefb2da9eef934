"""Many tables on one server: a browser sees and changes only what it holds a link to.

A card table owns its games and house rules; its view link shows them, its edit link also
changes them; a game's own links still open that game alone. Everything else is invisible to a
stranger, and the links a browser holds travel in an encrypted cookie."""

from __future__ import annotations

import re
from base64 import urlsafe_b64decode
from datetime import datetime

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient
from game_helpers import DEAL, Links, save, start_game
from house_helpers import edit_house_rules, form_values, make_house_rules
from sqlalchemy import func, select, update

from scorekeeper.capabilities import TOKEN_LENGTH
from scorekeeper.extensions import db
from scorekeeper.store.games import Deal, Game
from scorekeeper.store.house import HouseVariant
from scorekeeper.store.tables import CardTable

TABLE_LINK = re.compile(rf"/t/([A-Za-z0-9_-]{{{TOKEN_LENGTH}}})")


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def table_links(client: FlaskClient) -> tuple[str, str]:
    """The (view, edit) tokens of the client's newest table, as its table page shows them."""
    index = page(client.get("/"))
    first = TABLE_LINK.search(index)
    assert first, "the list of games links no table"
    shown = page(client.get(f"/t/{first.group(1)}"))
    view = re.search(rf'id="view-link"[^>]*value="[^"]*{TABLE_LINK.pattern}"', shown)
    edit = re.search(rf'id="edit-link"[^>]*value="[^"]*{TABLE_LINK.pattern}"', shown)
    assert view and edit
    return view.group(1), edit.group(1)


def count(app: Flask, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


@pytest.fixture
def keeper_game(app: Flask, client: FlaskClient) -> Links:
    game = start_game(app, client, name="Ann's Friday")
    assert save(client, game, 1, 0).status_code == 303
    return game


# --- a stranger sees nothing ----------------------------------------------------------------


def test_a_stranger_sees_no_game_no_table_and_no_house_rules(app, client, keeper_game):
    slug = make_house_rules(client, name="Kitchen rules")
    stranger = app.test_client()

    home = page(stranger.get("/"))
    exported = stranger.get("/games/export.json").get_json()
    listed = stranger.get("/api/v1/games").get_json()
    variants = stranger.get("/api/v1/variants").get_json()["variants"]
    house = page(stranger.get("/house/"))

    assert "Ann&#39;s Friday" not in home and "/g/" not in home and "/t/" not in home
    assert exported["games"] == [] and listed["games"] == []
    assert f"house-{slug}" not in [variant["id"] for variant in variants]
    assert "Kitchen rules" not in house
    assert stranger.get(f"/house/{slug}").status_code == 404
    assert stranger.get(f"/house/{slug}/export").status_code == 404
    assert stranger.get(f"/rules/house-{slug}").status_code == 404
    assert "Kitchen rules" not in page(stranger.get("/games/new"))


def test_a_stranger_cannot_change_or_delete_house_rules_of_another_table(app, client):
    slug = make_house_rules(client, name="Kitchen rules", going_out_bonus=300)
    stranger = app.test_client()

    edited = stranger.post(f"/house/{slug}/edit", data={"name": "Taken", "going_out_bonus": "0"})
    deleted = stranger.post(f"/house/{slug}/delete", data={})

    assert edited.status_code == 404 and deleted.status_code == 404
    with app.app_context():
        row = db.session.scalars(select(HouseVariant)).one()
        assert (row.name, row.changes["going_out_bonus"], row.version) == ("Kitchen rules", 300, 1)


def test_the_keeper_sees_the_game_under_the_table_made_for_this_phone(app, client, keeper_game):
    home = page(client.get("/"))

    assert "Our table" in home and "Ann&#39;s Friday" in home
    with app.app_context():
        game = db.session.get(Game, keeper_game.game_id)
        assert game.card_table is not None and game.card_table.name == "Our table"
        assert db.session.scalar(select(func.count()).select_from(CardTable)) == 1


# --- members and watchers of a table -------------------------------------------------------


def test_a_member_with_the_tables_edit_link_keeps_its_games_from_another_phone(
    app, client, keeper_game
):
    _view, edit = table_links(client)
    member = app.test_client()

    joined = page(member.get(f"/t/{edit}"))
    home = page(member.get("/"))
    view_link = f"/g/{keeper_game.view}"
    saved = member.post(f"{view_link}/deals/2", data={**DEAL, "version": "0"})

    scoreboard = page(member.get(view_link))
    assert "Ann&#39;s Friday" in joined and view_link in home
    assert saved.status_code == 303, saved.get_data(as_text=True)
    assert 'id="edit-link"' not in scoreboard and "New edit link" in scoreboard
    with app.app_context():
        assert (
            db.session.scalar(
                select(func.count()).select_from(Deal).where(Deal.game_id == keeper_game.game_id)
            )
            == 2
        )


def test_a_watcher_with_the_tables_view_link_sees_but_cannot_change(app, client, keeper_game):
    slug = make_house_rules(client, name="Kitchen rules", going_out_bonus=300)
    view, _edit = table_links(client)
    watcher = app.test_client()

    shown = page(watcher.get(f"/t/{view}"))
    refused = watcher.post(f"/g/{keeper_game.view}/deals/2", data={**DEAL, "version": "0"})
    rules_page = page(watcher.get(f"/house/{slug}"))
    rules_edit = watcher.get(f"/house/{slug}/edit")
    rename = watcher.post(f"/t/{view}/name", data={"name": "Mine now"})

    assert "Ann&#39;s Friday" in shown and "Kitchen rules" in shown
    assert 'id="edit-link"' not in shown
    assert refused.status_code == 403
    assert "Kitchen rules" in rules_page and f"/house/{slug}/edit" not in rules_page
    assert rules_edit.status_code == 403 and "edit link" in rules_edit.get_data(as_text=True)
    assert rename.status_code == 403
    with app.app_context():
        assert db.session.scalars(select(CardTable.name)).one() == "Our table"
        assert db.session.scalar(select(func.count()).select_from(Deal)) == 1


def test_a_new_edit_link_shuts_out_the_old_one(app, client, keeper_game):
    _view, old = table_links(client)
    member = app.test_client()
    page(member.get(f"/t/{old}"))

    rotated = client.post(f"/t/{old}/links", data={"which": "edit"})
    new = TABLE_LINK.search(rotated.headers["Location"]).group(1)

    assert new != old
    assert member.get(f"/t/{old}").status_code == 404
    assert "Ann&#39;s Friday" not in page(member.get("/"))
    refused = member.post(f"/g/{keeper_game.view}/deals/2", data={**DEAL, "version": "0"})
    assert refused.status_code == 403
    assert "Ann&#39;s Friday" in page(client.get("/"))


def test_a_house_rule_made_by_a_member_belongs_to_the_table_and_others_of_it_change_it(
    app, client, keeper_game
):
    _view, edit = table_links(client)
    member = app.test_client()
    page(member.get(f"/t/{edit}"))
    slug = make_house_rules(member, name="Kitchen rules", going_out_bonus=300)

    changed = edit_house_rules(client, slug, going_out_bonus=400)

    assert changed.status_code == 303
    with app.app_context():
        row = db.session.scalars(select(HouseVariant)).one()
        assert row.changes["going_out_bonus"] == 400
        assert row.table_id == db.session.get(Game, keeper_game.game_id).table_id


def test_a_new_game_offers_the_tables_house_rules_and_goes_to_the_chosen_table(app, client):
    slug = make_house_rules(client, name="Kitchen rules")
    made = client.post("/tables/new", data={"name": "Tuesday club"})
    tuesday = TABLE_LINK.search(made.headers["Location"]).group(1)
    with app.app_context():
        tuesday_id = db.session.scalars(
            select(CardTable.id).where(CardTable.name == "Tuesday club")
        ).one()

    form = page(client.get(f"/games/new?at={tuesday_id}"))
    started = client.post(
        "/games/new",
        data={
            "variant": f"house-{slug}",
            "table": "2x4",
            "at": str(tuesday_id),
            "start": "1",
            "side_names-0": "Us",
            "side_names-1": "Them",
        },
    )

    assert f'value="house-{slug}"' in form and "Tuesday club" in form
    assert started.status_code == 303
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        assert (game.variant_id, game.table_id) == (f"house-{slug}", tuesday_id)
    assert "Kitchen rules" not in page(client.get(f"/t/{tuesday}")).split("table-rules")[1]


# --- the cookie -------------------------------------------------------------------------------


def test_the_session_cookie_carries_no_token_in_clear(app, client, keeper_game):
    _view, edit = table_links(client)
    cookie = client.get_cookie("session")

    assert cookie is not None
    assert keeper_game.edit not in cookie.value and edit not in cookie.value
    padded = cookie.value.split(".")[0] + "=" * (-len(cookie.value.split(".")[0]) % 4)
    assert keeper_game.edit.encode() not in urlsafe_b64decode(padded)


def test_a_cookie_signed_before_encryption_keeps_its_links_and_is_sealed_again(
    app, client, keeper_game
):
    signer = SecureCookieSessionInterface().get_signing_serializer(app)
    old_cookie = signer.dumps({"edit_links": [[keeper_game.game_id, keeper_game.edit]]})
    returning = app.test_client()
    returning.set_cookie("session", old_cookie)

    home = page(returning.get("/"))
    resealed = returning.get_cookie("session").value

    assert f"/g/{keeper_game.edit}" in home
    assert resealed != old_cookie and keeper_game.edit not in resealed
    assert f"/g/{keeper_game.edit}" in page(returning.get("/"))


def test_a_forged_or_damaged_cookie_is_an_empty_session(app, client, keeper_game):
    forger = app.test_client()
    forger.set_cookie("session", "gAAAAABnot-a-real-token")

    assert "/g/" not in page(forger.get("/"))


# --- the operator's commands ----------------------------------------------------------------


def test_the_operator_lists_exports_relinks_and_prunes_tables(app, client, keeper_game, tmp_path):
    runner = app.test_cli_runner()
    with app.app_context():
        table_id = db.session.scalars(select(CardTable.id)).one()

    listed = runner.invoke(args=["tables", "list"])
    exported_file = tmp_path / "table.json"
    exported = runner.invoke(args=["tables", "export", str(table_id), "-o", str(exported_file)])
    assert exported.exit_code == 0 and "1 games written" in exported.output
    relinked = runner.invoke(args=["tables", "edit-link", str(table_id)])
    kept = runner.invoke(args=["tables", "prune", "--idle-days", "30", "--yes"])
    dry = runner.invoke(args=["tables", "prune", "--idle-days", "1"])

    moment = r"\S+ \S+"
    assert re.search(
        rf"^{table_id}\t{moment}\t{moment}\t1\t0\t'Our table'\tUs, Them$", listed.output, re.M
    )
    assert '"name": "Ann\'s Friday"' in exported_file.read_text(encoding="utf-8")
    token = re.fullmatch(rf"http://localhost{TABLE_LINK.pattern}", relinked.output.strip())[1]
    assert page(app.test_client().get(f"/t/{token}"))
    assert "0 tables and 0 games" in kept.output and "Nothing deleted" in dry.output
    assert count(app, Game) == 1


def test_prune_deletes_idle_tables_with_their_games_and_rules(app, client, keeper_game):
    make_house_rules(client, name="Kitchen rules")
    long_ago = datetime(2020, 1, 1)
    with app.app_context():
        for model in (Game, HouseVariant):
            db.session.execute(update(model).values(updated_at=long_ago))
        db.session.execute(update(CardTable).values(created_at=long_ago, updated_at=long_ago))
        db.session.commit()

    pruned = app.test_cli_runner().invoke(args=["tables", "prune", "--idle-days", "30", "--yes"])

    assert "1 tables and 0 games" in pruned.output and "Deleted." in pruned.output
    assert (count(app, CardTable), count(app, Game), count(app, Deal)) == (0, 0, 0)
    assert count(app, HouseVariant) == 0
    assert "/g/" not in page(client.get("/"))


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Name of the table: Give the table a name."),
        ("Nul\x00table", "Name of the table: A table&#39;s name cannot hold control characters."),
        ("x" * 81, "Name of the table: Keep the name to 80 characters."),
    ],
)
def test_a_refused_table_name_names_the_field_and_changes_nothing(app, client, typed, message):
    client.post("/tables/new", data={"name": "Tuesday club"})
    made_tables = count(app, CardTable)

    made = client.post("/tables/new", data={"name": typed}, follow_redirects=True)
    renamed = client.post(
        f"/t/{table_links(client)[1]}/name", data={"name": typed}, follow_redirects=True
    )

    assert message in made.get_data(as_text=True) and message in renamed.get_data(as_text=True)
    assert count(app, CardTable) == made_tables
    with app.app_context():
        assert db.session.scalars(select(CardTable.name)).all() == ["Tuesday club"]


def test_a_table_name_with_a_tab_is_kept_with_a_space(app, client):
    client.post("/tables/new", data={"name": "\tTuesday\tclub "})

    with app.app_context():
        assert db.session.scalars(select(CardTable.name)).one() == "Tuesday club"


def test_new_house_rules_go_to_the_table_chosen_and_their_new_game_starts_with_them(app, client):
    make_house_rules(client, name="Kitchen rules")
    client.post("/tables/new", data={"name": "Tuesday club"})
    with app.app_context():
        tuesday_id = db.session.scalars(
            select(CardTable.id).where(CardTable.name == "Tuesday club")
        ).one()
    offered = page(client.get("/house/"))
    form = page(client.get(f"/house/new?base=pagat&at={tuesday_id}"))
    values = {**form_values(form), "name": "Tuesday rules"}

    saved = client.post(f"/house/new?base=pagat&at={tuesday_id}", data=values)
    shown = page(client.get(saved.headers["Location"]))
    new_game = re.search(r'href="(/games/new\?[^"]+)"', shown).group(1).replace("&amp;", "&")
    starting = page(client.get(new_game))

    assert f'<option value="{tuesday_id}">Tuesday club</option>' in offered
    with app.app_context():
        row = db.session.scalars(
            select(HouseVariant).where(HouseVariant.name == "Tuesday rules")
        ).one()
        assert row.table_id == tuesday_id
    assert re.search(rf'value="house-{row.slug}"[^>]*checked', starting)
    assert re.search(rf'<option value="{tuesday_id}" selected>Tuesday club</option>', starting)


def test_a_members_scoreboard_names_its_table_and_a_strangers_view_does_not(
    app, client, keeper_game
):
    _view, edit = table_links(client)
    stranger = app.test_client()

    mine = page(client.get(keeper_game.edit_path))
    theirs = page(stranger.get(keeper_game.view_path))

    assert f'href="/t/{edit}">Our table</a>' in mine
    assert "Our table" not in theirs and "/t/" not in theirs
