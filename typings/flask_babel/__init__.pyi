from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date, datetime, timedelta

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Flask

from .speaklater import LazyString as LazyString

class Babel:
    def __init__(
        self,
        app: Flask | None = None,
        date_formats: dict[str, str] | None = None,
        configure_jinja: bool = True,
    ) -> None: ...
    def init_app(
        self,
        app: Flask,
        default_locale: str = "en",
        default_domain: str = "messages",
        default_translation_directories: str = "translations",
        default_timezone: str = "UTC",
        locale_selector: Callable[[], str | None] | None = None,
        timezone_selector: Callable[[], str | None] | None = None,
    ) -> None: ...

def get_translations() -> Translations | NullTranslations: ...
def get_locale() -> Locale | None: ...
def force_locale(locale: str | Locale) -> AbstractContextManager[None]: ...
def format_date(
    date: date | datetime | None = None, format: str | None = None, rebase: bool = True
) -> str: ...
def format_timedelta(
    datetime_or_timedelta: datetime | timedelta,
    granularity: str = "second",
    add_direction: bool = False,
    threshold: float = 0.85,
) -> str: ...
def format_decimal(number: float | int, format: str | None = None) -> str: ...
def format_percent(number: float | int, format: str | None = None) -> str: ...
def gettext(string: str, **variables: object) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: object) -> str: ...
def pgettext(context: str, string: str, **variables: object) -> str: ...
def lazy_gettext(string: str, **variables: object) -> LazyString: ...
