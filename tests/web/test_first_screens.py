"""What a table needs first on each page: the names on the new-game form (the rules folded under
the current choice), the view link to share on deal 1 of a new game, the sheet to print beside
the winner, and the way back from a rules page to the game it was opened from."""

from __future__ import annotations

import re

import pytest
from flask import url_for
from game_helpers import save, start_game

from scorekeeper.operations.redact import redact


def _position(page: str, needle: str) -> int:
    found = page.find(needle)
    assert found >= 0, needle
    return found


@pytest.mark.no_database
def test_the_new_game_form_asks_for_the_names_before_the_rules(client):
    page = client.get("/games/new").get_data(as_text=True)

    first_name = _position(page, 'name="side_names-0"')
    rules = _position(page, '<details class="rules-choice"')
    first_variant = _position(page, 'name="variant"')
    assert first_name < rules < first_variant
    summary = re.search(r"<summary>(.*?)</summary>", page[rules:], re.S)
    assert summary is not None
    assert "Partnership (pagat.com)" in summary.group(1)
    assert "The common four-player partnership game" in summary.group(1)
    assert "Other rules" in summary.group(1)
    assert '<details class="rules-choice">' in page  # folded


@pytest.mark.no_database
def test_the_folded_rules_show_the_choice_the_address_or_a_reload_made(client):
    page = client.get("/games/new?variant=simpson").get_data(as_text=True)

    summary = re.search(r'<details class="rules-choice">\s*<summary>(.*?)</summary>', page, re.S)
    assert summary is not None
    assert "Steve Simpson" in summary.group(1) and "cut 22 cards" in summary.group(1)


def test_a_refused_rules_choice_is_shown_open_with_its_message(client):
    response = client.post(
        "/games/new", data={"variant": "no-such-rules", "table": "2x4", "start": "1"}
    )

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert '<details class="rules-choice" open>' in page
    rules = page[_position(page, '<details class="rules-choice"') :]
    assert 'class="field-error"' in rules[: rules.index("</details>")]


def test_deal_1_of_a_new_game_offers_its_view_link_before_the_form(app, client):
    game = start_game(app, client)

    page = client.get(f"{game.edit_path}/deals/1").get_data(as_text=True)

    view_url = f"http://localhost/g/{game.view}"
    prompt = _position(page, '<details class="share share-prompt">')
    assert prompt < _position(page, 'id="deal-form"')
    assert f'id="view-link" class="link-field" type="text" readonly value="{view_url}"' in page
    assert f'src="/g/{game.view}/qr.svg"' in page
    assert 'data-share-for="view-link"' in page
    assert "<summary>Share this game</summary>" in page
    assert '<label for="view-link">Let the others follow the score</label>' in page
    assert f'value="{game.edit}"' not in page  # the edit link is never offered here


def test_the_share_prompt_leaves_once_a_deal_is_saved(app, client):
    game = start_game(app, client)
    assert save(client, game, 1, 0).status_code == 303

    edit_1 = client.get(f"{game.edit_path}/deals/1").get_data(as_text=True)
    deal_2 = client.get(f"{game.edit_path}/deals/2").get_data(as_text=True)

    assert "share-prompt" not in edit_1 and "share-prompt" not in deal_2


def _finish(app, client, game) -> None:
    for number in range(1, 5):
        assert save(client, game, number, 0).status_code == 303


def test_a_finished_game_offers_its_sheet_beside_the_winner(app, client):
    game = start_game(app, client)
    _finish(app, client, game)

    page = client.get(game.edit_path).get_data(as_text=True)

    sheet = f'href="{game.edit_path}/sheet"'
    winner = _position(page, 'class="result result-final"')
    assert _position(page, sheet) > winner
    assert _position(page, sheet) < _position(page, 'class="big-totals"')
    assert page.count(sheet) == 1


def test_a_game_in_progress_keeps_its_sheet_at_the_foot(app, client):
    game = start_game(app, client)
    save(client, game, 1, 0)

    page = client.get(game.edit_path).get_data(as_text=True)

    sheet = _position(page, f'href="{game.edit_path}/sheet"')
    assert sheet > _position(page, 'id="share"')


def test_a_games_rules_link_says_which_game_it_came_from(app, client):
    game = start_game(app, client)

    for path in (game.edit_path, f"{game.edit_path}/deals/1", game.view_path):
        page = client.get(path).get_data(as_text=True)
        link = re.search(r'<a href="([^"]*)"[^>]*>Rules</a>', page)
        assert link is not None
        assert link.group(1).startswith("/rules/pagat?from=/g/"), link.group(1)


def test_a_rules_page_opened_from_a_game_leads_back_to_it(app, client):
    game = start_game(app, client)
    link = f"/rules/pagat?from={game.edit_path}"

    page = client.get(link).get_data(as_text=True)

    back = _position(page, f'<a class="button secondary" href="{game.edit_path}">Back to the game')
    search = _position(page, 'id="rules-q"')
    assert back < search < _position(page, 'id="quick-reference"')
    assert f'<input type="hidden" name="from" value="{game.edit_path}">' in page


def test_the_search_from_a_games_rules_page_leads_back_to_the_game_too(app, client):
    game = start_game(app, client)

    page = client.get(f"/rules/search?q=red+three&first=pagat&from={game.view_path}").get_data(
        as_text=True
    )

    assert f'href="{game.view_path}">Back to the game' in page
    assert f'<input type="hidden" name="from" value="{game.view_path}">' in page


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/g/" + "a" * 43,
        "//evil.example/g/" + "a" * 43,
        "/games/new",
        "/g/short",
        "/g/" + "a" * 43 + "/../../house",
        "/g/" + "a" * 43 + '"><script>alert(1)</script>',
        "javascript:alert(1)",
    ],
)
@pytest.mark.no_database
def test_a_rules_page_links_back_only_to_a_games_own_page(client, target):
    page = client.get("/rules/pagat", query_string={"from": target}).get_data(as_text=True)

    assert "Back to the game" not in page
    assert 'name="from"' not in page
    assert "<script>alert(1)" not in page


def test_the_token_in_a_rules_address_is_kept_out_of_the_logs(app, client):
    game = start_game(app, client)
    with app.test_request_context():
        link = url_for("handbook.variant", variant_id="pagat", **{"from": game.edit_path})

    assert link == f"/rules/pagat?from={game.edit_path}"
    assert redact(f'"GET {link} HTTP/1.1" 200') == '"GET /rules/pagat?from=/g/[token] HTTP/1.1" 200'
