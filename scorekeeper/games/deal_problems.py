"""The problems of a posted deal, placed next to the fields they are about."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.games.forms import DealForm
from scorekeeper.rules.messages import Problem
from scorekeeper.rules.validation import Report


@dataclass(frozen=True, slots=True)
class Shown:
    """A problem as the form shows it: its words, and the element it is about."""

    severity: str
    message: str
    target: str


class Problems:
    """The problems of one submit, placed next to the fields they are about.

    A form's own refusal of a field names the side and the field. A problem of all sides
    together (the decks' cards bound the table, not one side) marks its field on every side.
    """

    def __init__(
        self,
        form: DealForm,
        report: Report | None,
        fields: Sequence[str],
        names: Sequence[str],
        labels: Mapping[str, str],
    ) -> None:
        self.errors: list[Shown] = []
        self.warnings: list[Shown] = []
        self._at: dict[tuple[int | None, str | None], list[Shown]] = defaultdict(list)
        self._add_refused_fields(form, names, labels)
        for message in form.went_out.errors:
            self._add(None, "went_out", "error", message, "went-out")
        if report is not None:
            for problem in report.problems:
                self._add_problem(form, problem, fields)

    def _add_refused_fields(
        self, form: DealForm, names: Sequence[str], labels: Mapping[str, str]
    ) -> None:
        """The form's own refusals, each naming the side and the field."""
        for index, side_form in enumerate(form.sides):
            for field in side_form.form:
                key = field.name.rsplit("-", 1)[-1]
                label = labels.get(key) or str(field.label.text)
                for message in field.errors:
                    named = _(
                        "%(side)s, %(field)s: %(problem)s",
                        side=names[index],
                        field=label,
                        problem=message,
                    )
                    self._add(index, key, "error", named, field.id)

    def _add_problem(self, form: DealForm, problem: Problem, fields: Sequence[str]) -> None:
        message = problem.render(_, ngettext)
        severity = problem.severity.value
        field, side = problem.field, problem.side
        if field in ("went_out", "stock_ran_out", "went_out_concealed"):
            self._add(None, "went_out", severity, message, "went-out")
        elif field is not None and field in fields and side is None:
            self._add_to_every_side(form, field, severity, message)
        elif field is not None and field in fields and side is not None:
            self._add(side, field, severity, message, form.sides[side][field].id)
        else:
            self._add(None, None, severity, message, "")

    def _add_to_every_side(self, form: DealForm, field: str, severity: str, message: str) -> None:
        """One problem listed once, shown beside the field on each side; its link goes to
        the first side's field."""
        shown = Shown(severity, message, form.sides[0][field].id)
        (self.errors if severity == "error" else self.warnings).append(shown)
        for index in range(len(form.sides)):
            self._at[(index, field)].append(shown)

    def _add(
        self, side: int | None, field: str | None, severity: str, message: str, target: str
    ) -> None:
        shown = Shown(severity, message, target)
        (self.errors if severity == "error" else self.warnings).append(shown)
        self._at[(side, field)].append(shown)

    def at(self, side: int | None, field: str | None) -> list[Shown]:
        return self._at.get((side, field), [])


def warnings_key(warnings: Iterable[Problem]) -> str:
    """A short fingerprint of the warnings shown, so "Save anyway" accepts exactly those."""
    text = "\n".join(sorted(problem.message for problem in warnings))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
