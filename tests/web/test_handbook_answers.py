"""The rules pages state the corrected facts, and search answers the questions asked mid-game."""

import re

import pytest
from flask.testing import FlaskClient
from game_helpers import start_game
from handbook_helpers import page as _page
from handbook_helpers import section as _section
from handbook_helpers import text as _text

from scorekeeper.extensions import SUPPORTED_LANGUAGES


def _row(html: str, key: str) -> str:
    match = re.search(rf'<tr id="param-{key}">.*?</tr>', html, re.S)
    assert match, key
    return match.group()


def _results(html: str) -> list[str]:
    return re.findall(r'class="result-title" href="([^"]+)"', html)


@pytest.mark.parametrize(
    "ids",
    [
        ("pagat", "gamerules", "saskatchewan"),
        ("simpson", "brouillette-low", "brouillette-partners-high"),
    ],
)
@pytest.mark.no_database
def test_the_comparison_says_what_the_pages_say(client: FlaskClient, ids) -> None:
    html = _page(client, "/rules/compare?" + "&".join(f"v={i}" for i in ids))

    pair = _text(_row(html, "black-three-pair-takes-pile"))
    assert "yes" not in pair and pair.count("no") == 3
    black = _text(_row(html, "card-points-black-three"))
    assert black.count("\N{MINUS SIGN}5") == 3


@pytest.mark.no_database
def test_the_comparison_marks_no_default_on_a_dash(client: FlaskClient) -> None:
    html = _page(client, "/rules/compare?v=saskatchewan&v=pagat")

    row = _row(html, "book-bonus-black-three")
    assert "\N{EM DASH}" in row and "badge-default" not in row
    assert "badge-default" in _row(html, "book-bonus-clean")  # saskatchewan's 500 is a default


@pytest.mark.no_database
def test_the_comparison_says_frozen_piles_go_back_under_the_stock(client: FlaskClient) -> None:
    html = _page(client, "/rules/compare?v=pagat&v=brouillette-low")

    row = _text(_row(html, "stock-end"))
    assert "the frozen piles are shuffled and put under it" in row
    assert "the deal ends, and nobody scores the going-out bonus" in row


@pytest.mark.no_database
def test_the_comparison_shows_at_most_three_variants(client: FlaskClient) -> None:
    four = "v=pagat&v=simpson&v=saskatchewan&v=gamerules"
    html = _page(client, f"/rules/compare?{four}")
    head = re.search(r"<thead>.*?</thead>", html, re.S).group()

    assert len(re.findall(r'href="/rules/[a-z-]+"', head)) == 3
    assert "At most 3 variants fit side by side" in html
    default = re.search(r"<thead>.*?</thead>", _page(client, "/rules/compare"), re.S).group()
    assert len(re.findall(r'href="/rules/[a-z-]+"', default)) == 3


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.no_database
def test_brouillettes_partner_game_is_not_called_the_partnership_game(
    client: FlaskClient, language: str
) -> None:
    summaries = {
        "en": "Brouillette's partner version of Simpson's game",
        "fr": "La version en équipes de Brouillette du jeu de Simpson",
        "it": "La versione a coppie di Brouillette del gioco di Simpson",
        "de": "Brouillettes Partnerversion von Simpsons Spiel",
        "ja": "シンプソン版をもとにしたブルイエットのパートナー戦",
    }
    html = _text(_page(client, "/rules/brouillette-partners-high", language))

    assert summaries[language] in html


@pytest.mark.no_database
def test_pagats_page_says_where_its_values_come_from(client: FlaskClient) -> None:
    html = _text(_page(client, "/rules/pagat"))

    assert "(500 clean, 300 dirty, 1500 wild) and the going-out bonus (100) come from" in html
    assert "(seeds 001, 002 and 004)" in html


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "you may take the pile only when the top card and cards from your hand"),
        ("fr", "vous ne pouvez prendre la défausse que si la carte du dessus"),
    ],
)
@pytest.mark.no_database
def test_the_pile_with_an_unfinished_meld_of_its_rank(
    client: FlaskClient, language: str, text: str
) -> None:
    turn = _text(_section(_page(client, "/rules/pagat", language), "turn"))

    assert text in turn
    assert "red three among the cards taken from the pile" in _text(
        _section(_page(client, "/rules/pagat"), "turn")
    )


@pytest.mark.parametrize("variant_id", ["pagat", "saskatchewan", "simpson", "brouillette-low"])
@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "Discard pile"),
        ("fr", "Défausse"),
        ("it", "Scarti"),
        ("de", "Ablagestapel"),
        ("ja", "捨て札の山"),
    ],
)
@pytest.mark.no_database
def test_every_quick_reference_has_a_discard_pile_line(
    client: FlaskClient, variant_id: str, language: str, title: str
) -> None:
    quick = _section(_page(client, f"/rules/{variant_id}", language), "quick-reference")

    assert f'<a href="#turn">{title}</a>' in quick


@pytest.mark.no_database
def test_the_quick_reference_says_the_partner_plays_from_the_foot(client: FlaskClient) -> None:
    quick = _text(_section(_page(client, "/rules/pagat"), "quick-reference"))

    assert "Partner must have played part of a turn from their foot" in quick
    assert "You take the top 7 cards, or the whole pile if fewer" in quick


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "“May I go out?” is the only question allowed."),
        ("fr", "« Puis-je sortir ? » est la seule question permise."),
    ],
)
@pytest.mark.no_database
def test_brouillettes_partners_allow_no_table_talk(
    client: FlaskClient, language: str, text: str
) -> None:
    going = _text(_section(_page(client, "/rules/brouillette-partners-low", language), "going-out"))
    pagat = _text(_section(_page(client, "/rules/pagat", language), "going-out"))

    assert text in going and text not in pagat


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "it is a clean book: it counts toward the clean books needed to go out"),
        ("it", "è una canasta pulita: conta tra le canaste pulite richieste per chiudere"),
    ],
)
@pytest.mark.no_database
def test_a_black_three_book_counts_as_clean_on_brouillettes_page(
    client: FlaskClient, language: str, text: str
) -> None:
    going = _text(_section(_page(client, "/rules/brouillette-high", language), "going-out"))

    assert text in going


@pytest.mark.no_database
def test_simpsons_page_speaks_of_no_side(client: FlaskClient) -> None:
    html = _page(client, "/rules/simpson")
    for section in ("turn", "going-out", "first-meld", "foot", "melds", "books", "scoring"):
        text = _text(_section(html, section))
        assert "your side" not in text and "side's" not in text, section
    assert "add cards to the ones you already have" in _text(_section(html, "turn"))


@pytest.mark.parametrize(("language", "team"), [("it", "squadra"), ("ja", "チーム")])
@pytest.mark.no_database
def test_solo_games_speak_of_no_team_where_they_go_out(
    client: FlaskClient, language: str, team: str
) -> None:
    html = _page(client, "/rules/simpson", language)

    for section in ("going-out", "first-meld", "foot", "books", "scoring", "end-of-deal"):
        assert team not in _text(_section(html, section)), section


@pytest.mark.no_database
def test_what_simpsons_source_leaves_unsaid_is_marked_as_a_default(client: FlaskClient) -> None:
    html = _page(client, "/rules/simpson")
    turn = _section(html, "turn")

    assert "The table agrees who plays first" in _text(turn)
    assert "dealer" not in _text(turn)
    first = re.search(r"<p>The table agrees.*?</p>", turn, re.S).group()
    assert "badge-default" in first
    assert "badge-default" in _section(html, "end-of-deal")
    assert "badge-default" not in _section(_page(client, "/rules/pagat"), "end-of-deal")


@pytest.mark.parametrize(
    ("language", "query", "first_result", "answer"),
    [
        ("en", "red three worth", "/rules/pagat#red-threes", "+100"),
        ("en", "how much is a red three worth", "/rules/pagat#red-threes", "+100"),
        ("en", "concealed canasta", "/rules/saskatchewan#first-meld", "concealed book"),
        ("en", "can I pick up the pile?", "/rules/pagat#turn", "top 7 cards"),
        ("en", "how many books to go out", "#going-out", "books"),
        ("fr", "combien de canastas pour sortir", "#going-out", "canasta"),
        ("fr", "quand la pioche est vide", "#end-of-deal", "La pioche est vide"),
        ("fr", "combien vaut un trois rouge", "/rules/pagat#red-threes", "+100"),
        ("fr", "ramasser la défausse", "#turn", "défausse"),
    ],
)
@pytest.mark.no_database
def test_search_answers_questions_asked_at_the_table(
    client: FlaskClient, language: str, query: str, first_result: str, answer: str
) -> None:
    html = _page(client, f"/rules/search?q={query}", language)
    first = re.search(r'<li>\s*<a class="result-title".*?</li>', html, re.S).group()

    assert _results(html)[0].endswith(first_result), _results(html)
    assert answer in _text(first)


@pytest.mark.parametrize(
    ("language", "query", "answer"),
    [
        ("en", "how many books to go out", "deal 4: 2 clean books and 2 dirty books"),
        ("fr", "combien de canastas pour sortir", "donne 4 : 2 canastas propres et 2 canastas"),
    ],
)
@pytest.mark.no_database
def test_a_count_question_from_brouillette_answers_with_each_deals_books(
    client: FlaskClient, language: str, query: str, answer: str
) -> None:
    html = _page(client, f"/rules/search?q={query}&first=brouillette-low", language)
    first = re.search(r'<li>\s*<a class="result-title".*?</li>', html, re.S).group()

    assert _results(html)[0] == "/rules/brouillette-low#going-out"
    assert answer in _text(first)


@pytest.mark.no_database
def test_red_three_values_come_back_one_answer_per_value(client: FlaskClient) -> None:
    html = _page(client, "/rules/search?q=red+three+worth")
    answers = [
        _text(li) for li in re.findall(r"<li>\s*<a class=\"result-title\".*?</li>", html, re.S)
    ]

    assert "+100" in answers[0] and "\N{MINUS SIGN}100" in answers[0]
    assert "\N{MINUS SIGN}500" in answers[1] and _results(html)[1] == "/rules/simpson#red-threes"


@pytest.mark.parametrize(
    ("language", "query"), [("en", "red three worth"), ("fr", "combien de canastas pour sortir")]
)
@pytest.mark.no_database
def test_search_from_a_variant_ranks_that_variant_first(
    client: FlaskClient, language: str, query: str
) -> None:
    html = _page(client, f"/rules/search?q={query}&first=simpson", language)

    assert _results(html)[0].startswith("/rules/simpson#")
    assert any(not link.startswith("/rules/simpson#") for link in _results(html))


@pytest.mark.no_database
def test_a_rules_page_searches_with_its_variant_first(client: FlaskClient) -> None:
    html = _page(client, "/rules/brouillette-low")

    assert '<input type="hidden" name="first" value="brouillette-low">' in html


def test_from_a_game_the_rules_link_opens_that_games_rules(app, client: FlaskClient) -> None:
    links = start_game(app, client, variant="simpson", table="4x4")

    for path in (f"{links.edit_path}/deals/1", links.view_path):
        html = _page(client, path)
        nav = re.search(r'<nav class="topnav".*?</nav>', html, re.S).group()
        assert 'href="/rules/simpson?from=/g/' in nav, path  # the way back to the game
    assert (
        'href="/rules/"'
        in re.search(r'<nav class="topnav".*?</nav>', _page(client, "/"), re.S).group()
    )


@pytest.mark.parametrize(("language", "query"), [("en", "red three"), ("fr", "trois rouge")])
@pytest.mark.no_database
def test_red_three_answers_with_each_variants_score(
    client: FlaskClient, language: str, query: str
) -> None:
    everywhere = _page(client, f"/rules/search?q={query}", language)
    from_simpson = _page(client, f"/rules/search?q={query}&first=simpson", language)

    assert _results(everywhere)[:2] == ["/rules/pagat#red-threes", "/rules/simpson#red-threes"]
    first, second = re.findall(r'<li>\s*<a class="result-title".*?</li>', everywhere, re.S)[:2]
    assert "+100" in _text(first) and "\N{MINUS SIGN}500" in _text(second)
    assert _results(from_simpson)[0] == "/rules/simpson#red-threes"
    assert "/rules/pagat#red-threes" in _results(from_simpson)
