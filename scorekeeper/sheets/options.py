"""The options of a printed sheet, read from the query string and checked.

Every bad value becomes a `SheetOptionError` carrying the HTTP status and a sentence for the
person who asked; the views turn it into an error page. Nothing here renders anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from scorekeeper.printing.geometry import PAPERS, Paper, max_games_per_page
from scorekeeper.printing.paper import default_paper
from scorekeeper.rules.variants import UnknownVariant, Variant
from scorekeeper.store import catalogue
from scorekeeper.variant_texts import variant_text

MAX_NAME_LENGTH = 24


class SheetOptionError(ValueError):
    """A query value the sheets cannot use: `status` is 400 or 404, `message` says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class BlankOptions:
    """What a blank sheet is made of: everything its cached PDF depends on, bar the language."""

    variant: Variant
    sides: int
    paper: Paper
    names: tuple[str, ...]
    """One entry per side; an empty string leaves that side's name to be written in."""
    per_page: int

    def cache_key(self, language: str) -> tuple[object, ...]:
        return (self.variant, self.sides, self.paper.id, self.names, self.per_page, language)

    def query(self) -> dict[str, object]:
        """The query string that asks for these options again (for links and forms)."""
        query: dict[str, object] = {"sides": self.sides, "size": self.paper.id}
        if any(self.names):
            query["names"] = ",".join(self.names).rstrip(",")
        if self.per_page != 1:
            query["per_page"] = self.per_page
        return query


def paper_label(paper: Paper) -> str:
    labels = {"letter": _("Letter"), "a4": _("A4")}
    return labels.get(paper.id, paper.id)


def or_list(values: Sequence[object]) -> str:
    return format_list([str(v) for v in values], style="or", locale=get_locale() or "en")


def find_variant(variant_id: str) -> Variant:
    try:
        return catalogue.find_variant(variant_id)
    except UnknownVariant:
        raise SheetOptionError(
            404, _("There is no rule variant called “%(id)s”.", id=variant_id[:60])
        ) from None


def parse_paper(args: MultiDict[str, str]) -> Paper:
    value = (args.get("size") or default_paper().id).strip().lower()
    paper = PAPERS.get(value)
    if paper is None:
        raise SheetOptionError(
            400,
            _(
                "The paper size must be %(sizes)s, not “%(size)s”.",
                sizes=or_list(list(PAPERS)),
                size=value[:20],
            ),
        )
    return paper


def _whole_number(args: MultiDict[str, str], name: str, default: int, message: str) -> int:
    raw = args.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw, 10)
    except ValueError:
        raise SheetOptionError(400, message) from None


def parse_sides(args: MultiDict[str, str], variant: Variant) -> int:
    allowed = variant.side_counts
    sides = _whole_number(
        args, "sides", allowed[0], _("The number of sides must be a whole number.")
    )
    if sides not in allowed:
        raise SheetOptionError(
            400,
            _(
                "%(variant)s is played by %(allowed)s sides, not %(sides)s.",
                variant=variant_text(variant.name),
                allowed=or_list(allowed),
                sides=sides,
            ),
        )
    return sides


def parse_names(args: MultiDict[str, str], sides: int) -> tuple[str, ...]:
    """Side names from `names`, given repeated or comma-separated; blanks keep their place."""
    names: list[str] = []
    for value in args.getlist("names"):
        names.extend(value.split(","))
    cleaned = ["".join(ch for ch in name if ch.isprintable()).strip() for name in names]
    while cleaned and not cleaned[-1]:
        cleaned.pop()
    if len(cleaned) > sides:
        raise SheetOptionError(
            400,
            _(
                "%(count)s side names were given for %(sides)s sides.",
                count=len(cleaned),
                sides=sides,
            ),
        )
    for name in cleaned:
        if len(name) > MAX_NAME_LENGTH:
            raise SheetOptionError(
                400,
                _(
                    "A side name can be at most %(max)s characters long.",
                    max=MAX_NAME_LENGTH,
                ),
            )
    return tuple(cleaned) + ("",) * (sides - len(cleaned))


def parse_per_page(args: MultiDict[str, str], paper: Paper, sides: int) -> int:
    most = max_games_per_page(paper, sides)
    per_page = _whole_number(
        args, "per_page", 1, _("The number of games per page must be a whole number.")
    )
    if not 1 <= per_page <= most:
        message = ngettext(
            "Only %(num)s game of %(sides)s sides fits on a %(paper)s page.",
            "Between 1 and %(num)s games of %(sides)s sides fit on a %(paper)s page.",
            most,
            sides=sides,
            paper=paper_label(paper),
        )
        raise SheetOptionError(400, message)
    return per_page


def parse_blank(variant_id: str, args: MultiDict[str, str]) -> BlankOptions:
    variant = find_variant(variant_id)
    sides = parse_sides(args, variant)
    paper = parse_paper(args)
    names = parse_names(args, sides)
    per_page = parse_per_page(args, paper, sides)
    return BlankOptions(variant, sides, paper, names, per_page)
