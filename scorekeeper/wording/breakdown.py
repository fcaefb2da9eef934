"""A deal's score line by line, as people read it: each line's name, and its count in words.

"2 clean books: 1000" rather than "2× 1000", which reads as two times a thousand; red threes
laid down and still held on lines of their own (``ScoreLine.parts``), never one merged count.
The names and what each line counts come from the score-line spec (``rules.score_lines``);
the scoreboard and the filled score sheet word their lines here (the deal form's labels are
in ``deal_description``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.rules.score_lines import LINE_SPECS, shown_specs
from scorekeeper.rules.scoring import ScoreLine
from scorekeeper.rules.variants import Variant


def _books(num: int) -> str:
    return ngettext("%(num)s book", "%(num)s books", num)


def _laid_down(num: int) -> str:
    return ngettext("%(num)s laid down", "%(num)s laid down", num)


def _held(num: int) -> str:
    return ngettext("%(num)s held", "%(num)s held", num)


def _players(num: int) -> str:
    return ngettext("%(num)s player", "%(num)s players", num)


def _pickups(num: int) -> str:
    return ngettext("%(num)s pickup", "%(num)s pickups", num)


COUNT_WORDS: Mapping[str, Callable[[int], str]] = {
    "books": _books,
    "laid_down": _laid_down,
    "held": _held,
    "players": _players,
    "pickups": _pickups,
}
"""The words for each kind of count a line spec names (``LineSpec.counts``). Other lines
(melded points, going out, cards left) are their points alone."""


def count_words(line: ScoreLine) -> str:
    """What the line counts, in words ("2 books"), or "" when there is nothing to count.

    A line made of parts (red threes) names each part that counted something.
    """
    if line.parts:
        return ", ".join(filter(None, (count_words(part) for part in line.parts)))
    words = COUNT_WORDS.get(LINE_SPECS[line.key].counts)
    if words is None or not line.count:
        return ""
    return words(line.count)


def count_label(line: ScoreLine) -> str:
    """The count as a cell shows it before the points ("2 books:"), or ""."""
    words = count_words(line)
    return _("%(count)s:", count=words) if words else ""


def line_labels(variant: Variant, deal: int | None = None) -> dict[str, str]:
    """The name of each row of a breakdown under this variant (of deal `deal`, where the
    exact cut names its number of cards), in the reader's language."""
    return {spec.key: spec.label_for(variant, deal).render(_) for spec in shown_specs(variant)}
