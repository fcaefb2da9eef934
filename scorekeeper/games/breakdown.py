"""A deal's score line by line, as people read it: each line's count in words.

"2 clean books: 1000" rather than "2× 1000", which reads as two times a thousand; red threes
laid down and still held on lines of their own (``ScoreLine.parts``), never one merged count.
The scoreboard and the filled score sheet both word their counts here.
"""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.rules.scoring import ScoreLine


def _books(num: int) -> str:
    return ngettext("%(num)s book", "%(num)s books", num)


def _laid_down(num: int) -> str:
    return ngettext("%(num)s laid down", "%(num)s laid down", num)


def _held(num: int) -> str:
    return ngettext("%(num)s held", "%(num)s held", num)


def _players(num: int) -> str:
    return ngettext("%(num)s player", "%(num)s players", num)


COUNT_WORDS: dict[str, Callable[[int], str]] = {
    "clean_books": _books,
    "dirty_books": _books,
    "wild_books": _books,
    "black_three_books": _books,
    "special_books": _books,
    "red_three_books": _books,
    "red_threes_down": _laid_down,
    "red_threes_held": _held,
    "exact_22": _players,
}
"""The lines whose count is worth telling, each with the words for it. Other lines (melded
points, going out, cards left) are their points alone."""


def count_words(line: ScoreLine) -> str:
    """What the line counts, in words ("2 books"), or "" when there is nothing to count.

    A line made of parts (red threes) names each part that counted something.
    """
    if line.parts:
        return ", ".join(filter(None, (count_words(part) for part in line.parts)))
    words = COUNT_WORDS.get(line.key)
    if words is None or not line.count:
        return ""
    return words(line.count)


def count_label(line: ScoreLine) -> str:
    """The count as a cell shows it before the points ("2 books:"), or ""."""
    words = count_words(line)
    return _("%(count)s:", count=words) if words else ""
