"""One handler for every error status the app answers with.

Requests under /api/ get problem details (``application/problem+json``, see
``scorekeeper.problem_details``), in the request's language like the pages; everyone else
gets ``errors/error.html``: a title, a plain sentence and a way home.

A database that cannot be reached (a server restarted, a connection cut, a SQLite file that
cannot be opened) is answered 503 with ``Retry-After``: the request saved nothing and may be
sent again. The pool drops the dead connections, so the next request works once the database
is back. So is a request that found none of its worker's pooled connections free in time (its
threads all busy with the database), and a sheet whose render process died (killed, out of
memory): the next render starts a new one.
"""

import logging

from flask import Blueprint, Response, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from scorekeeper.extensions import db
from scorekeeper.printing.render_process import RendererGone
from scorekeeper.problem_details import (
    ApiProblem,
    answer_problem,
    problem_response,
    status_wording,
)

bp = Blueprint("errors", __name__)
log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
RENDER_RETRY_AFTER_SECONDS = 3


ErrorAnswer = Response | tuple[str, int, list[tuple[str, str]]]
"""An error's answer: problem details (under /api/), or the page with its status and headers."""


def _respond(status: int, title: str, message: str, error: HTTPException) -> ErrorAnswer:
    # Keep the headers the error carries (such as Allow on a 405), not its body.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    if request.path.startswith("/api/"):
        return problem_response(status, message, title=title, headers=headers)
    page = render_template("errors/error.html", status=status, title=title, message=message)
    return page, status, headers


def _custom_description(error: HTTPException) -> str | None:
    """The description given to ``abort()`` by our own code, if it differs from the default."""
    description = error.description
    if description and description != type(error).description:
        return description
    return None


@bp.app_errorhandler(ApiProblem)
def handle_api_problem(problem: ApiProblem) -> Response:
    return answer_problem(problem)


@bp.app_errorhandler(400)
@bp.app_errorhandler(401)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(409)
@bp.app_errorhandler(412)
@bp.app_errorhandler(413)
@bp.app_errorhandler(422)
@bp.app_errorhandler(429)
@bp.app_errorhandler(503)
def handle_http_error(error: HTTPException) -> ErrorAnswer:
    status = error.code or 500
    title, message = status_wording(status)
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
    title, message = status_wording(500)
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
