"""Errors of the JSON API as ``application/problem+json`` (RFC 9457), in the caller's language.

Every error of /api/ has ``type``, ``title``, ``status`` and ``detail``, and two lists:

- ``field_errors``: each thing wrong, naming the side (from 0, or null) and the field, with its
  ``message`` and a stable machine-readable ``code``. A rule of the core's code comes from its
  message's English template (``rules.terms.code_of``), so that every rule has one without a
  table kept by hand; an error with no rule behind it (a 404) has the code of its status.
- ``errors``: the same without the codes, as the API answered before problem details, kept for
  the clients that read it.

Messages, titles and details are said in the request's language (``Accept-Language`` or the
``lang`` cookie), a 404 as a 422.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import Response, jsonify
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.http import HTTP_STATUS_CODES

from scorekeeper.rules.messages import Problem
from scorekeeper.rules.terms import code_of

PROBLEM_JSON = "application/problem+json"
PROBLEM_TYPE = "about:blank"
"""Every problem is what its status says (RFC 9457, 4.2.1); ``field_errors`` say the rest."""


def status_wording(status: int) -> tuple[str, str]:
    """The title and message shown for a status when the code raising it gave none."""
    wordings = {
        400: (
            _("Bad request"),
            _("The app could not understand that request. Check what you entered and try again."),
        ),
        401: (
            _("Edit link needed"),
            _(
                "Send the edit link of the game or of its card table as "
                "Authorization: Bearer <token>."
            ),
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
        412: (
            _("Changed meanwhile"),
            _("The game was changed since the version this change was made from."),
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


def described(problem: Problem) -> dict[str, Any]:
    """A problem of the rules core as the API's ``errors`` state it, in the request's
    language."""
    return {"side": problem.side, "field": problem.field, "message": problem.render(_, ngettext)}


def field_error(problem: Problem) -> dict[str, Any]:
    """A problem as ``field_errors`` state it: ``described`` with the rule's code."""
    return {**described(problem), "code": problem.code}


def status_code(status: int) -> str:
    """The code of an error with no rule behind it: its status's name ("not-found")."""
    return code_of(HTTP_STATUS_CODES.get(status, "error"))


class ApiProblem(Exception):
    """An API view's refusal, answered as problem details (``scorekeeper.errors``)."""

    def __init__(
        self,
        status: int,
        detail: str | None = None,
        *,
        problems: Sequence[Problem] = (),
        extra: Mapping[str, Any] | None = None,
        headers: Iterable[tuple[str, str]] = (),
    ) -> None:
        super().__init__(detail or str(status))
        self.status = status
        self.detail = detail
        self.problems = tuple(problems)
        self.extra = dict(extra or {})
        self.headers = list(headers)


def problem_body(
    status: int,
    detail: str | None = None,
    *,
    title: str | None = None,
    problems: Sequence[Problem] = (),
    extra: Mapping[str, Any] | None = None,
    field_errors: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The problem details of an error: the status's wording where no title or detail is
    given; the problems of the rules core (or their ``field_error``s, already made), else one
    naming nothing, in the two lists."""
    default_title, default_detail = status_wording(status)
    detail = detail or default_detail
    if problems:
        field_errors = [field_error(problem) for problem in problems]
    elif not field_errors:
        field_errors = [
            {"side": None, "field": None, "message": detail, "code": status_code(status)}
        ]
    return {
        "type": PROBLEM_TYPE,
        "title": title or default_title,
        "status": status,
        "detail": detail,
        **(extra or {}),
        "field_errors": list(field_errors),
        "errors": [{k: v for k, v in error.items() if k != "code"} for error in field_errors],
    }


def problem_response(
    status: int,
    detail: str | None = None,
    *,
    title: str | None = None,
    problems: Sequence[Problem] = (),
    extra: Mapping[str, Any] | None = None,
    headers: Iterable[tuple[str, str]] = (),
    field_errors: Sequence[Mapping[str, Any]] = (),
) -> Response:
    body = problem_body(
        status, detail, title=title, problems=problems, extra=extra, field_errors=field_errors
    )
    response = jsonify(body)
    response.status_code = status
    response.content_type = PROBLEM_JSON
    for name, value in headers:
        response.headers[name] = value
    return response


def answer_problem(problem: ApiProblem) -> Response:
    return problem_response(
        problem.status,
        problem.detail,
        problems=problem.problems,
        extra=problem.extra,
        headers=problem.headers,
    )
