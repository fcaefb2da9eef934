"""The app behind an HTTPS proxy it trusts (SCOREKEEPER_TRUSTED_PROXIES=1, as compose.yaml
runs it behind Caddy): requests are https to it, and its forms still work."""

from __future__ import annotations

import re

from flask import Flask

HTTPS_PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


def test_a_form_posted_over_https_without_a_referer_is_accepted(make_app) -> None:
    """Browsers send no Referer to the app (Referrer-Policy: no-referrer): the CSRF token
    alone is checked, or no form could be sent over https."""
    app: Flask = make_app(WTF_CSRF_ENABLED=True, TRUSTED_PROXIES=1)
    client = app.test_client()
    page = client.get("/games/new", headers=HTTPS_PROXY).get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert token is not None

    made = client.post(
        "/games/new",
        headers=HTTPS_PROXY,
        data={
            "csrf_token": token.group(1),
            "variant": "pagat",
            "table": "2x4",
            "name": "Friday",
            "start": "1",
            "side_names-0": "Us",
            "side_names-1": "Them",
        },
    )

    assert made.status_code == 303, made.get_data(as_text=True)[:300]
    assert re.search(r"/g/[^/]+/deals/1$", made.headers["Location"])


def test_a_form_without_its_token_is_still_refused_over_https(make_app) -> None:
    app: Flask = make_app(WTF_CSRF_ENABLED=True, TRUSTED_PROXIES=1)

    refused = app.test_client().post(
        "/games/new", headers=HTTPS_PROXY, data={"variant": "pagat", "name": "Friday"}
    )

    assert refused.status_code == 400
