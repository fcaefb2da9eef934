"""A card table's history: players across games, statistics through the rules core, charts,
CSV and the season summary."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import store_deal
from pypdf import PdfReader
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.history.pages import forget_kept
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.games import Game
from scorekeeper.store.players import Player, Seat
from scorekeeper.store.tables import CardTable

PAGAT = get_variant("pagat")


def new_game(client: FlaskClient, *players: str, **fields: str):
    """A pagat game of two teams through the form, its four players named in seat order."""
    data = {"variant": "pagat", "table": "2x4", "start": "1"}
    for index, name in zip((0, 1, 3, 4), players, strict=False):
        data[f"player_names-{index}"] = name
    return client.post("/games/new", data={**data, **fields})


def table_token(client: FlaskClient, app: Flask) -> str:
    """The edit link of the table this browser made (from its page's address)."""
    page = client.get("/").get_data(as_text=True)
    return re.search(r'href="/t/([A-Za-z0-9_-]+)"', page).group(1)


def play(app: Flask, game_id: int, first, second) -> None:
    """Four deals, each with ``first`` for side 0 and ``second`` for side 1."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        for number in range(1, 5):
            store_deal(game, DealEntry(PAGAT, number, (first, second), players=4))
        db.session.commit()


def newest_game_id(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(Game.id).order_by(Game.id.desc()))


def standings(page: str, section: str) -> dict[str, list[str]]:
    """The rows of a standings table: name -> its cells."""
    part = page.split(f'id="{section}"')[1].split("</section>")[0]
    return {
        html.unescape(match.group(1)): re.findall(r'<td class="num">([^<]*)</td>', match.group(2))
        for match in re.finditer(r'<tr>\s*<th scope="row">([^<]+)</th>(.*?)</tr>', part, re.S)
    }


@pytest.fixture
def season(app: Flask, client: FlaskClient) -> str:
    """Two finished games: Ann & Bob beat Cy & Dee; then Bob & Dee beat Ann & Cy."""
    forget_kept()
    assert new_game(client, "Ann", "Bob", "Cy", "Dee").status_code == 303
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    assert new_game(client, " ann", "cy", "BOB", "Dee ").status_code == 303
    play(app, newest_game_id(app), PAGAT_CAUGHT, PAGAT_OUT)
    return table_token(client, app)


def test_a_name_typed_again_at_the_table_is_the_same_player(app, client, season) -> None:
    with app.app_context():
        names = sorted(db.session.scalars(select(Player.name)))
        seats = db.session.scalar(select(db.func.count()).select_from(Seat))
        game = db.session.get(Game, newest_game_id(app))
        assert [side.name for side in game.sides] == ["ann & cy", "BOB & Dee"]
    assert names == ["Ann", "Bob", "Cy", "Dee"]
    assert seats == 8


def test_a_team_of_three_names_three_players(app, client) -> None:
    data = {"variant": "pagat", "table": "2x6", "start": "1"}
    for index, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]):
        data[f"player_names-{index}"] = name
    assert client.post("/games/new", data=data).status_code == 303
    with app.app_context():
        game = db.session.get(Game, newest_game_id(app))
        assert [side.name for side in game.sides] == ["Ann & Bob & Cy", "Dee & Eve & Fay"]
        assert [[seat.player.name for seat in side.seats] for side in game.sides] == [
            ["Ann", "Bob", "Cy"],
            ["Dee", "Eve", "Fay"],
        ]


def test_the_same_player_twice_in_a_game_is_refused_and_nothing_is_saved(app, client) -> None:
    response = new_game(client, "Ann", "Bob", "ANN", "Dee")
    assert response.status_code == 422
    assert "Give each player a different name." in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(Game)) == 0


def test_statistics_count_wins_and_deals_from_the_entries(client, season) -> None:
    page = client.get(f"/t/{season}/stats").get_data(as_text=True)
    rows = {**standings(page, "standings"), **standings(page, "team-standings")}
    # games, won, win rate, average deal, best deal, average game
    assert rows["Ann"] == ["2", "1", "50%", "2,937.5", "4,595", "11,750"]
    assert rows["Bob"] == ["2", "2", "100%", "4,595", "4,595", "18,380"]
    assert rows["Cy"][:3] == ["2", "0", "0%"]
    assert rows["Ann & Bob"] == ["1", "1", "100%", "4,595", "4,595", "18,380"]
    assert "2 finished games counted." in page
    share = page.split('id="share-chart-numbers"')[1].split("</table>")[0]
    # melded cards, books, red threes, going out, cards left: Ann over her two games
    books = 4 * (2 * 500 + 2 * 300 + 1500) + 4 * (500 + 300)
    assert f'<th scope="row">Ann</th><td>7,240</td><td>{books:,}</td>' in share
    assert '<th scope="col">Exact cut</th>' not in share


def test_statistics_count_going_out_red_threes_and_books(app, season) -> None:
    from scorekeeper.history.stats import statistics
    from scorekeeper.store.people import table_players
    from scorekeeper.store.summaries import table_seats, table_summaries

    with app.app_context():
        table_id = db.session.scalar(select(CardTable.id))
        names = {p.id: p.name for p in table_players(table_id)}
        result = statistics(table_summaries(table_id), table_seats(table_id), names)
    ann = next(t for t in result.players if t.name == "Ann")
    assert (ann.went_out, ann.red_threes_caught) == (4, 4)
    assert ann.books_by_kind == {
        "clean_books": 12,
        "dirty_books": 12,
        "wild_books": 4,
        "black_three_books": 0,
    }
    assert ann.lines["cards_left"] == -(4 * 15 + 4 * 120)
    assert dict(ann.rules) == {"Partnership (pagat.com)": 2}


def test_a_filter_by_period_leaves_games_out_and_a_bad_date_is_named(client, season) -> None:
    page = client.get(f"/t/{season}/stats?from=2000-01-01&to=2000-12-31")
    assert "0 finished games counted." in page.get_data(as_text=True)
    bad = client.get(f"/t/{season}/stats?from=March")
    assert bad.status_code == 422
    assert "From: enter a date such as 2026-03-31." in bad.get_data(as_text=True)


def test_the_scoreboard_draws_the_running_totals_with_their_numbers(app, client, season) -> None:
    with app.app_context():
        token = db.session.get(Game, newest_game_id(app)).view_token
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert '<figure class="chart" id="running-chart">' in page
    table = page.split('id="running-chart-numbers"')[1].split("</table>")[0]
    assert '<th scope="row">4</th><td>5,120</td><td>18,380</td>' in table
    assert "Play again" in page


def test_play_again_starts_the_same_players_with_the_same_rules(app, client, season) -> None:
    old = newest_game_id(app)
    page = client.get(f"/t/{season}/history").get_data(as_text=True)
    assert page.index("ann &amp; cy") < page.index("Ann &amp; Bob")
    response = client.post(f"/t/{season}/again/{old}", data={"csrf_token": ""})
    assert response.status_code == 303
    with app.app_context():
        game = db.session.get(Game, newest_game_id(app))
        assert game.id != old and game.variant_id == "pagat" and game.players == 4
        assert [[seat.player.name for seat in side.seats] for side in game.sides] == [
            ["Ann", "Cy"],
            ["Bob", "Dee"],
        ]


def test_the_game_csv_has_every_field_and_both_totals(app, client, season) -> None:
    with app.app_context():
        token = db.session.get(Game, newest_game_id(app)).view_token
    response = client.get(f"/g/{token}/export.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Deal", "Side", "Players"]
    assert rows[0][-2:] == ["Deal total", "Running total"]
    assert len(rows) == 1 + 4 * 2
    assert rows[1][:4] == ["1", "ann & cy", "Ann & Cy", "600"]
    assert rows[-1][-2:] == ["4595", "18380"]
    assert rows[-2][-2:] == ["1280", "5120"]


def test_csv_cells_never_start_a_formula(app, client) -> None:
    assert new_game(client, "=SUM(A1)", "@cmd", "+1", "-x").status_code == 303
    token = table_token(client, app)
    rows = list(
        csv.reader(io.StringIO(client.get(f"/t/{token}/history.csv").data.decode("utf-8-sig")))
    )
    assert rows[0][:3] == ["Game", "Date", "Rules"]
    assert len(rows) == 1  # no deal yet
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    rows = list(
        csv.reader(io.StringIO(client.get(f"/t/{token}/history.csv").data.decode("utf-8-sig")))
    )
    assert rows[1][3:6] == ["1", "'=SUM(A1) & @cmd", "'=SUM(A1) & @cmd"]
    assert rows[2][4:6] == ["'+1 & -x", "'+1 & -x"]


def test_a_name_in_any_script_survives_the_csv(app, client) -> None:
    assert new_game(client, "さくら", "Zoë", "Jürgen", "Ana").status_code == 303
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    token = table_token(client, app)
    text = client.get(f"/t/{token}/history.csv").data.decode("utf-8-sig")
    assert "さくら & Zoë" in text and "Jürgen & Ana" in text


def test_rename_and_merge_a_typo(app, client, season) -> None:
    assert new_game(client, "Anne", "Bob", "Cy", "Dee").status_code == 303
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    with app.app_context():
        ids = {p.name: p.id for p in db.session.scalars(select(Player))}
    refused = client.post(
        f"/t/{season}/players/{ids['Anne']}/name",
        data={"name": "ANN", "csrf_token": ""},
        follow_redirects=True,
    )
    assert "Ann is already a player of this table." in refused.get_data(as_text=True)
    together = client.post(
        f"/t/{season}/players/merge",
        data={"typo": ids["Anne"], "kept": ids["Bob"]},
        follow_redirects=True,
    )
    assert "Anne and Bob played in the same game" in together.get_data(as_text=True)
    merged = client.post(
        f"/t/{season}/players/merge",
        data={"typo": ids["Anne"], "kept": ids["Ann"]},
        follow_redirects=True,
    )
    assert "Their games are now Ann’s." in merged.get_data(as_text=True)
    page = client.get(f"/t/{season}/stats").get_data(as_text=True)
    assert standings(page, "standings")["Ann"][:2] == ["3", "2"]
    renamed = client.post(
        f"/t/{season}/players/{ids['Ann']}/name", data={"name": "Annie"}, follow_redirects=True
    )
    assert "The player is renamed." in renamed.get_data(as_text=True)


def test_the_view_link_shows_the_history_but_cannot_change_it(app, client, season) -> None:
    with app.app_context():
        view = db.session.scalar(select(CardTable.view_token))
        player = db.session.scalar(select(Player.id))
    other = app.test_client()
    assert other.get(f"/t/{view}/stats").status_code == 200
    assert other.post(f"/t/{view}/players/{player}/name", data={"name": "X"}).status_code == 403
    assert other.post(f"/t/{view}/again/1").status_code == 403
    assert app.test_client().get("/t/" + "x" * 43 + "/history.csv").status_code == 404


def test_the_season_summary_pdf_holds_the_standings(client, season) -> None:
    response = client.get(f"/t/{season}/season.pdf")
    assert response.status_code == 200
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    assert "Season summary" in text
    assert "Bob 2 2 100% 4,595 4,595 18,380" in text
    assert "Where the points came from" in text


def test_a_changed_deal_or_a_merge_is_never_missed_by_what_is_kept(app, client, season) -> None:
    assert (
        standings(client.get(f"/t/{season}/stats").get_data(as_text=True), "standings")["Ann"][4]
        == "4,595"
    )
    with app.app_context():
        game = db.session.get(Game, newest_game_id(app))
        better = PAGAT_CAUGHT.__class__(meld_points=5000, red_threes_held=1, cards_left_points=120)
        store_deal(game, DealEntry(PAGAT, 2, (better, PAGAT_OUT), players=4))
        db.session.commit()
    page = client.get(f"/t/{season}/stats").get_data(as_text=True)
    assert standings(page, "standings")["Ann"][4] == "4,780"  # 5000 - 100 held - 120 left
    with app.app_context():
        ids = {p.name: p.id for p in db.session.scalars(select(Player))}
    assert new_game(client, "Anne", "Bob", "Cy", "Dee").status_code == 303
    play(app, newest_game_id(app), PAGAT_OUT, PAGAT_CAUGHT)
    with app.app_context():
        anne = db.session.scalar(select(Player.id).where(Player.name == "Anne"))
    assert "Anne" in standings(client.get(f"/t/{season}/stats").get_data(as_text=True), "standings")
    client.post(f"/t/{season}/players/merge", data={"typo": anne, "kept": ids["Ann"]})
    rows = standings(client.get(f"/t/{season}/stats").get_data(as_text=True), "standings")
    assert "Anne" not in rows and rows["Ann"][:2] == ["3", "2"]


def test_a_long_history_charts_average_totals_and_no_wins_on_the_points_axis(app) -> None:
    from datetime import datetime, timedelta

    from scorekeeper.history.pages import results_charts
    from scorekeeper.history.stats import Tally

    start = datetime(2026, 1, 1)
    tally = Tally(name="Ann")
    tally.results = [(start + timedelta(days=n), 1000 + 10 * n, n % 2 == 0) for n in range(100)]
    with app.test_request_context():
        [chart] = [str(drawn) for drawn in results_charts([tally])]

    assert chart.count("<polyline") == 1, "wins are counted in the standings, not on this axis"
    assert "Average game total" in chart
    assert "Games won" not in chart
