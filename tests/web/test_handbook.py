"""The rules handbook: a page per variant, its quick reference, search, and the comparison."""

import re
from html import unescape

import pytest
from flask.testing import FlaskClient
from handbook_helpers import page as _page
from handbook_helpers import section as _section
from handbook_helpers import text as _text

from scorekeeper.engine.conventions import MATCHING_TO_TAKE, PILE_TAKE
from scorekeeper.extensions import SUPPORTED_LANGUAGES
from scorekeeper.handbook.content import QUICK_REFERENCE, SECTION_IDS
from scorekeeper.handbook.params import params
from scorekeeper.rules import variants as variants_module
from scorekeeper.rules.cards import CardPoints
from scorekeeper.rules.variants import (
    PAGAT,
    BookBonus,
    BookCount,
    PilePickup,
    RedThreeScore,
    all_variants,
    get_variant,
)
from scorekeeper.store import catalogue

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database

VARIANT_IDS = [v.id for v in all_variants()]

# The score-entry form links to these sections of /rules/<variant>; they must exist.
FORM_SECTIONS = (
    "card-values",
    "books",
    "wilds",
    "red-threes",
    "going-out",
    "end-of-deal",
    "scoring",
    "first-meld",
)
OWN_SECTIONS = ("setup", "turn", "melds", "threes", "foot", "differences", "quick-reference")


def _numbers(text: str) -> set[int]:
    found = re.findall(r"[\N{MINUS SIGN}-]?\d+", text)
    return {int(n.replace("\N{MINUS SIGN}", "-")) for n in found}


def _first_result(html: str) -> str:
    match = re.search(r'class="result-title" href="([^"]+)"', html)
    assert match, "no result"
    return match.group(1)


@pytest.fixture
def changed_pagat(monkeypatch: pytest.MonkeyPatch):
    """The pagat variant with every number of its quick reference changed."""
    changed = PAGAT.with_changes(
        card_points=CardPoints(joker=45, two=25, ace=35, high=15, low=7, black_three=9),
        book_bonus=BookBonus(clean=555, dirty=333, wild=1234),
        red_three=RedThreeScore(down=111, held=-222),
        going_out_bonus=(175,) * 4,
        first_meld=(55, 95, 125, 165),
        going_out=(
            BookCount(clean=3, dirty=1, wild=0),
            BookCount(clean=3, dirty=1, wild=0),
            BookCount(clean=3, dirty=1, wild=0),
            BookCount(clean=6, dirty=4, wild=2),
        ),
    )
    monkeypatch.setitem(variants_module.BUILT_IN, "pagat", changed)
    return changed


def test_index_lists_every_variant_with_links_to_search_and_compare(client: FlaskClient) -> None:
    html = _page(client, "/rules/")

    for variant_id in VARIANT_IDS:
        assert f'href="/rules/{variant_id}"' in html
    assert 'href="/rules/compare"' in html
    assert 'action="/rules/search"' in html


def test_the_top_bar_links_to_the_rules(client: FlaskClient) -> None:
    html = client.get("/no-such-page").get_data(as_text=True)

    assert 'href="/rules/"' in html


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_variant_page_has_every_section_the_form_and_readers_link_to(
    client: FlaskClient, variant_id: str
) -> None:
    html = _page(client, f"/rules/{variant_id}")

    for section in (*FORM_SECTIONS, *OWN_SECTIONS):
        assert f'id="{section}"' in html, section
    assert set(SECTION_IDS) | {QUICK_REFERENCE} >= set(FORM_SECTIONS) | set(OWN_SECTIONS)


@pytest.mark.parametrize("language", list(SUPPORTED_LANGUAGES))
@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_rules_page_renders_in_every_language(
    client: FlaskClient, variant_id: str, language: str
) -> None:
    html = _page(client, f"/rules/{variant_id}", language)

    assert f'<html lang="{language}">' in html
    assert html.index('id="quick-reference"') < html.index('id="setup"')


@pytest.mark.parametrize("language", list(SUPPORTED_LANGUAGES))
@pytest.mark.parametrize("url", ["/rules/", "/rules/compare", "/rules/search?q=foot"])
def test_index_compare_and_search_render_in_every_language(
    client: FlaskClient, url: str, language: str
) -> None:
    assert f'<html lang="{language}">' in _page(client, url, language)


def test_unknown_variant_is_a_404(client: FlaskClient) -> None:
    assert client.get("/rules/no-such-variant").status_code == 404


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_number_of_the_quick_reference_comes_from_the_variant(
    client: FlaskClient, variant_id: str
) -> None:
    variant = get_variant(variant_id)
    quick = unescape(_text(_section(_page(client, f"/rules/{variant_id}"), "quick-reference")))
    card_points = variant.card_points
    allowed = {
        card_points.joker,
        card_points.two,
        card_points.ace,
        card_points.high,
        card_points.low,
        -card_points.black_three,
        card_points.black_three_melded,
        *(value for value in vars_of(variant.book_bonus) if value is not None),
        variant.red_three.down,
        variant.red_three.held,
        *variant.going_out_bonus,
        *variant.first_meld,
        *(count for books in variant.going_out for _kind, count in books),
        *range(1, 5),  # deal numbers
        variant.hand_size + variant.foot_size,  # the exact cut
        PILE_TAKE,  # the discard-pile line: cards taken, and cards needed to take them
        MATCHING_TO_TAKE,
    }
    if variant.exact_22_bonus is not None:
        allowed.add(variant.exact_22_bonus)
    # Rank names in the card values ("K–8", "7–4") are cards, not figures of the variant.
    figures = _numbers(re.sub(r"\d+\s*–\s*\d+|[A-Z]\s*–\s*\d+", " ", quick))

    assert figures <= allowed, figures - allowed


def vars_of(record) -> list:
    return [getattr(record, name) for name in record.__slots__]


def test_the_quick_reference_follows_a_change_of_the_data(
    client: FlaskClient, changed_pagat
) -> None:
    quick = _text(_section(_page(client, "/rules/pagat"), "quick-reference"))

    for figure in ("45", "25", "35", "15", "7", "−9", "555", "333", "1234", "+111", "−222"):
        assert re.search(rf"(?<![\d+−]){re.escape(figure)}(?!\d)", quick), figure
    for figure in ("+175", "55", "95", "125", "165", "3 clean books", "6 clean books"):
        assert figure in quick, figure
    for old in ("1500", "500", "300", "150", "120"):
        assert not re.search(rf"(?<!\d){old}(?!\d)", quick), old


def test_the_rules_text_follows_a_change_of_the_data(client: FlaskClient, changed_pagat) -> None:
    html = _page(client, "/rules/pagat")

    assert "at least 3 clean books" not in _text(_section(html, "going-out"))
    assert "6 clean books, 4 dirty books, and 2 wild books" in _text(_section(html, "going-out"))
    assert "+111" in _text(_section(html, "red-threes"))
    assert "1234" in _text(_section(html, "books"))


def test_sections_are_chosen_by_parameters_not_by_variant(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        variants_module.BUILT_IN, "pagat", PAGAT.with_changes(pile_pickup=PilePickup.WHOLE_PILE)
    )

    turn = _text(_section(_page(client, "/rules/pagat"), "turn"))

    assert "you take every card in it" in turn
    assert "top 7 cards" not in turn


def test_values_no_source_states_are_marked_as_defaults(client: FlaskClient) -> None:
    saskatchewan = _page(client, "/rules/saskatchewan")
    pagat = _page(client, "/rules/pagat")

    assert "badge-default" in _section(saskatchewan, "quick-reference")
    assert "badge-default" in _section(saskatchewan, "books")
    assert "No source states these values" in saskatchewan
    assert "badge-default" not in pagat


def test_every_page_shows_its_source(client: FlaskClient) -> None:
    for variant in all_variants():
        html = _page(client, f"/rules/{variant.id}")
        assert variant.source.replace("'", "&#39;") in html


def test_differences_name_what_changes_from_the_partnership_game(client: FlaskClient) -> None:
    simpson = _text(_section(_page(client, "/rules/simpson"), "differences"))
    pagat = _text(_section(_page(client, "/rules/pagat"), "differences"))

    assert "Cards in the hand 11 Partnership game: 13" in simpson
    assert "Each red three laid down never laid down Partnership game: +100" in simpson
    assert "exactly as the partnership game" in pagat


def test_comparison_has_a_row_for_every_parameter_and_every_variant(client: FlaskClient) -> None:
    html = _page(client, "/rules/compare")

    for param in params(PAGAT):
        row_id = "param-" + param.key.replace(".", "-").replace("_", "-")
        assert f'id="{row_id}"' in html, param.key
    for variant_id in VARIANT_IDS:
        assert f'name="v" value="{variant_id}"' in html


def test_comparison_reads_the_variant_data(client: FlaskClient, changed_pagat) -> None:
    html = _page(client, "/rules/compare")

    row = re.search(r'<tr id="param-book-bonus-wild">.*?</tr>', html, re.S).group()
    assert "1234" in row
    assert "1500" in row  # gamerules still has the old value


def test_comparison_of_chosen_variants(client: FlaskClient) -> None:
    html = _page(client, "/rules/compare?v=simpson&v=saskatchewan")
    head = re.search(r"<thead>.*?</thead>", html, re.S).group()

    assert "/rules/simpson" in head and "/rules/saskatchewan" in head
    assert "/rules/brouillette-low" not in head


@pytest.mark.parametrize(
    ("language", "query", "section"),
    [
        ("en", "red three", "red-threes"),
        ("en", "pick up the pile", "turn"),
        ("en", "take the pile", "turn"),
        ("en", "discard pile", "turn"),
        ("en", "foot", "foot"),
        ("en", "wild", "wilds"),
        ("en", "does a red three count if it's still in my foot?", "red-threes"),
        ("fr", "trois rouge", "red-threes"),
        ("fr", "ramasser la défausse", "turn"),
        ("fr", "pied", "foot"),
        ("fr", "passe-partout", "wilds"),
        ("it", "tre rossi", "red-threes"),
        ("it", "raccogliere gli scarti", "turn"),
        ("it", "piede", "foot"),
        ("it", "matte", "wilds"),
        ("de", "rote Drei", "red-threes"),
        ("de", "Ablagestapel aufnehmen", "turn"),
        ("de", "Fuß", "foot"),
        ("de", "wilde Karten", "wilds"),
        ("ja", "赤の3", "red-threes"),
        ("ja", "捨て札の山を取る", "turn"),
        ("ja", "フット", "foot"),
        ("ja", "ワイルドカード", "wilds"),
    ],
)
def test_search_finds_the_section_in_every_language(
    client: FlaskClient, language: str, query: str, section: str
) -> None:
    html = _page(client, f"/rules/search?q={query}", language)

    assert re.fullmatch(rf"/rules/[a-z-]+#{section}", _first_result(html)), _first_result(html)


def test_search_within_one_variant_links_to_that_variant(client: FlaskClient) -> None:
    html = _page(client, "/rules/search?q=red+three&variant=simpson")

    links = re.findall(r'href="(/rules/[a-z-]+)#', html)
    assert links and set(links) == {"/rules/simpson"}
    assert _first_result(html) == "/rules/simpson#red-threes"


def test_search_marks_the_words_found(client: FlaskClient) -> None:
    html = _page(client, "/rules/search?q=foot&variant=pagat")

    assert "<mark>foot</mark>" in html


def test_search_in_another_language_is_found_there(client: FlaskClient) -> None:
    html = _page(client, "/rules/search?q=piede", "en")

    assert 'lang="it"' in html
    assert re.fullmatch(r"/rules/[a-z-]+#foot", _first_result(html))


def test_search_with_nothing_found_says_so(client: FlaskClient) -> None:
    html = _page(client, "/rules/search?q=xylophone")

    assert "Nothing in the rules matches" in html
    assert "result-title" not in html


def test_empty_search_offers_the_usual_questions(client: FlaskClient) -> None:
    html = _page(client, "/rules/search")

    assert "result-title" not in html
    assert "/rules/search?q=red+three" in html


def test_a_house_variant_gets_its_own_rules_page(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    house = PAGAT.with_changes(
        id="house-our-table",
        name="Our table",
        summary="Wild books are worth 2000 at our table.",
        source="House rules based on the partnership game.",
        book_bonus=BookBonus(clean=500, dirty=300, wild=2000),
    )
    monkeypatch.setattr(catalogue, "house_variants", lambda: (house,))

    page = _page(client, "/rules/house-our-table", "fr")
    compare = _page(client, "/rules/compare?v=pagat&v=house-our-table")
    found = _page(client, "/rules/search?q=wild+book&variant=house-our-table")

    assert "Our table" in page and "2000" in _section(page, "quick-reference")
    assert "2000" in _text(_section(page, "differences"))
    assert 'href="/rules/house-our-table"' in compare
    assert _first_result(found).startswith("/rules/house-our-table#")
