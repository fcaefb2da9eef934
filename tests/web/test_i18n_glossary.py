"""Each language speaks with one voice: its catalog keeps to its glossary and one address.

Every translated language keeps a glossary beside its catalog,
scorekeeper/translations/<code>/glossary.toml: for each of the game's concepts the term chosen,
its forms (a regular expression), the variants kept out (regular expressions) and a note; and
the form of address with the forms that betray another one. A msgstr whose msgid names a
concept (by the English words below) may not use a rejected variant of it, unless that text is
the chosen form of another concept the msgid names too (French "joker" is rejected for a wild
card, and right for the Joker itself). The search keywords of the rules pages are left out:
they list the other words people use on purpose.
"""

import re
import shutil
import subprocess
import tomllib
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import save, start_game

from scorekeeper.extensions import LANGUAGE_COOKIE, SUPPORTED_LANGUAGES
from scorekeeper.handbook.content import section_keywords

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
TRANSLATED = [code for code in SUPPORTED_LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")

# The English words by which a msgid names each concept of the glossaries.
ENGLISH = {
    "book": r"\bbooks?\b",
    "canasta_gender": r"\bbooks?\b|\bcanastas?\b",
    "book_counter": r"\bbooks?\b",
    "clean_book": r"\bclean\b",
    "dirty_book": r"\bdirty\b",
    "wild_book": r"\bwild books?\b",
    "wild_card": r"\bwild\b|\bwilds\b|\ball-wild\b",
    "joker": r"\bjokers?\b",
    "meld": r"\bmeld(s|ed|ing)?\b",
    "first_meld": r"\bfirst[- ]meld\b|\bopens?\b",
    "who_starts": r"\bstart(s|ed)?\b|\bplays? first\b",
    "going_out": r"\bgo(es|ing)? out\b|\bwent out\b|\bgone out\b",
    "concealed": r"\bconcealed\b",
    "deal": r"\bdeal(s|t|ing|er)?\b",
    "game": r"\bgames?\b",
    "hand": r"\bhands?\b",
    "held": r"\b(held|holds?|holding)\b",
    "foot": r"\bfoot\b|\bfeet\b",
    "stock": r"\bstock\b",
    "discard_pile": r"\bdiscard(s|ed|ing)?\b",
    "pile": r"\bpiles?\b",
    "side": r"\bsides?\b",
    "page": r"\bpages?\b",
    "team": r"\bteams?\b|\bpartnerships?\b",
    "player": r"\bplayers?\b",
    "red_three": r"\bred[- ]threes?\b",
    "black_three": r"\bblack[- ]threes?\b",
    "special_book": r"\bspecial books?\b",
    "lord": r"\blords?\b",
    "lady": r"\blad(y|ies)\b",
    "villain": r"\bvillains?\b",
    "jester": r"\bjesters?\b",
    "numbered_card": r"\bnumbered cards?\b",
    "deck": r"\bdecks?\b",
    "pack": r"\bpacks?\b",
}

# What every glossary defines: the concepts the players of each language must read one way.
REQUIRED = {
    "book", "clean_book", "dirty_book", "wild_book", "wild_card", "meld", "first_meld",
    "going_out", "concealed", "deal", "hand", "foot", "stock", "discard_pile", "side", "team",
    "player", "red_three", "black_three", "special_book", "lord", "lady", "villain", "jester",
    "numbered_card",
}  # fmt: skip

# Placeholders that hold a name someone typed: a side, a team, a player, house rules.
TYPED_NAME = r"(\{side\}|%\((side|team|name|names)\)s)"

# Where a typed name would take an article's elision or a participle's gender.
NAME_IN_A_SENTENCE = {
    "fr": [
        rf"\b(de|du|le|la|que)\s+{TYPED_NAME}",
        rf"{TYPED_NAME}\s+(est|n[’']est|sont|était|ne)\b",
    ],
    "it": [rf"{TYPED_NAME}\s+(è|non è|sono|era)\b"],
    "de": [],
    "ja": [],
}


@cache
def glossary(code: str) -> dict:
    with open(TRANSLATIONS / code / "glossary.toml", "rb") as handle:
        return tomllib.load(handle)


@cache
def entries(code: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every message of the catalog, each plural form on its own."""
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale=code)
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend((ids[min(n, len(ids) - 1)], string) for n, string in enumerate(strings))
    return found


@pytest.fixture
def search_keywords(app: Flask) -> set[str]:
    """The rules pages' lists of other words for a subject, in English: never shown."""
    with app.test_request_context(headers={"Accept-Language": "en"}):
        return set(section_keywords().values())


def _named(msgid: str) -> list[str]:
    return [concept for concept, words in ENGLISH.items() if re.search(words, msgid, re.I)]


def _excused(code: str, msgstr: str, span: tuple[int, int], named: list[str], own: str) -> bool:
    """Whether the text at span is the chosen form of another concept the msgid names."""
    concepts = glossary(code)["concepts"]
    for other in named:
        if other == own or other not in concepts:
            continue
        for match in re.finditer(concepts[other]["forms"], msgstr, re.I):
            if match.start() <= span[0] and span[1] <= match.end():
                return True
    return False


def rejected_variants(code: str, keywords: set[str]) -> list[str]:
    concepts = glossary(code)["concepts"]
    found = []
    for msgid, translated in entries(code):
        if msgid in keywords:
            continue
        msgstr = PLACEHOLDER.sub(lambda match: " " * len(match.group()), translated)
        named = _named(msgid)
        for concept in named:
            for pattern in concepts.get(concept, {}).get("rejected", []):
                for match in re.finditer(pattern, msgstr, re.I):
                    if not _excused(code, msgstr, match.span(), named, concept):
                        found.append(f"{concept}: {match.group()!r} in {msgstr!r} ({msgid!r})")
    return found


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_glossary_gives_a_term_a_note_and_rejected_forms_for_every_concept(code: str) -> None:
    words = glossary(code)

    assert set(words["concepts"]) >= REQUIRED, REQUIRED - set(words["concepts"])
    assert set(words["concepts"]) <= set(ENGLISH), set(words["concepts"]) - set(ENGLISH)
    for name, concept in words["concepts"].items():
        assert concept["term"].strip() and concept["note"].strip(), name
        assert re.search(concept["forms"], concept["term"], re.I), name
        for pattern in concept["rejected"]:
            assert not re.fullmatch(pattern, concept["term"], re.I), (name, pattern)
    assert words["address"]["form"] and words["address"]["note"] and words["address"]["rejected"]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="`make test` installs gettext")
@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalog_passes_msgfmt_check_format(code: str) -> None:
    po = TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"

    done = subprocess.run(
        ["msgfmt", "--check-format", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_message_uses_a_rejected_variant_of_a_concept_it_names(
    code: str, search_keywords: set[str]
) -> None:
    found = rejected_variants(code, search_keywords)

    assert not found, f"{code}: {len(found)} rejected variants, e.g.\n" + "\n".join(found[:15])


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalog_keeps_to_one_form_of_address(code: str) -> None:
    address = glossary(code)["address"]
    found = [
        f"{match.group()!r} in {msgstr!r}"
        for _msgid, msgstr in entries(code)
        for pattern in address["rejected"]
        for match in re.finditer(pattern, msgstr)
    ]

    assert not found, f"{code} speaks {address['form']}, but:\n" + "\n".join(found[:15])


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_typed_name_never_takes_an_elision_or_a_gender(code: str) -> None:
    found = [
        msgstr
        for _msgid, msgstr in entries(code)
        for pattern in NAME_IN_A_SENTENCE[code]
        if re.search(pattern, msgstr)
    ]

    assert not found, f"{code}: " + "\n".join(found[:15])


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_sources_credit_lines_name_their_texts_in_the_language(code: str) -> None:
    """The source texts are numbered in the credit lines; the English "seed" stays out."""
    credits = [(i, s) for i, s in entries(code) if re.search(r"\(seeds? \d", i)]

    assert credits
    assert [s for _i, s in credits if re.search(r"\bseeds?\b", s, re.I)] == []


def test_the_checks_find_what_they_look_for(search_keywords: set[str]) -> None:
    """The patterns match the slips they are written against, and spare the right words."""
    assert _named("{side} went out") == ["going_out", "side"]
    french = glossary("fr")["concepts"]
    assert any(re.search(p, "un livre de trois rouges") for p in french["book"]["rejected"])
    assert _excused("fr", "un joker", (3, 8), ["wild_card", "joker"], "wild_card")
    assert not _excused("fr", "un joker", (3, 8), ["wild_card"], "wild_card")
    assert any(re.search(NAME_IN_A_SENTENCE["fr"][0], s) for s in ["un joueur de %(team)s"])
    german = glossary("de")["address"]["rejected"]
    assert any(re.search(p, "Versuchen Sie es erneut.") for p in german)
    assert not any(re.search(p, "Versuche es erneut.") for p in german)


@pytest.mark.parametrize(
    ("code", "start", "verb"),
    [("fr", "Début", "Commencer"), ("it", "Inizio", "Inizia"), ("de", "Beginn", "Beginnen")],
)
def test_the_running_chart_starts_at_a_point_not_at_a_button(
    app: Flask, client: FlaskClient, code: str, start: str, verb: str
) -> None:
    """The chart's first point is the start of the game, a noun; "Start" alone is a button."""
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303
    client.set_cookie(LANGUAGE_COOKIE, code)

    page = client.get(links.view_path).get_data(as_text=True)
    chart = page.split('id="running-chart"')[1]

    assert f">{start}<" in chart
    assert f">{verb}<" not in chart
