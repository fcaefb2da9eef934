"""The score API's JSON: a request read into a `DealEntry`, and the answer it gets.

The web API and the command line both go through here, so they answer alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .entry import FLAG_FIELDS, SIDE_FIELDS, DealEntry, SideEntry
from .messages import N_, Problem
from .params import VariantRejected
from .scoring import score_deal
from .validation import validate_deal
from .variant_json import resolve_variant
from .variants import UnknownVariant, Variant

DEAL_FIELDS = ("variant", "deal", "players", "stock_ran_out", "sides", "running_scores")
REQUIRED_DEAL_FIELDS = ("variant", "deal", "sides")
BOOL_FIELDS = (*FLAG_FIELDS, "stock_ran_out")
MOST_RUNNING_SCORE = 1_000_000
"""The largest running score a request may give (far above any real game's)."""

Describe = Callable[[Problem], dict[str, Any]]
"""A problem as an answer's JSON states it: ``Problem.to_dict`` (English) by default; the web
API's adds the problem's code and says it in the caller's language."""

VariantResolver = Callable[[Any], Variant]
"""Turns a request's ``variant`` into a Variant: raises UnknownVariant for an unknown id and
VariantRejected (naming each field) for an inline variant that cannot be played."""


class EntryRejected(ValueError):
    """The request cannot be read as a deal; `problems` says where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def _problem(side: int | None, field: str | None, template: str, /, **params: object) -> Problem:
    return Problem(side, field, template, params)


def _read_value(
    field: str, value: object, side: int | None, bools: tuple[str, ...]
) -> tuple[object, Problem | None]:
    """The value if it has the field's type, else a problem naming the field."""
    if field in bools:
        if isinstance(value, bool):
            return value, None
        return None, _problem(side, field, N_("{field} must be true or false."), field=field)
    if field == "players" and value is None:
        return None, None
    if isinstance(value, int) and not isinstance(value, bool):
        return value, None
    return None, _problem(side, field, N_("{field} must be a whole number."), field=field)


def read_object(
    data: object,
    allowed: tuple[str, ...],
    side: int | None,
    problems: list[Problem],
    *,
    bools: tuple[str, ...] = BOOL_FIELDS,
    unread: tuple[str, ...] = ("variant", "sides"),
) -> dict[str, object]:
    """The fields of a JSON object: whole numbers, `bools` true or false, `unread` as given.

    Every key not `allowed` and every value of the wrong type is added to `problems`.
    """
    if not isinstance(data, Mapping):
        where = (
            N_("Each side must be a JSON object.")
            if side is not None
            else N_("The deal must be a JSON object.")
        )
        problems.append(_problem(side, None, where))
        return {}
    values: dict[str, object] = {}
    for key, raw in data.items():
        if key not in allowed:
            problems.append(_problem(side, str(key), N_("Unknown field {field}."), field=repr(key)))
            continue
        if key in unread:
            values[key] = raw
            continue
        value, problem = _read_value(key, raw, side, bools)
        if problem:
            problems.append(problem)
        else:
            values[key] = value
    return values


def deal_from_json(data: object, resolve: VariantResolver = resolve_variant) -> DealEntry:
    """Read a score request; raise EntryRejected naming every field that cannot be read."""
    problems: list[Problem] = []
    deal = read_object(
        data, DEAL_FIELDS, None, problems, unread=("variant", "sides", "running_scores")
    )
    if isinstance(data, Mapping):
        for field in REQUIRED_DEAL_FIELDS:
            if field not in data:
                problems.append(_problem(None, field, N_("{field} is required."), field=field))
    variant = _read_variant(deal.get("variant"), resolve, problems) if "variant" in deal else None
    sides = read_sides(deal.get("sides"), problems) if "sides" in deal else []
    running_scores = _read_running_scores(deal.get("running_scores"), problems)
    if problems or variant is None:
        raise EntryRejected(problems)
    return DealEntry(
        variant=variant,
        deal=int(deal["deal"]),  # type: ignore[call-overload]
        sides=tuple(sides),
        players=deal.get("players"),  # type: ignore[arg-type]
        stock_ran_out=bool(deal.get("stock_ran_out", False)),
        running_scores=running_scores,
    )


def _read_running_scores(raw: object, problems: list[Problem]) -> tuple[int, ...] | None:
    """Each side's game score before the deal, where the first meld follows the score; None
    (absent or null) leaves each side the smallest first meld of the variant's table."""
    if raw is None:
        return None
    if isinstance(raw, list) and all(
        isinstance(n, int) and not isinstance(n, bool) and abs(n) <= MOST_RUNNING_SCORE for n in raw
    ):
        return tuple(raw)
    problems.append(
        _problem(
            None,
            "running_scores",
            N_(
                "running_scores must be a list of whole numbers from -{most} to {most}, one per "
                "side."
            ),
            most=MOST_RUNNING_SCORE,
        )
    )
    return None


def _read_variant(raw: object, resolve: VariantResolver, problems: list[Problem]) -> Variant | None:
    try:
        return resolve(raw)
    except VariantRejected as refusal:
        problems.extend(_in_variant(problem) for problem in refusal.problems)
        return None
    except (UnknownVariant, TypeError, ValueError):
        problems.append(
            _problem(None, "variant", N_("Unknown variant {value}."), value=repr(raw)[:80])
        )
        return None


def _in_variant(problem: Problem) -> Problem:
    """A problem of an inline variant, its field named inside ``variant``."""
    field = f"variant.{problem.field}" if problem.field else "variant"
    return Problem(None, field, problem.template, problem.params, problem.severity)


def read_sides(raw: object, problems: list[Problem]) -> list[SideEntry]:
    """The side entries of a JSON list, each a JSON object of ``SideEntry`` fields; what
    cannot be read is added to ``problems``."""
    if not isinstance(raw, list) or not raw:
        problems.append(_problem(None, "sides", N_("sides must be a list of side entries.")))
        return []
    sides = []
    for index, item in enumerate(raw):
        before = len(problems)
        values = read_object(item, SIDE_FIELDS, index, problems)
        if len(problems) == before:
            sides.append(SideEntry(**values))  # type: ignore[arg-type]
    return sides


@dataclass(frozen=True, slots=True)
class ScoreAnswer:
    accepted: bool
    body: dict[str, Any]


def _in_english(problem: Problem) -> dict[str, Any]:
    return problem.to_dict()


def rejected(
    problems: list[Problem] | tuple[Problem, ...], describe: Describe = _in_english
) -> ScoreAnswer:
    return ScoreAnswer(False, {"errors": [describe(p) for p in problems]})


def answer(
    data: object, resolve: VariantResolver = resolve_variant, describe: Describe = _in_english
) -> ScoreAnswer:
    """The score API's whole answer to one request body (already decoded from JSON)."""
    try:
        entry = deal_from_json(data, resolve)
    except EntryRejected as refusal:
        return rejected(refusal.problems, describe)
    report = validate_deal(entry)
    if not report.ok:
        return rejected(report.errors, describe)
    scores = score_deal(entry)
    return ScoreAnswer(
        True,
        {
            "variant": entry.variant.id,
            "deal": entry.deal,
            "sides": [
                {
                    "total": score.total,
                    "breakdown": score.breakdown,
                    "warnings": [describe(p) for p in report.for_side(index)],
                }
                for index, score in enumerate(scores)
            ],
            "warnings": [describe(p) for p in report.warnings if p.side is None],
        },
    )
