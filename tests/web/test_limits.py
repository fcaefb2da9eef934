"""Abuse limits: per-client rate limits (429 with Retry-After), the machine's render slots
(503 with Retry-After), and the import routes' larger body limit."""

from __future__ import annotations

import io
import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import save, start_game
from house_helpers import make_house_rules, text
from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import config as settings
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.limits import rates
from scorekeeper.limits.slots import render_slots
from scorekeeper.printing import pdf
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.sheets import views
from scorekeeper.store.games import Game
from scorekeeper.store.house import HouseVariant
from scorekeeper.store.tables import CardTable

OTHER_ADDRESS = "198.51.100.7"


@pytest.fixture(autouse=True)
def _no_cached_sheets() -> None:
    """Each test renders its sheets: nothing is left from the tests before."""
    views.blank_pdfs.clear()
    views.made_pdfs.clear()
    pdf.fitted_rows.clear()


def from_address(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def count(app: Flask, model: type) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def assert_refused_for_a_while(response, window: int) -> None:
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= window


def new_game_form(name: str) -> dict[str, str]:
    return {
        "variant": "pagat",
        "table": "2x4",
        "name": name,
        "start": "1",
        "side_names-0": "Us",
        "side_names-1": "Them",
    }


# --- games ---------------------------------------------------------------------------------


def test_starting_games_past_the_limit_answers_429_and_starts_nothing(make_app):
    app = make_app(LIMIT_GAMES="3/hour")
    client = app.test_client()
    for number in range(3):
        start_game(app, client, name=f"Game {number}")

    refused = client.post("/games/new", data=new_game_form("One too many"))

    assert_refused_for_a_while(refused, 3600)
    page = text(refused)
    assert "Too many requests" in page
    assert "Many games were started from your network in a short time. Try again in" in page
    assert count(app, Game) == 3


def test_another_client_still_starts_games_when_one_is_over_the_limit(make_app):
    app = make_app(LIMIT_GAMES="1/hour")
    client = app.test_client()
    start_game(app, client)
    assert client.post("/games/new", data=new_game_form("Again")).status_code == 429

    other = from_address(app, OTHER_ADDRESS)

    assert other.post("/games/new", data=new_game_form("Theirs")).status_code == 303
    assert count(app, Game) == 2


def test_the_new_game_form_itself_is_not_counted(make_app):
    app = make_app(LIMIT_GAMES="1/hour")
    client = app.test_client()
    for _ in range(3):
        assert client.get("/games/new").status_code == 200

    start_game(app, client)


def test_demo_games_count_as_games(make_app):
    app = make_app(LIMIT_GAMES="1/hour")
    client = app.test_client()
    start_game(app, client)

    response = client.post("/demo", data={"variant": "pagat", "seed": "7"})

    assert_refused_for_a_while(response, 3600)
    assert count(app, Game) == 1


def test_a_new_window_opens_when_the_old_one_is_over(make_app, monkeypatch):
    app = make_app(LIMIT_GAMES="1/minute")
    client = app.test_client()
    start_game(app, client)
    refused = client.post("/games/new", data=new_game_form("Too soon"))
    assert_refused_for_a_while(refused, 60)

    later = time.time() + int(refused.headers["Retry-After"])
    monkeypatch.setattr(rates.time, "time", lambda: later)

    start_game(app, client, name="In the next minute")
    assert count(app, Game) == 2


def test_deal_saves_are_never_counted(make_app):
    app = make_app(LIMIT_GAMES="1/hour")
    client = app.test_client()
    links = start_game(app, client)

    for number in range(1, 4):
        assert save(client, links, number, version=0).status_code == 303


# --- card tables ---------------------------------------------------------------------------


def test_making_tables_past_the_limit_answers_429_and_makes_nothing(make_app):
    app = make_app(LIMIT_TABLES="2/hour")
    client = app.test_client()
    for number in range(2):
        assert client.post("/tables/new", data={"name": f"Club {number}"}).status_code == 303

    refused = client.post("/tables/new", data={"name": "One too many"})

    assert_refused_for_a_while(refused, 3600)
    assert "Many card tables were made from your network in a short time." in text(refused)
    assert count(app, CardTable) == 2
    other = from_address(app, OTHER_ADDRESS)
    assert other.post("/tables/new", data={"name": "Theirs"}).status_code == 303
    assert count(app, CardTable) == 3


def test_the_table_limit_is_a_setting_like_the_others():
    assert settings.from_environment({"SCOREKEEPER_LIMIT_TABLES": "5/day"}) == {
        "LIMIT_TABLES": "5/day"
    }
    assert settings.RATE_LIMIT_DEFAULTS["LIMIT_TABLES"] == "20/hour"


# --- house rules ---------------------------------------------------------------------------


def test_making_and_importing_house_rules_share_one_limit(make_app):
    app = make_app(LIMIT_HOUSE_RULES="2/hour")
    client = app.test_client()
    make_house_rules(client, name="Made here")
    pasted = json.dumps(HouseRules("Pasted", "simpson", {"going_out_bonus": 300}).to_json())
    assert client.post("/house/import", data={"text": pasted}).status_code == 303

    refused = client.post("/house/import", data={"text": pasted.replace("Pasted", "Third")})

    assert_refused_for_a_while(refused, 3600)
    assert "Many house rules were made from your network in a short time." in text(refused)
    assert count(app, HouseVariant) == 2
    other = from_address(app, OTHER_ADDRESS)
    assert (
        other.post("/house/import", data={"text": pasted.replace("Pasted", "Theirs")}).status_code
        == 303
    )


# --- imports -------------------------------------------------------------------------------


def one_game_export(app: Flask, client: FlaskClient, deals: int = 4) -> dict:
    links = start_game(app, client)
    for number in range(1, deals + 1):
        assert save(client, links, number, version=0).status_code == 303
    response = client.get(f"{links.edit_path}/export.json")
    assert response.status_code == 200
    return response.get_json()


def post_file(client: FlaskClient, document: dict | bytes):
    """The import form's post. The body is encoded here, in memory: the test client keeps a
    large one in a temporary file that it never closes."""
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    upload = FileStorage(io.BytesIO(raw), filename="games.json", content_type="application/json")
    boundary, body = encode_multipart({"file": upload})
    return client.post(
        "/games/import", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )


def test_imports_past_the_limit_answer_429_on_the_api_and_the_page(make_app):
    app = make_app(LIMIT_IMPORTS="2/hour")
    client = app.test_client()
    document = one_game_export(app, client, deals=1)
    assert client.post("/api/v1/games", json=document).status_code == 201
    assert post_file(client, document).status_code == 303

    by_api = client.post("/api/v1/games", json=document)
    by_page = post_file(client, document)

    assert_refused_for_a_while(by_api, 3600)
    message = by_api.get_json()["errors"][0]["message"]
    assert message.startswith("Many files were imported from your network in a short time.")
    assert_refused_for_a_while(by_page, 3600)
    assert "Many files were imported from your network" in text(by_page)
    assert count(app, Game) == 3
    other = from_address(app, OTHER_ADDRESS)
    assert other.post("/api/v1/games", json=document).status_code == 201


def many_games(document: dict, size: int) -> dict:
    """The export with its one game repeated, under other names, until it is over ``size``."""
    game = document["games"][0]
    copies = size // len(json.dumps(game, separators=(",", ":"))) + 1
    games = [{**game, "name": f"Copy {number}"} for number in range(1, copies + 1)]
    bigger = {**document, "games": games}
    assert len(json.dumps(bigger, separators=(",", ":"))) > size
    return bigger


@pytest.mark.slow
def test_an_export_above_one_megabyte_imports_back(app, client):
    document = many_games(one_game_export(app, client), settings.MAX_UPLOAD_BYTES)
    assert post_file(client, document).status_code == 303
    made = count(app, Game)

    export = client.get("/games/export.json")
    assert export.status_code == 200
    assert len(export.data) > settings.MAX_UPLOAD_BYTES

    assert post_file(client, export.data).status_code == 303
    assert (
        client.post("/api/v1/games", data=export.data, content_type="application/json").status_code
        == 201
    )
    assert count(app, Game) == 3 * made


def test_an_import_larger_than_the_import_limit_is_refused_with_its_size(make_app):
    app = make_app(MAX_IMPORT_BYTES=1536 * 1024)
    client = app.test_client()
    document = many_games(one_game_export(app, client), 1536 * 1024)

    by_page = post_file(client, document)
    by_api = client.post("/api/v1/games", json=document)

    message = "The file is larger than 1.5 MB, the most an import accepts."
    assert by_page.status_code == 413
    assert message in text(by_page)
    assert by_api.status_code == 413
    assert by_api.get_json()["errors"][0]["message"] == message
    assert count(app, Game) == 1


def test_other_requests_keep_the_one_megabyte_limit(client):
    response = client.post("/api/v1/score", json={"padding": "x" * settings.MAX_UPLOAD_BYTES})

    assert response.status_code == 413


# --- sheets --------------------------------------------------------------------------------


def blank_sheet(client: FlaskClient, *names: str):
    query = "&".join(f"names={name}" for name in names)
    return client.get(f"/sheets/pagat.pdf?sides=2&{query}")


@pytest.fixture
def layouts(monkeypatch) -> list[str]:
    """The layouts asked of WeasyPrint (each PDF render or measure is one), by their work."""
    laid_out: list[str] = []
    real = pdf.RenderContext.run

    def counted(context: pdf.RenderContext, work, *args: object):
        laid_out.append(work.__name__)
        return real(context, work, *args)

    monkeypatch.setattr(pdf.RenderContext, "run", counted)
    return laid_out


def test_rendering_sheets_past_the_limit_answers_429_without_rendering(make_app, layouts):
    app = make_app(LIMIT_SHEETS="2/minute")
    client = app.test_client()
    assert blank_sheet(client, "Ann", "Bob").status_code == 200
    assert blank_sheet(client, "Cy", "Di").status_code == 200
    rendered = len(layouts)
    assert rendered >= 2

    refused = blank_sheet(client, "Eve", "Fay")

    assert_refused_for_a_while(refused, 60)
    assert "Many score sheets were printed from your network in a short time." in text(refused)
    assert len(layouts) == rendered
    assert blank_sheet(client, "Ann", "Bob").status_code == 200  # made before: not rendered
    other = from_address(app, OTHER_ADDRESS)
    assert blank_sheet(other, "Eve", "Fay").status_code == 200


def test_a_game_sheet_counts_against_the_same_limit(make_app):
    app = make_app(LIMIT_SHEETS="1/minute")
    client = app.test_client()
    links = start_game(app, client)
    assert client.get(f"{links.edit_path}/sheet.pdf").status_code == 200
    assert save(client, links, 1, version=0).status_code == 303

    assert_refused_for_a_while(client.get(f"{links.edit_path}/sheet.pdf"), 60)


def test_a_render_with_every_slot_taken_and_no_wait_answers_503_at_once(make_app, layouts):
    app = make_app(SHEET_RENDERS_AT_ONCE=1, SHEET_RENDER_WAIT_SECONDS=0)
    client = app.test_client()
    with app.app_context():
        slots = render_slots()

    with slots.held():
        busy = blank_sheet(client, "Ann", "Bob")

    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "3"
    assert "Score sheets are being printed for other tables. Try again in a few seconds." in text(
        busy
    )
    assert layouts == []
    assert blank_sheet(client, "Ann", "Bob").status_code == 200


def test_sheets_are_laid_out_in_a_process_of_lower_priority(app, client, layouts):
    assert app.config["SHEET_RENDER_NICE"] == 10
    response = blank_sheet(client, "Ann", "Bob")
    assert response.status_code == 200
    assert response.data.startswith(b"%PDF-")
    assert layouts == ["_measured_row_pt", "_pdf_bytes"]

    renderer = pdf._low_priority_renderer(10)

    assert renderer.call(os.getpid) != os.getpid()
    assert renderer.call(os.nice, 0) == os.nice(0) + 10


def _killed(pid: int) -> None:
    """Kill the process as the kernel's out-of-memory killer would, and wait until it is dead."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _running(pid):
        assert time.monotonic() < deadline, f"process {pid} still runs after SIGKILL"
        time.sleep(0.02)


def _running(pid: int) -> bool:
    """Alive and not a zombie (a dead child not yet reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_dead_render_process_answers_503_once_then_a_new_one_renders(app, client):
    assert blank_sheet(client, "Ann", "Bob").status_code == 200
    dead = pdf._renderer
    assert dead is not None
    _killed(dead.pid)

    refused = blank_sheet(client, "Cy", "Di")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "3"
    assert "The score sheet could not be made this time." in refused.get_data(as_text=True)
    assert dead.process.returncode == -signal.SIGKILL  # reaped, no zombie left

    for names in (("Cy", "Di"), ("Ed", "Flo")):
        again = blank_sheet(client, *names)
        assert again.status_code == 200
        assert again.data.startswith(b"%PDF-")
    assert pdf._renderer is not None and pdf._renderer.pid != dead.pid


def test_renders_asked_by_threads_of_one_worker_take_turns_in_its_render_process(make_app):
    """Under gunicorn's threads, one worker's requests share its render process."""
    app = make_app(SHEET_RENDERS_AT_ONCE=4, LIMIT_SHEETS="off")

    def sheet_of(name: str) -> tuple[int, bytes]:
        answer = blank_sheet(app.test_client(), name, "Bob")
        return answer.status_code, answer.data[:5]

    with ThreadPoolExecutor(max_workers=4) as threads:
        answers = list(threads.map(sheet_of, ["Ann", "Cy", "Di", "Ed"]))

    assert answers == [(200, b"%PDF-")] * 4
    assert len(views.made_pdfs) == 4


def test_a_second_slot_lets_a_second_render_through(make_app):
    app = make_app(SHEET_RENDERS_AT_ONCE=2)
    with app.app_context():
        slots = render_slots()

    with slots.held():
        assert blank_sheet(app.test_client(), "Ann", "Bob").status_code == 200


# --- clients and settings ------------------------------------------------------------------


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_client(make_app):
    app = make_app(LIMIT_GAMES="1/hour", TRUSTED_PROXIES=1)
    first = app.test_client()
    first.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.1"
    second = app.test_client()
    second.environ_base["HTTP_X_FORWARDED_FOR"] = "spoofed, 203.0.113.2"
    start_game(app, first)

    assert first.post("/games/new", data=new_game_form("Again")).status_code == 429
    start_game(app, second)


def test_without_a_trusted_proxy_a_forwarded_address_is_ignored(make_app):
    app = make_app(LIMIT_GAMES="1/hour")
    client = app.test_client()
    start_game(app, client)
    client.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.9"

    assert client.post("/games/new", data=new_game_form("Again")).status_code == 429


def test_an_ipv6_client_is_its_network():
    app = Flask(__name__)
    app.config["TRUSTED_PROXIES"] = 0
    with app.test_request_context(environ_base={"REMOTE_ADDR": "2001:db8:1:2:aaaa::1"}):
        assert rates.client() == "2001:db8:1:2::/64"


def test_a_limit_can_be_turned_off(make_app):
    app = make_app(LIMIT_GAMES="off")
    client = app.test_client()

    for number in range(3):
        start_game(app, client, name=f"Game {number}")


@pytest.mark.parametrize("value", ["lots", "10/fortnight", "-1/hour", "0/hour"])
def test_a_malformed_limit_stops_the_start(tmp_path: Path, value: str):
    with pytest.raises(ValueError, match="LIMIT_SHEETS must be N/period"):
        create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}",
                "LIMIT_SHEETS": value,
            }
        )


def test_the_limits_come_from_the_environment():
    environment = {
        "SCOREKEEPER_LIMIT_IMPORTS": "5/day",
        "SCOREKEEPER_MAX_IMPORT_BYTES": "4194304",
        "SCOREKEEPER_SHEET_RENDERS_AT_ONCE": "2",
        "SCOREKEEPER_TRUSTED_PROXIES": "1",
    }

    assert settings.from_environment(environment) == {
        "LIMIT_IMPORTS": "5/day",
        "MAX_IMPORT_BYTES": 4194304,
        "SHEET_RENDERS_AT_ONCE": 2,
        "TRUSTED_PROXIES": 1,
    }
    with pytest.raises(ValueError, match="SCOREKEEPER_TRUSTED_PROXIES must be a whole number"):
        settings.from_environment({"SCOREKEEPER_TRUSTED_PROXIES": "yes"})


def test_the_default_limits_let_a_table_play(client, app):
    for number in range(5):
        start_game(app, client, name=f"Game {number}")
    for names in (("Ann", "Bob"), ("Cy", "Di"), ("Eve", "Fay")):
        assert blank_sheet(client, *names).status_code == 200


def test_a_render_refused_for_want_of_a_slot_is_not_counted(make_app):
    app = make_app(SHEET_RENDERS_AT_ONCE=1, SHEET_RENDER_WAIT_SECONDS=0, LIMIT_SHEETS="1/minute")
    client = app.test_client()
    with app.app_context():
        slots = render_slots()
    with slots.held():
        assert blank_sheet(client, "Ann", "Bob").status_code == 503

    assert blank_sheet(client, "Ann", "Bob").status_code == 200
