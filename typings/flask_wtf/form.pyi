from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup
from wtforms import Form
from wtforms.fields.core import Field
from wtforms.meta import _MultiDictLike

class FlaskForm(Form):
    """A WTForms form that reads the request's form data and checks its CSRF token."""

    def __init__(
        self,
        formdata: _MultiDictLike | None = ...,
        obj: object | None = None,
        prefix: str = "",
        data: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        **kwargs: object,
    ) -> None: ...
    def is_submitted(self) -> bool: ...
    def validate_on_submit(
        self,
        extra_validators: Mapping[str, Sequence[Callable[[Form, Field], object]]] | None = None,
    ) -> bool: ...
    def hidden_tag(self, *fields: str | Field) -> Markup: ...
