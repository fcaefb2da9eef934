"""The paper a reader prints on, from the languages their browser asks for."""

from __future__ import annotations

from babel import Locale, UnknownLocaleError
from babel.core import get_global, parse_locale
from flask import request
from flask_babel import get_locale

from scorekeeper.printing.geometry import Paper, paper_for_territory


def reader_territory() -> str | None:
    """The reader's region: that of the browser's first language when it names one (en-US,
    fr-CA), else the usual region of the page's language (en: US, fr: FR, ja: JP)."""
    for tag, _quality in request.accept_languages:
        try:
            first = Locale.parse(tag, sep="-")
        except (ValueError, UnknownLocaleError):
            continue
        if first.territory:
            return first.territory
        break
    likely = get_global("likely_subtags").get(str(get_locale() or "en"))
    return parse_locale(likely)[1] if likely else None


def default_paper() -> Paper:
    """Sheets and season summaries alike print on the reader's usual paper: Letter in the
    United States and Canada, A4 elsewhere."""
    return paper_for_territory(reader_territory())
