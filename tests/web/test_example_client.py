"""examples/api_client.py against a running server: the bots' game kept through the API only."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from scorekeeper.engine.game import play_game
from scorekeeper.rules.variants import get_variant

CLIENT = Path(__file__).resolve().parents[2] / "examples" / "api_client.py"


@pytest.fixture
def server(app: Flask) -> Iterator[str]:
    serving = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=serving.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{serving.server_port}"
    finally:
        serving.shutdown()
        thread.join()
        serving.server_close()


def table_token(client: FlaskClient) -> str:
    made = client.post("/tables/new", data={"name": "Club"})
    return re.search(r"/t/([A-Za-z0-9_-]+)", made.headers["Location"]).group(1)


@pytest.mark.parametrize(("variant", "seed"), [("pagat", 3), ("simpson", 7)])
def test_the_example_client_keeps_the_bots_game_and_prints_the_engines_totals(
    server: str, client: FlaskClient, variant: str, seed: int
) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(CLIENT),
            "--server",
            server,
            f"--table={table_token(client)}",
            "--variant",
            variant,
            "--seed",
            str(seed),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    demo = play_game(get_variant(variant), seed)
    printed = [
        int(line.rpartition(": ")[2]) for line in run.stdout.splitlines()[: demo.table.sides]
    ]
    assert printed == list(demo.totals)
    assert run.stdout.splitlines()[-1].startswith("Won by ")


@pytest.mark.parametrize("token", ["x" * 43, "-" + "x" * 42])
def test_the_example_client_says_what_the_server_refused(server: str, token: str) -> None:
    """A token may begin with a dash: given as ``--table=TOKEN``, it is still the token."""
    run = subprocess.run(
        [sys.executable, str(CLIENT), "--server", server, f"--table={token}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 1
    assert run.stderr.startswith("The server refused: 404")
