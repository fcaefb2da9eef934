"""Helpers for the house-rules web tests: read a form the way a browser would submit it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from flask.testing import FlaskClient


class _FormReader(HTMLParser):
    """The values a browser submits for each POST form of a page (files aside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, str]] = []
        self.values: dict[str, str] = {}
        self._in_form = False
        self._select: str | None = None
        self._first_option: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form" and a.get("method") == "post":
            self._in_form = True
            self.values = {}
            self.forms.append(self.values)
        if not self._in_form:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "file"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.values[name] = a.get("value", "on")
            else:
                self.values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._first_option = name, None
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
            if "selected" in a:
                self.values[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select:
            self.values.setdefault(self._select, self._first_option or "")
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form" and self._in_form:
            self._in_form = False

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.values[self._textarea] += data


def form_values(page: str) -> dict[str, str]:
    """What the page's main POST form submits: the one with the most fields (the language
    switch of the top bar aside)."""
    reader = _FormReader()
    reader.feed(page)
    forms = [form for form in reader.forms if "lang" not in form]
    return max(forms, key=len, default={})


def html(response) -> str:
    return response.get_data(as_text=True)


def text(response) -> str:
    """The page's words, without tags, spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html(response)))


def make_house_rules(
    client: FlaskClient, base: str = "pagat", name: str = "Our table", **changes: object
) -> str:
    """Fill the new-rules form from `base` with `changes` (field name -> value); the slug."""
    values = form_values(html(client.get(f"/house/new?base={base}")))
    values["name"] = name
    for field, value in changes.items():
        if value is False:
            values.pop(field, None)
        else:
            values[field] = "y" if value is True else str(value)
    response = client.post("/house/new", data=values)
    assert response.status_code == 303, text(response)
    match = re.fullmatch(r"/house/([a-z0-9-]+)", response.headers["Location"])
    assert match
    return match.group(1)


def edit_house_rules(client: FlaskClient, slug: str, **changes: object):
    values = form_values(html(client.get(f"/house/{slug}/edit")))
    for field, value in changes.items():
        if value is False:
            values.pop(field, None)
        else:
            values[field] = "y" if value is True else str(value)
    return client.post(f"/house/{slug}/edit", data=values)
