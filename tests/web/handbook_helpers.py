"""Reading the rules pages in tests: a page in a language, one of its sections, its text."""

import re

from flask.testing import FlaskClient


def page(client: FlaskClient, url: str, language: str = "en") -> str:
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def section(html: str, section_id: str) -> str:
    """The HTML of the <section> with this id."""
    match = re.search(rf'<section id="{section_id}".*?</section>', html, re.S)
    assert match, section_id
    return match.group()


def text(html: str) -> str:
    """The words of some HTML, spaces folded, apostrophes as typed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")
