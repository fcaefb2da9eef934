"""/api/: the API's docs page, the example it gives, and the addresses that lead to it."""

import json
import re
from html import unescape

import pytest

from scorekeeper.api.docs import EXAMPLE_DEAL


def test_the_docs_page_shows_swagger_ui_served_by_the_app_over_the_document(client):
    page = client.get("/api/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert '<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js" defer>' in html
    assert 'data-document="/api/v1/openapi.json"' in html
    assert '<a href="http://localhost/api/v1/openapi.json">' in html
    assert "<script>" not in html  # no inline script: the CSP allows none
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]


def test_the_curl_example_on_the_page_scores_as_shown(client):
    html = client.get("/api/").get_data(as_text=True)
    body = re.search(r"-d '(\{.*\})'", html)
    assert body is not None
    sent = json.loads(body.group(1).replace("&#34;", '"'))
    assert sent == EXAMPLE_DEAL
    scored = client.post("/api/v1/score", json=sent).get_json()
    assert [side["total"] for side in scored["sides"]] == [4595, 1280]


@pytest.mark.parametrize("address", ["/docs", "/api/v1/docs", "/redoc"])
def test_the_usual_docs_addresses_lead_to_the_page(client, address):
    response = client.get(address)
    assert response.status_code == 301
    assert response.headers["Location"] == "/api/"


def test_every_page_links_the_api_docs_in_its_footer(client):
    footer = client.get("/").get_data(as_text=True).split('<footer class="site-footer')[1]
    assert '<a href="/api/">API</a>' in footer


def test_the_docs_page_speaks_the_readers_language(client):
    html = client.get("/api/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Des programmes peuvent tenir des parties, calculer le score des donnes" in html
    assert "<h2>Le score d'une donne calculé avec curl</h2>" in html


def test_the_vendored_library_carries_its_version_and_licence(app):
    folder = f"{app.static_folder}/vendor/swagger-ui"
    with open(f"{folder}/README.txt", encoding="utf-8") as note:
        assert "swagger-ui-dist@5.35.0" in note.read()
    with open(f"{folder}/LICENSE", encoding="utf-8") as licence:
        assert "Apache License" in licence.read()


def _walkthrough(html: str) -> list[str]:
    """The commands of the whole game on the docs page, one string each, HTML unescaped."""
    block = html.split("<h2>A whole game with curl</h2>")[1].split("</code></pre>")[0]
    text = unescape(block.split("<code>")[1]).replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.startswith("curl")]


def _body(command: str) -> dict:
    return json.loads(re.search(r"-d '(\{.*\})'", command).group(1))


def test_the_whole_game_on_the_docs_page_plays_as_written(client):
    made = client.post("/tables/new", data={"name": "Club"})
    table = re.search(r"/t/([A-Za-z0-9_-]+)", made.headers["Location"]).group(1)
    start, save, scoreboard, undo, delete = _walkthrough(client.get("/api/").get_data(as_text=True))
    api = client.application.test_client()

    assert start.startswith("curl -s -X POST $API/tables/$T/games")
    started = api.post(
        f"/api/v1/tables/{table}/games",
        json=_body(start),
        headers={"Authorization": f"Bearer {table}"},
    )
    assert started.status_code == 201
    game = started.get_json()["links"]["edit_token"]
    bearer = {"Authorization": f"Bearer {game}"}

    assert save.startswith("curl -s -X PUT $API/games/$G/deals/1")
    saved = api.put(
        f"/api/v1/games/{game}/deals/1",
        json=_body(save),
        headers={**bearer, "If-Match": started.headers["ETag"]},
    )
    assert saved.status_code == 201
    stale = api.put(
        f"/api/v1/games/{game}/deals/1",
        json=_body(save),
        headers={**bearer, "If-Match": started.headers["ETag"]},
    )
    assert stale.status_code == 412

    assert scoreboard == "curl -s $API/games/$G/scoreboard"
    totals = api.get(f"/api/v1/games/{game}/scoreboard").get_json()
    assert [side["total"] for side in totals["sides"]] == [4595, 1280]

    assert undo == 'curl -s -X POST $API/games/$G/undo -H "Authorization: Bearer $G"'
    assert api.post(f"/api/v1/games/{game}/undo", headers=bearer).status_code == 200
    assert delete == 'curl -s -X DELETE $API/games/$G/deals/1 -H "Authorization: Bearer $G"'
    assert api.delete(f"/api/v1/games/{game}/deals/1", headers=bearer).status_code == 404
