"""One handler for every error status the app answers with.

Requests under /api/ get ``{"errors": [{"side": null, "field": null, "message": ...}]}``;
everyone else gets ``errors/error.html``: a title, a plain sentence and a way home.

A database that cannot be reached (a server restarted, a connection cut, a SQLite file that
cannot be opened) is answered 503 with ``Retry-After``: the request saved nothing and may be
sent again. The pool drops the dead connections, so the next request works once the database
is back. So is a request that found none of its worker's pooled connections free in time (its
threads all busy with the database), and a sheet whose render process died (killed, out of
memory): the next render starts a new one.
"""

import logging

from flask import Blueprint, Response, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from scorekeeper.extensions import db
from scorekeeper.printing.render_process import RendererGone

bp = Blueprint("errors", __name__)
log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
RENDER_RETRY_AFTER_SECONDS = 3


def _wording(status: int) -> tuple[str, str]:
    """The title and message shown for a status when the code raising it gave none."""
    wordings = {
        400: (
            _("Bad request"),
            _("The app could not understand that request. Check what you entered and try again."),
        ),
        403: (_("Not allowed"), _("You are not allowed to do that.")),
        404: (
            _("Page not found"),
            _("There is nothing at this address. The link may be old or mistyped."),
        ),
        405: (_("Not allowed here"), _("This address does not accept that kind of request.")),
        409: (
            _("Conflicting change"),
            _("That change clashes with what is already saved. Reload the page and try again."),
        ),
        413: (_("Too large"), _("What you sent is larger than the app accepts.")),
        422: (
            _("Cannot process"),
            _("What you sent could not be used. Check the values and try again."),
        ),
        429: (
            _("Too many requests"),
            _("Many requests like this one came from your network. Wait a little and try again."),
        ),
        500: (
            _("Something went wrong"),
            _("The app ran into a problem and saved nothing from this request. Please try again."),
        ),
        503: (
            _("Busy"),
            _("The app is busy with other tables. Try again in a few seconds."),
        ),
    }
    return wordings[status]


ErrorAnswer = tuple[Response | str, int, list[tuple[str, str]]]
"""An error's answer: the JSON body (under /api/) or the page, its status and its headers."""


def _respond(status: int, title: str, message: str, error: HTTPException) -> ErrorAnswer:
    # Keep the headers the error carries (such as Allow on a 405), not its body.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    if request.path.startswith("/api/"):
        body = {"errors": [{"side": None, "field": None, "message": message}]}
        return jsonify(body), status, headers
    page = render_template("errors/error.html", status=status, title=title, message=message)
    return page, status, headers


def _custom_description(error: HTTPException) -> str | None:
    """The description given to ``abort()`` by our own code, if it differs from the default."""
    description = error.description
    if description and description != type(error).description:
        return description
    return None


@bp.app_errorhandler(400)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(409)
@bp.app_errorhandler(413)
@bp.app_errorhandler(422)
@bp.app_errorhandler(429)
@bp.app_errorhandler(503)
def handle_http_error(error: HTTPException) -> ErrorAnswer:
    status = error.code or 500
    title, message = _wording(status)
    return _respond(status, title, _custom_description(error) or message, error)


@bp.app_errorhandler(CSRFError)
def handle_csrf_error(error: CSRFError) -> ErrorAnswer:
    title = _("Form expired")
    message = _(
        "The form was out of date or incomplete, so nothing was saved. "
        "Reload the page and try again."
    )
    return _respond(400, title, message, error)


@bp.app_errorhandler(500)
def handle_internal_error(error: InternalServerError) -> ErrorAnswer:
    db.session.rollback()
    title, message = _wording(500)
    # Never show what went wrong inside: it is logged, not displayed.
    return _respond(500, title, message, error)


@bp.app_errorhandler(OperationalError)
def handle_database_unavailable(error: OperationalError) -> ErrorAnswer:
    log.warning("database unavailable: %s", error.orig)
    try:
        db.session.rollback()
    except SQLAlchemyError:
        db.session.remove()
    title = _("Try again in a moment")
    message = _(
        "The app could not reach its database, so nothing was saved from this request. "
        "Try again in a few seconds."
    )
    return _respond(503, title, message, ServiceUnavailable(retry_after=RETRY_AFTER_SECONDS))


@bp.app_errorhandler(PoolTimeout)
def handle_no_free_connection(error: PoolTimeout) -> ErrorAnswer:
    log.warning("no database connection free: %s", error)
    db.session.remove()
    title = _("Try again in a moment")
    message = _("The app is busy with other tables. Try again in a few seconds.")
    return _respond(503, title, message, ServiceUnavailable(retry_after=RETRY_AFTER_SECONDS))


@bp.app_errorhandler(RendererGone)
def handle_renderer_gone(error: RendererGone) -> ErrorAnswer:
    log.warning("sheet not rendered: %s", error)
    title = _("Try again in a moment")
    message = _("The score sheet could not be made this time. Try again in a few seconds.")
    return _respond(503, title, message, ServiceUnavailable(retry_after=RENDER_RETRY_AFTER_SECONDS))
