"""The people of a card table changed by two phones at the very same moment.

A merge of two players, a rename, and a new game that names a player all write the table's
players and seats: they take their turns (``store.people.hold_people``). Whichever comes
second sees what the first wrote, so every answered change is whole: no 500, no seat lost to
a merge's delete, no player made twice, no two players of one name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from test_races import race

from scorekeeper.extensions import db
from scorekeeper.store.games import Game, GameSide
from scorekeeper.store.players import Player, Seat, player_key
from scorekeeper.store.tables import CardTable

ROUNDS = {"postgresql": 100, "sqlite": 25}
"""A hundred rounds on PostgreSQL, where a request's reads and writes interleave with the
other's; SQLite takes one writer at a time, and fewer rounds show the same."""
pytestmark = pytest.mark.slow


@dataclass
class Tally:
    """What went wrong over the rounds: 500s, and acknowledged writes not found whole."""

    rounds: int
    errors: int = 0
    lost: int = 0
    notes: list[str] = field(default_factory=list)

    def note(self, what: str) -> None:
        self.notes.append(what)

    def assert_clean(self) -> None:
        assert (self.errors, self.lost) == (0, 0), (
            f"{self.errors} x 500 and {self.lost} lost writes in {self.rounds} rounds: "
            f"{self.notes[:5]}"
        )


@dataclass(frozen=True)
class Table:
    """A card table, and the session of a browser that holds its edit link."""

    token: str
    id: int
    session: str

    def phones(self, app: Flask) -> tuple[FlaskClient, FlaskClient]:
        """Two phones that hold the table's edit link, each with a browser session of its
        own. Fresh ones each round: a browser's session keeps every game it started."""
        phones = app.test_client(), app.test_client()
        for phone in phones:
            phone.set_cookie(app.config["SESSION_COOKIE_NAME"], self.session)
        return phones


def shared_table(app: Flask) -> Table:
    browser = app.test_client()
    made = browser.post("/tables/new", data={"name": "Tuesday club"})
    assert made.status_code == 303
    token = re.search(r"/t/([A-Za-z0-9_-]+)", made.headers["Location"]).group(1)
    session = browser.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert session is not None
    with app.app_context():
        table_id = db.session.scalar(select(CardTable.id))
        db.session.remove()
    return Table(token, table_id, session.value)


def rounds(app: Flask) -> int:
    with app.app_context():
        return ROUNDS[db.engine.dialect.name]


def at_once(**requests: Callable[[], int]) -> dict[str, int]:
    """The requests sent at the same moment (``race``): each one's status, by name."""
    statuses: dict[str, int] = {}

    def answer(name: str, request: Callable[[], int]) -> int:
        statuses[name] = status = request()
        return status

    race(*(partial(answer, name, request) for name, request in requests.items()))
    return {name: statuses.get(name, 500) for name in requests}


def new_game(phone: FlaskClient, table: Table, *players: str) -> int:
    """Start a game of two teams naming four players in seat order; the answer's status."""
    data = {"variant": "pagat", "table": "2x4", "start": "1", "at": str(table.id)}
    for index, name in zip((0, 1, 3, 4), players, strict=True):
        data[f"player_names-{index}"] = name
    return phone.post("/games/new", data=data).status_code


def merge(phone: FlaskClient, table: Table, typo: int, kept: int) -> int:
    return phone.post(
        f"/t/{table.token}/players/merge", data={"typo": str(typo), "kept": str(kept)}
    ).status_code


def rename(phone: FlaskClient, table: Table, player: int, name: str) -> int:
    return phone.post(f"/t/{table.token}/players/{player}/name", data={"name": name}).status_code


def add_player(app: Flask, table: Table, name: str) -> None:
    """A player of the table, unless the table has one of this name already."""
    with app.app_context():
        key = player_key(name)
        if db.session.scalar(select(Player.id).where(Player.key == key)) is None:
            db.session.add(Player(table_id=table.id, name=name, key=key))
            db.session.commit()
        db.session.remove()


def player_ids(app: Flask) -> dict[str, int]:
    with app.app_context():
        ids = {name: id_ for id_, name in db.session.execute(select(Player.id, Player.name))}
        db.session.remove()
    return ids


def seat_counts(app: Flask) -> dict[int, int]:
    """Every game's count of seats, by game id."""
    with app.app_context():
        counts = db.session.execute(
            select(Game.id, func.count(Seat.id))
            .outerjoin(GameSide, GameSide.game_id == Game.id)
            .outerjoin(Seat, Seat.side_id == GameSide.id)
            .group_by(Game.id)
        )
        db.session.remove()
        return dict(counts.all())


def seated_since(app: Flask, game_id: int) -> list[list[str]]:
    """The names seated in each game after ``game_id``, in seat order."""
    with app.app_context():
        rows = db.session.execute(
            select(GameSide.game_id, Player.name)
            .join(Seat, Seat.side_id == GameSide.id)
            .join(Player, Player.id == Seat.player_id)
            .where(GameSide.game_id > game_id)
            .order_by(GameSide.game_id, GameSide.position, Seat.position)
        ).all()
        db.session.remove()
    games: dict[int, list[str]] = {}
    for game, name in rows:
        games.setdefault(game, []).append(name)
    return list(games.values())


def newest_game(app: Flask) -> int:
    with app.app_context():
        newest = db.session.scalar(select(func.max(Game.id))) or 0
        db.session.remove()
    return newest


def flashed(phone: FlaskClient, table: Table) -> str:
    """The players page as the phone sees it next, with the message its last change left."""
    return phone.get(f"/t/{table.token}/players").get_data(as_text=True)


def test_a_merge_and_a_new_game_naming_the_merged_player_at_once_lose_no_seat(
    make_app: Callable[..., Flask],
):
    app = make_app(LIMIT_GAMES="off")
    """ "Anne" merged into "Ann" while another phone starts a game naming "Anne": both are
    answered, and the new game keeps its four seats, with Anne or Ann in the first."""
    table = shared_table(app)
    assert new_game(table.phones(app)[0], table, "Ann", "Eve", "Fay", "Gus") == 303
    tally = Tally(rounds(app))
    damaged_before = 0
    for round_ in range(tally.rounds):
        merger, starter = table.phones(app)
        add_player(app, table, "Anne")
        ids = player_ids(app)
        before = newest_game(app)
        statuses = at_once(
            merge=partial(merge, merger, table, ids["Anne"], ids["Ann"]),
            game=partial(new_game, starter, table, "Anne", "Hal", "Ike", "Jo"),
        )
        tally.errors += list(statuses.values()).count(500)
        made = seated_since(app, before)
        if statuses["game"] == 303 and len(made) != 1:
            tally.lost += 1
            tally.note(f"round {round_}: the new game was answered but not made")
        damaged = sum(1 for seats in seat_counts(app).values() if seats != 4)
        if damaged > damaged_before:
            tally.lost += damaged - damaged_before
            tally.note(f"round {round_}: a game lost a seat: {made}")
            damaged_before = damaged
        elif made and not (made[0][0] in ("Anne", "Ann") and made[0][1:] == ["Hal", "Ike", "Jo"]):
            tally.lost += 1
            tally.note(f"round {round_}: the new game seats {made}")
        merged = "Their games are now Ann’s." in flashed(merger, table)
        if statuses["merge"] == 303 and not merged:
            tally.lost += 1
            tally.note(f"round {round_}: the merge was answered but not made")
    tally.assert_clean()


def test_two_phones_naming_the_same_new_player_at_once_both_start_their_game(
    make_app: Callable[..., Flask],
):
    app = make_app(LIMIT_GAMES="off")
    table = shared_table(app)
    tally = Tally(rounds(app))
    for round_ in range(tally.rounds):
        first, second = table.phones(app)
        newcomer = f"Nova {round_}"
        before = newest_game(app)
        statuses = race(
            partial(new_game, first, table, newcomer, "Bob", "Cy", "Dee"),
            partial(new_game, second, table, newcomer, "Hal", "Ike", "Jo"),
        )
        tally.errors += statuses.count(500)
        made = seated_since(app, before)
        whole = sum(1 for names in made if len(names) == 4 and names[0] == newcomer)
        tally.lost += max(0, statuses.count(303) - whole)
        with app.app_context():
            same = db.session.scalar(select(func.count()).where(Player.key == player_key(newcomer)))
            db.session.remove()
        if same != 1 and 303 in statuses:
            tally.lost += 1
            tally.note(f"round {round_}: {same} players named {newcomer}")
    tally.assert_clean()


def test_two_renames_to_the_same_name_at_once_rename_one_and_refuse_the_other(
    make_app: Callable[..., Flask],
):
    app = make_app(LIMIT_GAMES="off")
    table = shared_table(app)
    first, second = table.phones(app)
    assert new_game(first, table, "Ann", "Bob", "Cy", "Dee") == 303
    ids = player_ids(app)
    tally = Tally(rounds(app))
    for round_ in range(tally.rounds):
        wanted = f"Zed {round_}"
        statuses = race(
            partial(rename, first, table, ids["Ann"], wanted),
            partial(rename, second, table, ids["Bob"], wanted),
        )
        tally.errors += statuses.count(500)
        with app.app_context():
            names = dict(
                db.session.execute(
                    select(Player.id, Player.name).where(Player.id.in_([ids["Ann"], ids["Bob"]]))
                ).all()
            )
            db.session.remove()
        if list(names.values()).count(wanted) != 1:
            tally.lost += 1
            tally.note(f"round {round_}: {names}")
        pages = [flashed(first, table), flashed(second, table)]
        told = sorted(
            "renamed"
            if "The player is renamed." in page
            else "refused"
            if f"{wanted} is already a player of this table." in page
            else "nothing"
            for page in pages
        )
        if statuses == [303, 303] and told != ["refused", "renamed"]:
            tally.note(f"round {round_}: told {told}")
            tally.lost += 1
    tally.assert_clean()
