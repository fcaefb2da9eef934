from collections.abc import Callable
from typing import TypeVar

from flask import Blueprint, Flask
from werkzeug.exceptions import BadRequest

_View = TypeVar("_View", bound=Callable[..., object] | Blueprint | str)

def generate_csrf(secret_key: str | None = None, token_key: str | None = None) -> str: ...

class CSRFProtect:
    def __init__(self, app: Flask | None = None) -> None: ...
    def init_app(self, app: Flask) -> None: ...
    def protect(self, apply_exemptions: bool = False) -> None: ...
    def exempt(self, view: _View) -> _View: ...

class CSRFError(BadRequest):
    """The request's CSRF token is missing, expired or does not match."""
