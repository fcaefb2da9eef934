"""The base of every form the pages post, and the checks every name field shares.

Flask-WTF translates WTForms' own messages (a missing CSRF token, a number that is not one)
by reading WTForms' catalog again in every request that shows one. ``PageForm`` reads each
language's catalog once per process instead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

import flask_babel
from babel import support
from flask import current_app
from flask_babel import get_locale
from flask_wtf import FlaskForm
from wtforms import Field, Form, HiddenField, SubmitField

# The choices of a select field, as WTForms 3.3 gives them; types-WTForms 3.2 predates the class.
from wtforms.fields.choices import SelectChoice as SelectChoice  # type: ignore[attr-defined]
from wtforms.i18n import messages_path
from wtforms.validators import AnyOf, ValidationError

from scorekeeper.capabilities import Role
from scorekeeper.extensions import DEFAULT_LANGUAGE
from scorekeeper.rules.names import clean_name, refused_characters


def lazy_gettext(string: str, **variables: object) -> str:
    """``flask_babel.lazy_gettext`` for the labels and messages of forms, typed as the ``str``
    WTForms takes: the ``LazyString`` it returns stands in for one, and is translated into the
    language of each request that shows it."""
    return cast(str, flask_babel.lazy_gettext(string, **variables))


def lazy_text(words: Callable[[], str]) -> str:
    """Words made by `words` each time they are shown (a ``LazyString``), typed as ``str`` for
    the same reason as ``lazy_gettext``."""
    return cast(str, flask_babel.LazyString(words))


@cache
def wtforms_catalog(language: str) -> support.NullTranslations:
    return support.Translations.load(messages_path(), [language], domain="wtforms")


class PageForm(FlaskForm):
    class Meta:
        def get_translations(self, form: Any) -> Any:
            if not current_app.config.get("WTF_I18N_ENABLED", True):
                return None
            return wtforms_catalog(str(get_locale() or DEFAULT_LANGUAGE))


def name_filter(value: object) -> object:
    """A name field's filter: whitespace controls become spaces, the ends are stripped."""
    return clean_name(value) if isinstance(value, str) else value


class PrintableName:
    """Refuses a name with characters no name may hold (``rules.names``)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __call__(self, form: Form, field: Field) -> None:
        if field.data and refused_characters(field.data):
            raise ValidationError(self.message)


class NewLinkForm(PageForm):
    """Replace a game's or a card table's view link or edit link (``which``)."""

    which = HiddenField(validators=[AnyOf([Role.VIEW.value, Role.EDIT.value])])
    submit = SubmitField()
