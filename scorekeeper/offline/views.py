"""The app on a phone without a network: the web app manifest, the service worker, its
fallback page, and the texts the offline scripts show.

The worker (``static/sw.js``) is served from ``/sw.js`` so that its scope is the whole site;
this view puts the list of files it keeps in advance (the app's CSS, JS and icons, and the
fallback page) and a version made from their contents in front of it, so that a phone picks
up a new release of any of them. What the worker keeps and why is said in ``static/sw.js``.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_babel import gettext as _

from scorekeeper.access import can_edit
from scorekeeper.rules.variants import Variant

bp = Blueprint("offline", __name__)

WORKER_FILE = "sw.js"
# Kept in advance: what every page needs. The sheets' fonts (sheet.css) and the icons are kept
# when first asked for, as any other static file.
PRECACHED_FOLDERS = ("css", "js")
PRECACHED_FILES = ("favicon.svg",)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
THEME_COLOR = "#1d4ed8"
BACKGROUND_COLOR = "#ffffff"


@lru_cache(maxsize=4)
def _precached(static_folder: str) -> tuple[tuple[str, ...], str]:
    """The static files kept in advance (paths under the static folder) and a digest of their
    contents and the worker's, which names the worker's cache."""
    root = Path(static_folder)
    files = sorted(
        path.relative_to(root).as_posix()
        for folder in PRECACHED_FOLDERS
        for path in (root / folder).rglob("*")
        if path.is_file() and not path.name.startswith(".") and path.suffix != ".py"
    )
    files += PRECACHED_FILES
    digest = hashlib.sha256()
    for name in (*files, WORKER_FILE):
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return tuple(files), digest.hexdigest()[:16]


@bp.get("/sw.js")
def service_worker() -> Response:
    assert current_app.static_folder is not None
    files, version = _precached(current_app.static_folder)
    urls = [url_for("static", filename=name) for name in files] + [url_for(".offline_page")]
    # offline.js loads the other scripts by their plain names, also when pages name static files
    # by hashed ones (``scorekeeper.static_files``): those are kept too.
    plain_scripts = [
        f"{current_app.static_url_path}/{name}" for name in files if name.startswith("js/")
    ]
    urls += [url for url in plain_scripts if url not in urls]
    settings = {
        "version": version,
        "precache": urls,
        "store": url_for("static", filename="js/offline-store.js"),
        "fallback": url_for(".offline_page"),
    }
    source = (Path(current_app.static_folder) / WORKER_FILE).read_text(encoding="utf-8")
    body = f"self.OFFLINE_SETTINGS = {json.dumps(settings)};\n{source}"
    response = Response(body, mimetype="text/javascript")
    # Browsers look for a new worker at every visit; they must not take an old one from a cache,
    # and the same one costs a 304.
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(version)
    response.make_conditional(request)
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    icons = [
        {
            "src": url_for("static", filename=path),
            "sizes": sizes,
            "type": "image/png",
            "purpose": purpose,
        }
        for path, sizes, purpose in ICONS
    ]
    document = {
        "name": _("Hand & Foot score keeper"),
        "short_name": "Hand & Foot",
        "description": _("Keep the score of Hand and Foot at the card table, even offline."),
        "start_url": "/",
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": icons,
    }
    response = Response(
        json.dumps(document, ensure_ascii=False), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline_page() -> str:
    """What the worker shows for a page this phone has not opened before, without a network."""
    return render_template("offline/offline.html")


@bp.app_context_processor
def offline_context() -> dict[str, object]:
    return {
        "offline_texts": offline_texts,
        "deals_in_game": deals_in_game,
        "target_of_game": target_of_game,
    }


def deals_in_game(variant: object) -> int:
    """The deals of the game a page shows, for the pages kept offline; 0 on other pages."""
    return variant.deals if isinstance(variant, Variant) else 0


def target_of_game(variant: object) -> int:
    """The target score that ends the game a page shows, for the pages kept offline; 0 where
    the game is played to its last deal, and on other pages."""
    if isinstance(variant, Variant) and variant.target_score is not None:
        return variant.target_score
    return 0


def offline_texts() -> dict[str, str]:
    """The sentences the offline scripts show, in the page's language; ``%s`` stands for a
    deal's number."""
    texts = {
        "pending": _("Deal %(number)s: saved on this phone, not sent yet.", number="%s"),
        "sending": _("Deal %(number)s: sending…", number="%s"),
        "sent": _("Deal %(number)s: sent.", number="%s"),
        "clash": _(
            "Deal %(number)s was changed on another phone meanwhile: nothing was sent.",
            number="%s",
        ),
        "check": _("Deal %(number)s was not sent: the server asks you to look at it.", number="%s"),
        "gone": _("Deal %(number)s could not be sent: this game or its link is gone.", number="%s"),
        "show": _("Show deal %(number)s", number="%s"),
        "offline": _("No network: this page is as this phone last saw it."),
        "keepOpen": _(
            "No network. Keep this page open until the network is back: the deals saved on "
            "this phone are sent then."
        ),
        "already": _(
            "Deal %(number)s is already saved on this phone: it is sent when the network is back.",
            number="%s",
        ),
        "notPosted": _("No network: nothing was changed. Try again when the network is back."),
        "notCounted": _(
            "These totals count the deals saved on this phone only once sent: deal %(numbers)s.",
            numbers="%s",
        ),
        "counted": _(
            "These totals count deal %(numbers)s, saved on this phone and not sent yet.",
            numbers="%s",
        ),
        "over": _(
            "With the deals saved on this phone a side reaches the target score of "
            "%(target)s: the game is over, and no further deal is played.",
            target="%s",
        ),
        "restored": _("What you typed before is back in the form."),
        "kept": _("This deal is saved on this phone, not sent yet."),
        "discard": _("Start over"),
        "cancel": _("Leave this deal? What you typed will be lost."),
    }
    if can_edit():  # a read-only page offers no deal to enter
        texts["enter"] = _("Enter deal %(number)s", number="%s")
    return texts
