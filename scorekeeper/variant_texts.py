"""A variant's name, summary or source as a page shows it.

The built-in variants' texts are in the catalogs (``handbook/extract.py`` puts them there) and
are shown in the reader's language. Every other variant text was typed by someone: house rules,
the rules of an imported game. Such a text is shown exactly as typed and is never looked up as
a message: a name that happened to be a message id would come back translated, and in a template
``_()`` returns Markup, which would write the text into the page unescaped.
"""

from __future__ import annotations

from functools import cache

from flask_babel import get_translations
from flask_babel import gettext as _

from scorekeeper.rules.house_rules import default_summary
from scorekeeper.rules.variants import BUILT_IN

TEXT_FIELDS = ("name", "summary", "source")


@cache
def _catalog_texts() -> frozenset[str]:
    return frozenset(
        getattr(variant, name) for variant in BUILT_IN.values() for name in TEXT_FIELDS
    )


@cache
def _default_summaries() -> dict[str, str]:
    """The summary of house rules given none, by the built-in rules they are based on."""
    return {default_summary(variant.name): variant.name for variant in BUILT_IN.values()}


def variant_text(text: str) -> str:
    """The text in the reader's language when it is a built-in variant's, or the summary house
    rules are given when none is typed; else as it is.

    A plain string: Jinja escapes it wherever it is written.
    """
    base = _default_summaries().get(text)
    if base is not None:
        return str(_("House rules based on %(variant)s.", variant=variant_text(base)))
    if text not in _catalog_texts():
        return text
    return str(get_translations().ugettext(text))


def table_label(sides: int, players: int) -> str:
    if players > sides:
        return _("%(sides)s teams of %(size)s", sides=sides, size=players // sides)
    return _("%(players)s players", players=players)
