"""Every text a user can set comes back literally wherever it is shown: escaped in every page
(never a live tag, never a broken page), as plain text in every PDF, and as the same string in
every JSON answer.

Each text a user can set is one entry of USER_TEXTS: how the text gets in (a form, an import
file, the API, a share link) and which pages, PDFs and JSON answers show it. A new text field is
one more entry. Everything is made and viewed by one client, keeping its cookies, as one
browser would.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import DEAL, Links
from house_helpers import html, make_house_rules
from markupsafe import escape
from pypdf import PdfReader
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper.capabilities import TOKEN_LENGTH, digest
from scorekeeper.extensions import db
from scorekeeper.handbook.search import MAX_QUERY
from scorekeeper.rules.params import MAX_NAME, MAX_TEXT
from scorekeeper.sheets.options import MAX_NAME_LENGTH as MAX_SHEET_NAME
from scorekeeper.store.games import NAME_LENGTH, SIDE_NAME_LENGTH, Game
from scorekeeper.store.tables import NAME_LENGTH as TABLE_NAME_LENGTH

RIGHT_TO_LEFT_OVERRIDE = "\u202e"

HOSTILE_TEXTS = (
    '<meta http-equiv=refresh content="0;url=http://example.invalid/">',
    "<meta http-equiv=refresh content=0>",
    "</style><i class=hostile>styled</i>",
    "<script>alert(document.cookie)</script>",
    '<img src=x onerror="alert(1)">',
    "{{ 7*7 }} {% if true %}jinja{% endif %}",
    "\"double\" 'single' quotes",
    "Tom &amp; Jerry &lt;b&gt;",
    "</title></head><body>",
    f"{RIGHT_TO_LEFT_OVERRIDE}gnp.exe",
    "100% %(name)s %s",
)
"""Texts a user might type to break a page, each once in every field long enough for it."""

PDF_TEXTS = (
    "</style><i class=hostile>&amp;'\"</i>",
    f"{RIGHT_TO_LEFT_OVERRIDE}gnp.exe",
)
"""The hostile texts each PDF is made with (a PDF takes a while): markup that would end the
sheet's style, a tag, an entity, both quotes; and a right-to-left override. WeasyPrint renders
the very HTML the page tests check."""

LONG_PATTERN = "<i class=hostile>&amp;'\"</i> "


def at_limit(limit: int) -> str:
    """A hostile text exactly as long as the field allows."""
    return (LONG_PATTERN * (limit // len(LONG_PATTERN) + 1))[:limit]


def texts_for(user_text: UserText, hostile: tuple[str, ...] = HOSTILE_TEXTS) -> list[str]:
    """The hostile texts the field takes, and one as long as it allows."""
    texts = [
        text
        for text in hostile
        if len(text) <= user_text.limit
        and (user_text.takes_bidi or RIGHT_TO_LEFT_OVERRIDE not in text)
    ]
    return [*texts, at_limit(user_text.limit)]


# --- what a text comes back in ------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    label: str
    fetch: Callable[[FlaskClient], TestResponse]
    status: int = 200
    sheet: bool = False
    """A printable sheet: its own style must stay intact."""


def get(path: str, status: int = 200, *, sheet: bool = False) -> Page:
    return Page(path, lambda client: client.get(path), status, sheet)


@dataclass
class Shown:
    """Where one stored text must come back."""

    pages: list[Page] = field(default_factory=list)
    pdfs: list[str] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    """JSON answers (API and downloads)."""

    def __add__(self, other: Shown) -> Shown:
        return Shown(
            self.pages + other.pages, self.pdfs + other.pdfs, self.documents + other.documents
        )


@dataclass(frozen=True)
class UserText:
    label: str
    limit: int
    put: Callable[[Flask, FlaskClient, str, int], Shown]
    """Store the text (the int numbers the call within a test) and say where it shows."""
    takes_bidi: bool = False
    """Whether the field takes right-to-left overrides: names and texts refuse them
    (``rules.names``), a blank sheet's side names drop them; search words take them."""
    in_json: bool = True
    in_pdf: bool = True

    def __str__(self) -> str:
        return self.label


# --- games ------------------------------------------------------------------------------------


def _edit_token(location: str) -> str:
    match = re.fullmatch(rf"/g/([A-Za-z0-9_-]{{{TOKEN_LENGTH}}})(/.*)?", location)
    assert match, location
    return match.group(1)


def _links(app: Flask, edit: str) -> Links:
    """The game an edit link opens, with its view link."""
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.edit_token_hash == digest(edit))).one()
        return Links(game.id, edit, game.view_token)


def new_game(
    app: Flask,
    client: FlaskClient,
    *,
    name: str = "",
    sides: tuple[str, str] = ("Us", "Them"),
    variant: str = "pagat",
) -> Links:
    response = client.post(
        "/games/new",
        data={
            "variant": variant,
            "table": "2x4",
            "name": name,
            "start": "1",
            "side_names-0": sides[0],
            "side_names-1": sides[1],
        },
    )
    assert response.status_code == 303, html(response)
    links = _links(app, _edit_token(response.headers["Location"]))
    saved = client.post(f"{links.edit_path}/deals/1", data={**DEAL, "version": "0"})
    assert saved.status_code == 303, html(saved)
    return links


def _conflict(links: Links) -> Page:
    """A second, different save of deal 1 as new: the 409 page with both versions side by
    side."""
    path = f"{links.edit_path}/deals/1"
    other = {**DEAL, "sides-1-cards_left_points": "205", "version": "0"}
    return Page(
        f"{path} (conflict)",
        lambda client: client.post(path, data=other),
        status=409,
    )


def game_title_shown(links: Links) -> Shown:
    """Where a game's title (its name, or its rules' name when it has none) is shown."""
    return Shown(
        pages=[
            get("/"),
            get(links.view_path),
            get(links.edit_path),
            get(f"{links.edit_path}/deals/2"),
            _conflict(links),
            get(f"{links.edit_path}/delete"),
            get(f"{links.edit_path}/sheet"),
            get(f"{links.view_path}/sheet.html", sheet=True),
        ],
        pdfs=[f"{links.view_path}/sheet.pdf"],
    )


def side_names_shown(links: Links) -> Shown:
    return Shown(
        pages=[
            get("/"),
            get(links.view_path),
            get(links.edit_path),
            get(f"{links.edit_path}/deals/2"),
            _conflict(links),
            get(f"{links.view_path}/sheet.html", sheet=True),
        ],
        pdfs=[f"{links.view_path}/sheet.pdf"],
    )


def game_documents(links: Links) -> Shown:
    return Shown(
        documents=[
            "/api/v1/games",
            f"/api/v1/games/{links.view}",
            "/games/export.json",
            f"{links.view_path}/export.json",
        ]
    )


def game_name_by_form(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
    links = new_game(app, client, name=text)
    return game_title_shown(links) + game_documents(links)


def side_name_by_form(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
    links = new_game(app, client, name=f"Game {number}", sides=(text, "Them"))
    return side_names_shown(links) + game_documents(links)


def _export_document(app: Flask, client: FlaskClient, number: int) -> dict:
    """An export of one fresh game, which is then deleted: only its import is left."""
    links = new_game(app, client, name=f"Exported {number}")
    document = client.get(f"/api/v1/games/{links.view}").get_json()
    with app.app_context():
        db.session.delete(db.session.get(Game, links.game_id))
        db.session.commit()
    return document


def _changed(document: dict, change: Callable[[dict], None]) -> dict:
    change(document["games"][0])
    return document


def import_by_api(app: Flask, client: FlaskClient, document: dict) -> Links:
    response = client.post("/api/v1/games", json=document)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()["games"][0]
    edit = _edit_token(made["edit_url"].split("localhost", 1)[1])
    return _links(app, edit)


def import_by_file(app: Flask, client: FlaskClient, document: dict) -> Links:
    """Import on the page; its edit link is the one the list of games gives this browser."""
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "games.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, html(response)
    with app.app_context():
        newest = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        edit_hash = newest.edit_token_hash
    listed = re.findall(rf'href="/g/([A-Za-z0-9_-]{{{TOKEN_LENGTH}}})"', html(client.get("/")))
    edit = next(token for token in listed if digest(token) == edit_hash)
    return _links(app, edit)


def imported(
    importer: Callable[[Flask, FlaskClient, dict], Links],
    change: Callable[[dict, str], None],
    shown: Callable[[Links], Shown],
) -> Callable[[Flask, FlaskClient, str, int], Shown]:
    def put(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
        document = _export_document(app, client, number)
        links = importer(app, client, _changed(document, lambda game: change(game, text)))
        return shown(links) + game_documents(links)

    return put


def _set_name(game: dict, text: str) -> None:
    game["name"] = text


def _set_side(game: dict, text: str) -> None:
    game["sides"][0] = text


def _set_rules_name(game: dict, text: str) -> None:
    game["name"] = ""
    game["rules"]["name"] = text


# --- house rules --------------------------------------------------------------------------------


def house_document(name: str, summary: str = "") -> dict:
    return {
        "format": "hand-and-foot-house-rules",
        "version": 1,
        "name": name,
        "summary": summary,
        "based_on": "pagat",
        "changes": {"going_out_bonus": 150},
    }


def _slug_of(response: TestResponse) -> str:
    assert response.status_code == 303, html(response)
    match = re.fullmatch(r"/house/([a-z0-9-]+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


HouseMaker = Callable[[FlaskClient, str, str], tuple[str, list[Page]]]
"""Stores house rules of a name and summary: their slug, and the pages on the way there."""


def house_by_form(client: FlaskClient, name: str, summary: str) -> tuple[str, list[Page]]:
    return make_house_rules(client, name=name, summary=summary), []


def house_by_link(client: FlaskClient, name: str, summary: str) -> tuple[str, list[Page]]:
    """Open the share link, then keep the rules it carries."""
    raw = json.dumps(house_document(name, summary)).encode()
    token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    slug = _slug_of(client.post("/house/shared", data={"rules": token}))
    return slug, [get(f"/house/shared?rules={token}")]


def house_by_file(client: FlaskClient, name: str, summary: str) -> tuple[str, list[Page]]:
    raw = json.dumps(house_document(name, summary)).encode()
    response = client.post(
        "/house/import",
        data={"file": (io.BytesIO(raw), "rules.json")},
        content_type="multipart/form-data",
    )
    return _slug_of(response), []


def house_pages(slug: str) -> list[Page]:
    """The pages that show both the name and the summary of house rules."""
    return [
        get(f"/house/{slug}"),
        get(f"/house/{slug}/edit"),
        get("/games/new"),
        get("/rules/"),
        get(f"/rules/house-{slug}"),
    ]


def house_name(maker: HouseMaker) -> Callable[[Flask, FlaskClient, str, int], Shown]:
    def put(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
        slug, on_the_way = maker(client, text, f"Summary {number}")
        game = new_game(app, client, variant=f"house-{slug}")
        return game_title_shown(game) + Shown(
            pages=[
                *on_the_way,
                *house_pages(slug),
                get("/house/"),
                get("/rules/compare"),
                get("/rules/search"),
                get(f"/sheets/?variant=house-{slug}"),
                get(f"/sheets/?variant=house-{slug}&sides=9"),
                get(f"/sheets/house-{slug}.html", sheet=True),
                get(f"/sheets/house-{slug}.html?sides=9", status=400),
            ],
            pdfs=[f"/sheets/house-{slug}.pdf"],
            documents=[f"/house/{slug}/export", "/api/v1/variants", "/api/v1/games"],
        )

    return put


def house_summary(maker: HouseMaker) -> Callable[[Flask, FlaskClient, str, int], Shown]:
    def put(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
        slug, on_the_way = maker(client, f"Rules {number}", text)
        return Shown(
            pages=[*on_the_way, *house_pages(slug)],
            documents=[f"/house/{slug}/export", "/api/v1/variants"],
        )

    return put


# --- texts sent with a request and shown in its answer --------------------------------------


def blank_sheet_name(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
    """A side name typed into the print form (its non-printing characters are dropped)."""
    query = urlencode({"variant": "pagat", "sides": 2, "names": text})
    options = urlencode({"sides": 2, "names": text})
    return Shown(
        pages=[get(f"/sheets/?{query}"), get(f"/sheets/pagat.html?{options}", sheet=True)],
        pdfs=[f"/sheets/pagat.pdf?{options}"],
    )


def search_words(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
    return Shown(pages=[get(f"/rules/search?{urlencode({'q': text})}")])


def table_name(app: Flask, client: FlaskClient, text: str, number: int) -> Shown:
    made = client.post("/tables/new", data={"name": text})
    assert made.status_code == 303, made.get_data(as_text=True)
    table = made.headers["Location"].split("#")[0]
    return Shown(pages=[get("/"), get(table), get("/games/new")])


USER_TEXTS = (
    UserText("game name (new-game form)", NAME_LENGTH, game_name_by_form),
    UserText("side name (new-game form)", SIDE_NAME_LENGTH, side_name_by_form),
    UserText(
        "game name (import file)",
        NAME_LENGTH,
        imported(import_by_file, _set_name, game_title_shown),
    ),
    UserText(
        "side name (import file)",
        SIDE_NAME_LENGTH,
        imported(import_by_file, _set_side, side_names_shown),
    ),
    UserText(
        "rules name of a game (import file)",
        MAX_NAME,
        imported(import_by_file, _set_rules_name, game_title_shown),
    ),
    UserText("game name (API)", NAME_LENGTH, imported(import_by_api, _set_name, game_title_shown)),
    UserText(
        "side name (API)", SIDE_NAME_LENGTH, imported(import_by_api, _set_side, side_names_shown)
    ),
    UserText(
        "rules name of a game (API)",
        MAX_NAME,
        imported(import_by_api, _set_rules_name, game_title_shown),
    ),
    UserText("house rules name (form)", MAX_NAME, house_name(house_by_form), takes_bidi=False),
    UserText("house rules summary (form)", MAX_TEXT, house_summary(house_by_form), in_pdf=False),
    UserText("house rules name (share link)", MAX_NAME, house_name(house_by_link)),
    UserText(
        "house rules summary (share link)", MAX_TEXT, house_summary(house_by_link), in_pdf=False
    ),
    UserText("house rules name (import file)", MAX_NAME, house_name(house_by_file)),
    UserText(
        "house rules summary (import file)", MAX_TEXT, house_summary(house_by_file), in_pdf=False
    ),
    UserText(
        "side name of a blank sheet (print form)",
        MAX_SHEET_NAME,
        blank_sheet_name,
        in_json=False,
    ),
    UserText("search words", MAX_QUERY, search_words, takes_bidi=True, in_json=False, in_pdf=False),
    UserText("card table name", TABLE_NAME_LENGTH, table_name, in_json=False, in_pdf=False),
)


# --- checks ------------------------------------------------------------------------------------


class _PageReader(HTMLParser):
    """A page as a browser parses it: its tags, and its text with attribute values."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.words: list[str] = []
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        self.tags.append((tag, values))
        self.words.extend(values.values())
        if tag in ("style", "script"):
            self._open.append(tag)
            (self.styles if tag == "style" else self.scripts).append("")

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        self.words.append(data)
        if self._open:
            target = self.styles if self._open[-1] == "style" else self.scripts
            target[-1] += data


def read_page(page: str) -> _PageReader:
    reader = _PageReader()
    reader.feed(page)
    reader.close()
    return reader


def live_markup(reader: _PageReader) -> list[str]:
    """Tags and attributes no page of the app has, which only a hostile text could make."""
    found = []
    for tag, attrs in reader.tags:
        if tag == "meta" and "http-equiv" in attrs:
            found.append("a <meta http-equiv>")
        if tag == "script" and "src" not in attrs:
            found.append("an inline <script>")
        if tag == "img" and attrs.get("src") == "x":
            found.append("an <img src=x>")
        if "hostile" in attrs.get("class", ""):
            found.append(f"a <{tag} class=hostile>")
        found.extend(f"an {name} handler on <{tag}>" for name in attrs if name.startswith("on"))
    if any(script.strip() for script in reader.scripts):
        found.append("script text")
    return found


def broken_structure(page: str, reader: _PageReader) -> list[str]:
    """One document, whole: a text that closed the title or the head would open a second."""
    problems = []
    for tag in ("html", "head", "title", "body"):
        count = sum(1 for name, _attrs in reader.tags if name == tag)
        if count != 1:
            problems.append(f"{count} <{tag}> tags")
    if not page.rstrip().endswith("</html>"):
        problems.append("the page does not end with </html>")
    return problems


def broken_sheet(reader: _PageReader) -> list[str]:
    """A sheet keeps its stylesheet, its one inline style of numbers, and its whole body."""
    problems = []
    if len(reader.styles) != 1 or not reader.styles[0].startswith("@page {"):
        problems.append(f"inline styles {reader.styles!r}")
    if not any(
        tag == "link" and attrs.get("href", "").startswith("/static/css/sheet.css")
        for tag, attrs in reader.tags
    ):
        problems.append("no sheet.css")
    body = [attrs.get("class", "") for tag, attrs in reader.tags if tag == "body"]
    if not body or "sheet-body" not in body[0]:
        problems.append(f"body classes {body!r}")
    if not any(attrs.get("id") == "sheet-end" for _tag, attrs in reader.tags):
        problems.append("the sheet's end is missing")
    return problems


def page_problems(page: Page, response: TestResponse, text: str) -> list[str]:
    if response.status_code != page.status:
        return [f"status {response.status_code}"]
    body = html(response)
    reader = read_page(body)
    problems = live_markup(reader) + broken_structure(body, reader)
    if page.sheet:
        problems += broken_sheet(reader)
    if str(escape(text)) not in body:
        problems.append("the text is not shown escaped")
    if not any(text in words for words in reader.words):
        problems.append("the text is not shown literally")
    if any(text in style for style in reader.styles):
        problems.append("the text is inside a <style>")
    return problems


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "".join(page.extract_text() for page in reader.pages)


def as_drawn(text: str) -> set[str]:
    """The text as a PDF may hold it: as typed, or, after a right-to-left override, in the
    order its letters are drawn (the override itself draws nothing)."""
    before, override, after = text.partition(RIGHT_TO_LEFT_OVERRIDE)
    return {text, before + after[::-1]} if override else {text}


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


SAFE_FILENAME = re.compile(r'(attachment|inline); filename="[A-Za-z0-9._-]+"')


def placed(
    app: Flask, client: FlaskClient, user_text: UserText, hostile: tuple[str, ...] = HOSTILE_TEXTS
) -> Iterator[tuple[str, Shown]]:
    """Each hostile text the field takes, stored, with where it must come back."""
    for number, text in enumerate(texts_for(user_text, hostile), start=1):
        yield text, user_text.put(app, client, text, number)


# --- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("user_text", USER_TEXTS, ids=str)
def test_every_page_shows_hostile_text_literally_and_unbroken(
    app: Flask, client: FlaskClient, user_text: UserText
) -> None:
    failures = []
    for text, shown in placed(app, client, user_text):
        assert shown.pages
        for page in shown.pages:
            try:
                problems = page_problems(page, page.fetch(client), text)
            except Exception as error:  # the app's error, raised in tests: say which page
                problems = [f"raised {error!r}"]
            failures += [f"{page.label} with {text!r}: {problem}" for problem in problems]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("user_text", [t for t in USER_TEXTS if t.in_json], ids=str)
def test_every_json_answer_gives_back_the_same_string(
    app: Flask, client: FlaskClient, user_text: UserText
) -> None:
    failures = []
    for text, shown in placed(app, client, user_text):
        assert shown.documents
        for path in shown.documents:
            response = client.get(path)
            if response.status_code != 200 or response.mimetype != "application/json":
                failures.append(f"{path}: {response.status_code} {response.mimetype}")
                continue
            if text not in strings_in(json.loads(response.get_data())):
                failures.append(f"{path} lost {text!r}")
            disposition = response.headers.get("Content-Disposition")
            if disposition is not None and not SAFE_FILENAME.fullmatch(disposition):
                failures.append(f"{path}: Content-Disposition {disposition!r}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("user_text", [t for t in USER_TEXTS if t.in_pdf], ids=str)
def test_every_pdf_holds_hostile_text_as_text(
    app: Flask, client: FlaskClient, user_text: UserText
) -> None:
    failures = []
    for text, shown in placed(app, client, user_text, PDF_TEXTS):
        assert shown.pdfs
        for path in shown.pdfs:
            response = client.get(path)
            if response.status_code != 200 or response.mimetype != "application/pdf":
                failures.append(f"{path}: {response.status_code} {response.mimetype}")
                continue
            if not SAFE_FILENAME.fullmatch(response.headers["Content-Disposition"]):
                failures.append(f"{path}: {response.headers['Content-Disposition']!r}")
            printed = _squeezed(pdf_text(response.data))
            if not any(_squeezed(form) in printed for form in as_drawn(text)):
                failures.append(f"{path} does not hold {text!r}")
    assert not failures, "\n".join(failures)


def test_rules_named_like_a_message_keep_their_name_in_every_language(
    app: Flask, client: FlaskClient
) -> None:
    """Only the built-in variants' texts are translated: a typed name is never a message id."""
    slug = make_house_rules(client, name="Score sheets", summary="Feuilles de marque")
    french = {"Accept-Language": "fr"}

    house = html(client.get(f"/rules/house-{slug}", headers=french))
    built_in = html(client.get("/rules/pagat", headers=french))
    sheets = html(client.get(f"/sheets/?variant=house-{slug}", headers=french))

    assert "<h1>Score sheets</h1>" in house
    assert "<h1>En équipes (pagat.com)</h1>" in built_in
    assert f'<option value="house-{slug}" selected>Score sheets</option>' in sheets
