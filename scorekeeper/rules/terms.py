"""Translatable words of the rules core, kept free of any web framework.

Templates are marked with `N_` so the gettext extractor finds them; the web layer translates a
`Term` or renders a `Phrase` where the language is known.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass


def N_(template: str) -> str:
    """Mark a template for translation; translated later, where the language is known."""
    return template


class Term(str):
    """A word inside a message that is itself translated (a field's name, a book kind)."""


@dataclass(frozen=True, slots=True)
class Phrase:
    """A translated phrase with fields of its own, used inside a message ("first meld, deal 2").

    It renders like a message: the template translated, then filled in (a `Term` or another
    `Phrase` among its fields is translated too).
    """

    template: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)

    def render(self, translate: Callable[[str], str]) -> str:
        return translate(self.template).format(**rendered(self.params, translate))

    def __str__(self) -> str:
        return self.render(lambda text: text)


def rendered(params: Mapping[str, object], translate: Callable[[str], str]) -> dict[str, object]:
    """The fields of a template in a language: each `Term` and `Phrase` translated."""
    return {
        key: value.render(translate)
        if isinstance(value, Phrase)
        else translate(value)
        if isinstance(value, Term)
        else value
        for key, value in params.items()
    }


def render(words: Term | Phrase, translate: Callable[[str], str]) -> str:
    """A term or a phrase in a language, given that language's gettext function."""
    if isinstance(words, Phrase):
        return words.render(translate)
    return translate(words)
