from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, request
from flask_babel import get_locale
from werkzeug.wrappers import Response

from scorekeeper.extensions import LANGUAGE_COOKIE, SUPPORTED_LANGUAGES

bp = Blueprint("site", __name__)

LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60


@bp.app_context_processor
def language_context() -> dict[str, object]:
    return {
        "current_language": str(get_locale() or "en"),
        "supported_languages": SUPPORTED_LANGUAGES,
    }


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else "/": never a redirect elsewhere."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    if "\\" in target or any(ord(char) < 32 or ord(char) == 127 for char in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


@bp.post("/language")
@bp.post("/language/<code>")
def set_language(code: str | None = None) -> Response:
    """Remember the chosen language for a year, then go back to the page it was chosen on.

    The code comes from the address, or from the ``lang`` field of the switch in the top bar.
    """
    if code is None:
        code = request.form.get("lang", "")
    if code not in SUPPORTED_LANGUAGES:
        abort(404)
    response = redirect(safe_next(request.form.get("next")), code=303)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=current_app.config["SESSION_COOKIE_SECURE"],
    )
    return response
