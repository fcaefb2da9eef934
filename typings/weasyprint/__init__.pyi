from pathlib import Path

from .document import Document
from .text.fonts import FontConfiguration
from .urls import URLFetcher

class HTML:
    def __init__(
        self,
        guess: object = None,
        filename: str | Path | None = None,
        url: str | None = None,
        file_obj: object = None,
        string: str | None = None,
        encoding: str | None = None,
        base_url: str | None = None,
        url_fetcher: URLFetcher | None = None,
        media_type: str = "print",
    ) -> None: ...
    def render(
        self, font_config: FontConfiguration | None = None, **options: object
    ) -> Document: ...

class CSS:
    def __init__(
        self,
        guess: object = None,
        filename: str | Path | None = None,
        url: str | None = None,
        file_obj: object = None,
        string: str | None = None,
        encoding: str | None = None,
        base_url: str | None = None,
        url_fetcher: URLFetcher | None = None,
        media_type: str = "print",
        font_config: FontConfiguration | None = None,
    ) -> None: ...
