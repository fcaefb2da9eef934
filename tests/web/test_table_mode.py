"""At the table: who deals and who plays first on the game's pages, the large-type switch and
the Share button's markup (their behaviour in a browser:
tests/browser/test_table_mode_on_a_phone.py)."""

from __future__ import annotations

import re
from html import unescape

from game_helpers import save, start_game


def _turn(page: str) -> dict[str, str]:
    """The turn box of a page: its title, dealer, first player and note, as text."""
    box = re.search(
        r'<div class="turn[^"]*" data-turn="(\d+)">(.*?)</div>\s*</dl>(.*?)</div>', page, re.S
    )
    assert box, "no turn on the page"
    title = re.search(r'<p class="turn-title">(.*?)</p>', box.group(2), re.S)
    text = {"deal": box.group(1), "title": title.group(1) if title else ""}
    for label, value in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page):
        text[label] = value
    note = re.search(r'<p class="hint turn-note">(.*?)</p>', box.group(3), re.S)
    text["note"] = note.group(1) if note else ""
    return {key: unescape(value) for key, value in text.items()}


def test_a_new_partnership_game_names_the_first_dealing_team_as_a_default(app, client):
    game = start_game(app, client)

    turn = _turn(client.get(game.view_path).get_data(as_text=True))

    assert turn["deal"] == "1"
    assert turn["title"] == "Next: deal 1"
    assert turn["Dealer"] == "a player of Us"
    assert turn["Plays first"] == "the player of Them on the dealer's left"
    assert turn["note"] == (
        "The deal passes to the left after each deal, so the teams take turns. Who deals "
        "first is up to the table: by default a player of Us deals the first deal. A table "
        "may agree otherwise."
    )


def test_after_a_deal_the_deal_passes_to_the_other_team(app, client):
    game = start_game(app, client)
    assert save(client, game, 1, 0).status_code == 303

    turn = _turn(client.get(game.view_path).get_data(as_text=True))

    assert (turn["title"], turn["Dealer"]) == ("Next: deal 2", "a player of Them")
    assert turn["Plays first"] == "the player of Us on the dealer's left"


def test_three_players_deal_in_the_order_their_names_were_entered(app, client):
    game = start_game(
        app,
        client,
        table="3x3",
        **{"side_names-0": "Ann", "side_names-1": "Bob", "side_names-2": "Cy"},
    )

    page = client.get(f"{game.edit_path}/deals/3").get_data(as_text=True)
    turn = _turn(page)

    assert turn["title"] == ""  # the deal form keeps it to one line
    assert (turn["Dealer"], turn["Plays first"]) == ("Cy", "Ann, on the dealer's left")
    assert turn["note"] == ""
    assert _turn(client.get(game.view_path).get_data(as_text=True))["note"] == (
        "The deal passes to the left after each deal. Who deals first is up to the table: by "
        "default Ann deals the first deal, and the seats follow the order the names were "
        "entered, going left. A table may agree otherwise."
    )


def test_where_everyone_cuts_there_is_no_dealer_and_the_first_player_is_a_default(app, client):
    game = start_game(
        app,
        client,
        variant="simpson",
        table="3x3",
        **{"side_names-0": "Ann", "side_names-1": "Bob", "side_names-2": "Cy"},
    )

    turn = _turn(client.get(game.view_path).get_data(as_text=True))

    assert turn["Dealer"] == "nobody: every player cuts their own cards"
    assert turn["Plays first"] == "Ann"
    assert turn["note"] == (
        "The rules do not say who plays first. By default Ann starts the first deal, then "
        "the start passes to the left, in the order the names were entered. A table may "
        "agree otherwise."
    )
    assert (
        _turn(client.get(f"{game.edit_path}/deals/2").get_data(as_text=True))["Plays first"]
        == "Bob"
    )


def test_names_in_the_turn_are_escaped(app, client):
    game = start_game(app, client, **{"side_names-0": "<b>Al & Di</b>"})

    page = client.get(game.view_path).get_data(as_text=True)

    assert "a player of &lt;b&gt;Al &amp; Di&lt;/b&gt;" in page
    assert "<b>Al" not in page


def test_the_turn_speaks_the_pages_language(app, client):
    game = start_game(app, client)
    client.set_cookie("lang", "fr")

    turn = _turn(client.get(game.view_path).get_data(as_text=True))

    assert turn["title"] == "Ensuite : donne 1"
    assert turn["Donneur"] == "un joueur du camp Us"
    assert turn["Joue en premier"] == "le joueur du camp Them à gauche du donneur"


def test_a_finished_game_shows_no_next_deal(app, client):
    game = start_game(app, client)
    for number in range(1, 5):
        assert save(client, game, number, 0).status_code == 303

    page = client.get(game.view_path).get_data(as_text=True)

    assert 'class="turn"' not in page


def test_the_scoreboard_offers_large_type_and_a_share_button_once_scripts_run(app, client):
    game = start_game(app, client)

    page = client.get(game.view_path).get_data(as_text=True)
    view_url = f"http://localhost/g/{game.view}"

    assert re.search(
        r'<button type="button" class="secondary" id="large-totals" '
        r'aria-pressed="false" aria-controls="totals" hidden>Large type</button>',
        page,
    )
    share = re.search(r"<button [^>]*id=\"share-view-link\"[^>]*>Share</button>", page).group(0)
    assert 'data-share-for="view-link"' in share
    assert 'data-copied="Link copied."' in share
    assert " hidden>" in share  # shown by the script, which alone can share or copy
    assert f'id="view-link" class="link-field" type="text" readonly value="{view_url}"' in page
    big = r'<span class="big-name">(.*?)</span> <span class="big-total">(.*?)</span>'
    assert re.findall(big, page) == [("Us", "0"), ("Them", "0")]
    assert "js/table-mode.js" in page
