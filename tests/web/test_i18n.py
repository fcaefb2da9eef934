"""The interface in five languages: complete catalogs, the language choice, <html lang>.

English is the language of the message ids; French, Italian, German and Japanese each have a
catalog in scorekeeper/translations/<code>/LC_MESSAGES/messages.po, compiled by `make test`
and `make run`.
"""

import html
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from scorekeeper.extensions import LANGUAGE_COOKIE, SUPPORTED_LANGUAGES
from scorekeeper.rules.messages import FIELD_TERMS, Problem, Term
from scorekeeper.rules.variants import all_variants

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
TRANSLATED = [code for code in SUPPORTED_LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")

# One phrase of the rules pages per language: proof that the catalog is compiled and used.
QUICK_REFERENCE_TITLE = {
    "en": "Quick reference",
    "fr": "Aide-mémoire",
    "it": "Promemoria",
    "de": "Kurzübersicht",
    "ja": "早見表",
}


def _catalog(code: str):
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=code)


def _placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def _tree_messages() -> set[tuple[str, str | None]]:
    """(msgid, context) of every message the code and templates hold now, as babel.cfg says."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, "babel.cfg")
    found = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found.add((msgid, context))
    return found


@pytest.fixture(scope="module")
def tree_messages() -> set[tuple[str, str | None]]:
    return _tree_messages()


def test_the_template_and_every_catalog_exist() -> None:
    assert (TRANSLATIONS / "messages.pot").is_file()
    for code in TRANSLATED:
        assert (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").is_file(), code


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_is_complete_with_no_fuzzy_entry(code: str) -> None:
    catalog = _catalog(code)
    untranslated, fuzzy = [], []
    for message in catalog:
        if not message.id:
            continue  # the header
        if message.fuzzy:
            fuzzy.append(message.id)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(s.strip() for s in strings):
            untranslated.append(message.id)

    assert not fuzzy, f"{code}: fuzzy entries: {fuzzy[:5]}"
    assert not untranslated, f"{code}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_every_placeholder(code: str) -> None:
    for message in _catalog(code):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = _placeholders(ids[-1])
        for string in filter(None, strings):  # empty ones fail the completeness test
            # A language with one plural form may leave %(num)d out of its single form.
            got = _placeholders(string)
            assert got == wanted or (len(ids) > 1 and got == wanted - {"num"}), (
                f"{code}: {message.id!r} -> {string!r}"
            )


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_passes_the_checks_of_the_compiler(code: str) -> None:
    """What `pybabel compile` refuses: a placeholder the message id does not have, and so on."""
    problems = [(message.id, errors) for message, errors in _catalog(code).check()]

    assert not problems, f"{code}: {problems[:3]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_holds_every_message_of_the_tree(code: str, tree_messages) -> None:
    catalog = _catalog(code)

    missing = sorted(
        msgid for msgid, context in tree_messages if catalog.get(msgid, context) is None
    )

    assert not missing, f"{code}: run `make translations` and translate: {missing[:5]}"


def test_variant_names_summaries_and_sources_are_in_the_catalogs(tree_messages) -> None:
    texts = {(text, None) for v in all_variants() for text in (v.name, v.summary, v.source)}

    assert texts <= tree_messages


def test_catalogs_are_compiled() -> None:
    for code in TRANSLATED:
        po = TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"
        mo = po.with_suffix(".mo")
        assert mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime, (
            f"{mo} is missing or older than its .po: `make test` compiles the catalogs"
        )


@pytest.mark.parametrize("code", list(SUPPORTED_LANGUAGES))
def test_accept_language_picks_the_language(client: FlaskClient, code: str) -> None:
    page = client.get("/rules/pagat", headers={"Accept-Language": f"{code}-XX,{code};q=0.9"})

    html = page.get_data(as_text=True)
    assert f'<html lang="{code}">' in html
    assert QUICK_REFERENCE_TITLE[code] in html


def test_an_unsupported_browser_language_gets_english(client: FlaskClient) -> None:
    html = client.get("/rules/", headers={"Accept-Language": "pt-BR,pt;q=0.9"}).get_data(
        as_text=True
    )

    assert '<html lang="en">' in html


def test_the_switch_cookie_wins_over_the_browser_language(client: FlaskClient) -> None:
    client.post("/language/ja", data={"next": "/rules/simpson"})

    html = client.get("/rules/simpson", headers={"Accept-Language": "de"}).get_data(as_text=True)

    assert client.get_cookie(LANGUAGE_COOKIE).value == "ja"
    assert '<html lang="ja">' in html
    assert QUICK_REFERENCE_TITLE["ja"] in html


def test_the_switch_sends_back_to_the_rules_section_it_was_used_on(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "it", "next": "/rules/search?q=foot"})

    assert response.headers["Location"] == "/rules/search?q=foot"
    assert '<html lang="it">' in client.get("/rules/compare").get_data(as_text=True)


@pytest.mark.parametrize("code", TRANSLATED)
def test_rules_core_terms_render_in_the_language(app, code: str) -> None:
    from flask_babel import force_locale, gettext

    problem = Problem(None, "clean_books", "{field}", {"field": FIELD_TERMS["clean_books"]})
    with app.test_request_context(), force_locale(code):
        text = problem.render(gettext)

    assert isinstance(FIELD_TERMS["clean_books"], Term)
    assert text and text != "clean books"


# WTForms' own message for a number field given letters, as its catalogs have it.
NOT_A_WHOLE_NUMBER = {
    "en": "Not a valid integer value.",
    "fr": "N'est pas un entier valide.",
    "de": "Keine gültige, ganze Zahl.",
    "ja": "無効な整数です。",
}


@pytest.mark.parametrize("code", list(NOT_A_WHOLE_NUMBER))
def test_the_form_library_messages_come_in_the_page_language(
    client: FlaskClient, code: str
) -> None:
    client.set_cookie(LANGUAGE_COOKIE, code)

    for _ in range(2):  # the second page reads the catalog kept from the first
        response = client.get("/meld-checker?variant=pagat&deal=1&rank=K&naturals=x")
        assert NOT_A_WHOLE_NUMBER[code] in html.unescape(response.get_data(as_text=True))
