"""Translatable words of the rules core, kept free of any web framework.

Templates are marked with `N_` so the gettext extractor finds them; the web layer translates a
`Term` or renders a `Phrase` where the language is known.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

CODE_LENGTH = 64
"""The longest code of a message (``code_of``): enough to tell every rule's message apart."""
_PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([^)]*\)[sd]")
_WORD = re.compile(r"[a-z0-9]+")


def N_(template: str) -> str:
    """Mark a template for translation; translated later, where the language is known."""
    return template


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a template for one thing and one for several for translation, as ``ngettext``
    takes them: translated later, with the count."""
    return singular, plural


def NC_(context: str, template: str) -> str:
    """Mark a template for translation in the catalogs' `context` (as ``pgettext`` takes it),
    for words other places translate apart: translated later, in that context."""
    return template


def code_of(template: str) -> str:
    """A message's stable machine-readable code, made from its English template: its words
    without the named fields, lowercase, joined by hyphens, cut at a word within
    ``CODE_LENGTH`` characters ("{side} went out, so no red three can still be held" gives
    ``went-out-so-no-red-three-can-still-be-held``). The same rule gives the same code in
    every language and with any values; two rules of the core never share one (a test reads
    every template)."""
    words = _WORD.findall(_PLACEHOLDER.sub(" ", template).lower())
    code = ""
    for word in words:
        longer = f"{code}-{word}" if code else word
        if len(longer) > CODE_LENGTH:
            break
        code = longer
    return code


Plurals = Callable[[str, str, int], str]
"""A language's ngettext: the template for one thing or for several, chosen by the count as
the language counts, translated and given the count as ``%(num)d``."""


class Term(str):
    """A word inside a message that is itself translated (a field's name, a book kind)."""


class Message:
    """A translatable message: an English template and the values of its named fields.

    The one message type of the rules core and the engine: a validation `Problem`, an engine
    `Reason` and a `Phrase` inside either are all messages, rendered the same way. Rendering
    translates the template, then every `Term` and nested `Message` among the fields.
    """

    __slots__ = ()
    template: str
    params: Mapping[str, object]

    @property
    def code(self) -> str:
        """The stable code of the rule this message states (``code_of``); a message that
        only places another (``{where}: {problem}``) has the code of the one it places."""
        own = code_of(self.template)
        if own:
            return own
        placed = (value.code for value in self.params.values() if isinstance(value, Message))
        return next((code for code in placed if code), "invalid")

    @property
    def message(self) -> str:
        """The message in English."""
        return self.render(lambda text: text)

    def render(self, translate: Callable[[str], str], plurals: Plurals | None = None) -> str:
        """The message in a language, given that language's gettext function (and its
        ngettext, for the counts inside: without it, one thing is singular as in English)."""
        fields = rendered(self.params, translate, plurals)
        return translate(self.template).format(**fields)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Phrase(Message):
    """A translated phrase with fields of its own, used inside a message ("first meld, deal 2")."""

    template: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Plural(Message):
    """A count inside a message, with the templates for one thing and for several as
    ``ngettext`` takes them ("%(num)d clean book", "%(num)d clean books")."""

    template: str
    plural: str
    count: int
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)

    def render(self, translate: Callable[[str], str], plurals: Plurals | None = None) -> str:
        if plurals is not None:
            return plurals(self.template, self.plural, self.count)
        chosen = self.template if self.count == 1 else self.plural
        return translate(chosen) % {"num": self.count}


def rendered(
    params: Mapping[str, object],
    translate: Callable[[str], str],
    plurals: Plurals | None = None,
) -> dict[str, object]:
    """The fields of a template in a language: each `Term` and `Message` translated."""
    return {
        key: value.render(translate, plurals)
        if isinstance(value, Message)
        else translate(value)
        if isinstance(value, Term)
        else value
        for key, value in params.items()
    }


def render(
    words: Term | Message, translate: Callable[[str], str], plurals: Plurals | None = None
) -> str:
    """A term or a message in a language, given that language's gettext function."""
    if isinstance(words, Message):
        return words.render(translate, plurals)
    return translate(words)
