"""/api/: the API's docs page, the example it gives, and the addresses that lead to it."""

import json
import re

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
    assert "Des programmes peuvent calculer le score des donnes" in html
    assert "<h2>Le score d'une donne calculé avec curl</h2>" in html


def test_the_vendored_library_carries_its_version_and_licence(app):
    folder = f"{app.static_folder}/vendor/swagger-ui"
    with open(f"{folder}/README.txt", encoding="utf-8") as note:
        assert "swagger-ui-dist@5.35.0" in note.read()
    with open(f"{folder}/LICENSE", encoding="utf-8") as licence:
        assert "Apache License" in licence.read()
