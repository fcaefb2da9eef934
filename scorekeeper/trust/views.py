"""``/trust``: the table's certificate authority and how a phone installs it.

``make run HTTPS=1`` (``scorekeeper.serve``) serves the app over https with a certificate from
an authority of the table's own, and beside it a plain-http server for the phones that do not
trust that authority yet: there, this page and the authority's file are served as they are and
every other address is sent on to the same address over https.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.local_ca import authority_der, authority_name, fingerprint
from scorekeeper.public_url import public_address

bp = Blueprint("trust", __name__)

DOWNLOAD_NAME = "hand-and-foot-table-ca.crt"
CA_MIMETYPE = "application/x-x509-ca-cert"
"""What iOS opens as a profile to install, and Android's browsers save as a certificate."""
SERVED_OVER_HTTP = frozenset({"trust", "site"})
"""The blueprints the plain-http server answers itself (the language switch keeps the page)."""


def _authority() -> Path:
    """The authority's certificate file; 404 when the app serves none."""
    configured = current_app.config.get("TABLE_CA")
    if not configured or not Path(configured).is_file():
        abort(404)
    return Path(configured)


@bp.before_app_request
def on_to_https() -> BaseResponse | None:
    """In the plain-http server, send every page but this one on to https."""
    if not current_app.config.get("TLS_HELPER"):
        return None
    if request.blueprint in SERVED_OVER_HTTP or request.endpoint == "static":
        return None
    target = public_address(current_app).url + request.path
    if request.query_string:
        target += "?" + request.query_string.decode("latin-1")
    return redirect(target, code=307)


@bp.get("/trust")
def page() -> str:
    authority = _authority()
    return render_template(
        "trust/page.html",
        fingerprint=fingerprint(authority),
        authority_name=authority_name(authority),
        https_url=public_address(current_app).url + "/",
    )


@bp.get("/trust/" + DOWNLOAD_NAME)
def authority_file() -> Response:
    response = Response(authority_der(_authority()), mimetype=CA_MIMETYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="{DOWNLOAD_NAME}"'
    return response
