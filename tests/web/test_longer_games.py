"""Games of 5, 8 and 10 deals, games played to a target score, going-out bonuses by deal and
first melds by running score, played through the deal form, printed and scored by the API as a
table would."""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest
from flask.testing import FlaskClient
from house_helpers import edit_house_rules, html, make_house_rules, text
from house_helpers import form_values as house_form
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT, form_values
from test_sheets import pdf_pages

from scorekeeper.rules.entry import SIDE_FIELDS

DEAL = form_values(PAGAT_OUT, PAGAT_CAUGHT)
# 1210 + 2 x 500 + 2 x 300 + 1500 + 2 x 100 + 100 - 15, and 600 + 500 + 300 + 100 - 100 - 120
DEAL_TOTALS = (4595, 1280)


def start_game(client: FlaskClient, variant: str) -> str:
    """A two-team game started through the form; the address of its scoreboard."""
    response = client.post(
        "/games/new",
        data={
            "variant": variant,
            "table": "2x4",
            "name": "",
            "start": "1",
            "side_names-0": "Us",
            "side_names-1": "Them",
        },
    )
    assert response.status_code == 303, text(response)
    return response.headers["Location"].removesuffix("/deals/1")


def enter(client: FlaskClient, game: str, number: int, data: dict[str, str] = DEAL) -> None:
    response = client.post(f"{game}/deals/{number}", data=data)
    assert response.status_code == 303, text(response)


@pytest.mark.parametrize("deals", [5, 8, 10])
def test_a_house_game_of_more_deals_is_entered_to_its_end(client, deals):
    slug = make_house_rules(client, name=f"{deals} deals", deals=deals)
    game = start_game(client, f"house-{slug.removeprefix('house-')}")

    for number in range(1, deals):
        enter(client, game, number)
    before_last = text(client.get(game))
    enter(client, game, deals)
    board = text(client.get(game))

    assert f"Enter deal {deals}" in before_last
    assert "won with" not in before_last
    assert f"Us won with {deals * DEAL_TOTALS[0]:,} points." in board
    assert "Enter deal" not in board
    assert client.get(f"{game}/deals/{deals + 1}").status_code == 404
    assert f'data-deals="{deals}"' in client.get(game).get_data(as_text=True)  # kept offline
    assert client.post(f"{game}/deals/{deals + 1}", data=DEAL).status_code == 404


def test_the_game_list_counts_the_deals_of_the_games_rules(client):
    make_house_rules(client, name="Five deals", deals=5)
    game = start_game(client, "house-five-deals")
    enter(client, game, 1)

    assert "Deal 2 of 5 is next." in text(client.get("/"))


def test_the_sheet_of_a_five_deal_game_has_five_deal_rows_on_one_page(client):
    make_house_rules(client, name="Five deals", deals=5)
    game = start_game(client, "house-five-deals")
    for number in range(1, 6):
        enter(client, game, number)
    pdf = client.get(f"{game}/sheet.pdf")

    pages = pdf_pages(pdf.data)

    assert len(pages) == 1
    deals = re.findall(r"^Deal (\d)$", pages[0], flags=re.MULTILINE)
    assert deals == ["1", "2", "3", "4", "5"]
    assert pages[0].count("Running total") == 5
    assert f"Running total {5 * DEAL_TOTALS[0]:,} {5 * DEAL_TOTALS[1]:,}" in pages[0]
    assert f"Winner: Us with {5 * DEAL_TOTALS[0]:,}" in pages[0]


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_the_blank_sheet_of_five_deals_with_three_more_lines_fits_one_page(client, size):
    make_house_rules(
        client,
        name="Five long deals",
        deals=5,
        book_bonus__special_rank="7",
        book_bonus__special=1000,
        book_bonus__red_three=500,
        going_out_concealed_bonus=200,
    )

    pdf = client.get(f"/sheets/house-five-long-deals.pdf?size={size}&sides=2")

    (page,) = pdf_pages(pdf.data)
    assert re.findall(r"^Deal (\d)$", page, flags=re.MULTILINE) == ["1", "2", "3", "4", "5"]
    assert page.count("Went out concealed") == 5 and page.count("Running total") == 5


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_the_blank_sheet_of_an_eight_deal_game_fits_one_page(client, size):
    make_house_rules(client, name="Eight deals", deals=8)

    pdf = client.get(f"/sheets/house-eight-deals.pdf?size={size}&sides=2")

    assert pdf.status_code == 200, pdf.get_data(as_text=True)[:300]
    pages = pdf_pages(pdf.data)
    assert len(pages) == 1
    assert re.findall(r"^Deal (\d)$", pages[0], flags=re.MULTILINE) == [str(n) for n in range(1, 9)]


def test_the_going_out_bonus_of_each_deal_reaches_the_scoreboard_and_the_sheet(client):
    make_house_rules(
        client,
        name="Rising bonus",
        **{f"going_out_bonus__{deal}": deal * 100 for deal in range(1, 5)},
    )
    game = start_game(client, "house-rising-bonus")
    form = text(client.get(f"{game}/deals/3"))
    for number in range(1, 5):
        enter(client, game, number)

    board = text(client.get(game))
    sheet = pdf_pages(client.get(f"{game}/sheet.pdf").data)

    assert "Going out scores 300 in this deal." in form
    # 4495 a deal before the bonus: 4 x 4495 + 100 + 200 + 300 + 400
    assert f"Us won with {4 * 4495 + 1000:,} points." in board
    for deal, bonus in enumerate((100, 200, 300, 400), start=1):
        block = sheet[0].split(f"Deal {deal}\n", 1)[1].split("Running total", 1)[0]
        assert f"Going out +{bonus}" in block


BY_SCORE = {
    "by_score__from__0": 0,
    "by_score__minimum__0": 50,
    "by_score__from__1": 1500,
    "by_score__minimum__1": 90,
    "by_score__from__2": 3000,
    "by_score__minimum__2": 120,
}
OPENED = {
    **form_values(PAGAT_OUT, PAGAT_CAUGHT),
    "sides-1-meld_points": "85",
    "sides-1-clean_books": "0",
    "sides-1-dirty_books": "0",
    "sides-1-red_threes_down": "0",
    "sides-1-red_threes_held": "0",
    "sides-1-cards_left_points": "200",
}


def test_the_deal_form_checks_the_first_meld_against_the_running_score(client):
    make_house_rules(client, name="By score", **BY_SCORE)
    game = start_game(client, "house-by-score")
    # Us: 9190 after two deals; Them: 2560, between 1500 and 3000.
    enter(client, game, 1)
    enter(client, game, 2)
    form = text(client.get(f"{game}/deals/3"))

    refused = client.post(f"{game}/deals/3", data=OPENED)
    preview = client.post(f"{game}/deals/3/preview", data=OPENED).get_json()

    assert "First meld, by the score before this deal: Us 120 and Them 90 points" in form
    message = (
        "Them: 85 melded card points is below the first meld of a side at 2560 points, "
        "which alone must reach 90."
    )
    assert refused.status_code == 422
    assert message in text(refused)
    assert message in [error["message"] for error in preview["errors"]]
    ninety = {**OPENED, "sides-1-meld_points": "90"}
    enter(client, game, 3, ninety)


def api_deal(variant: object, deal: int, **more: object) -> dict[str, object]:
    sides = [
        {name: getattr(side, name) for name in SIDE_FIELDS if getattr(side, name)}
        for side in (PAGAT_OUT, PAGAT_CAUGHT)
    ]
    return {"variant": variant, "deal": deal, "sides": sides, **more}


FIVE_DEALS = {"based_on": "pagat", "name": "Five deals", "changes": {"deals": 5}}


def test_the_api_scores_deal_5_of_a_five_deal_game_and_refuses_deal_6(client):
    scored = client.post("/api/v1/score", json=api_deal(FIVE_DEALS, 5))
    refused = client.post("/api/v1/score", json=api_deal(FIVE_DEALS, 6))

    assert scored.status_code == 200, scored.get_json()
    assert [side["total"] for side in scored.get_json()["sides"]] == list(DEAL_TOTALS)
    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [
        {"side": None, "field": "deal", "message": "The deal must be a number from 1 to 5, not 6."}
    ]


def test_the_api_checks_a_first_meld_against_the_running_scores_given(client):
    variant = {
        "based_on": "pagat",
        "name": "By score",
        "changes": {
            "first_meld_by_score": [
                {"from_score": 0, "minimum": 50},
                {"from_score": 1500, "minimum": 90},
                {"from_score": 3000, "minimum": 120},
            ]
        },
    }
    opened = api_deal(variant, 2, running_scores=[0, 1600])
    opened["sides"][1] = {"meld_points": 85, "cards_left_points": 200}  # type: ignore[index]

    refused = client.post("/api/v1/score", json=opened)
    unknown = client.post("/api/v1/score", json={**opened, "running_scores": None})
    wrong = client.post("/api/v1/score", json={**opened, "running_scores": [0, "a"]})

    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["message"] == (
        "Side 2: 85 melded card points is below the first meld of a side at 1600 points, "
        "which alone must reach 90."
    )
    assert unknown.status_code == 200  # no scores: the smallest minimum, 50
    assert wrong.status_code == 422
    assert wrong.get_json()["errors"][0]["field"] == "running_scores"


def test_the_meld_checker_refuses_a_deal_past_the_games_last(client):
    answer = client.post(
        "/api/v1/check-meld",
        json={"variant": "pagat", "deal": 5, "rank": "K", "naturals": 3},
    )

    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["message"] == (
        "The deal must be a number from 1 to 4, not 5."
    )


def test_the_rules_pages_of_a_five_deal_game_give_every_deals_first_meld(client):
    slug = make_house_rules(client, name="Five deals", deals=5)
    edited = edit_house_rules(
        client,
        slug,
        first_meld__5=200,
        **{f"going_out_bonus__{deal}": deal * 100 for deal in range(1, 6)},
    )
    assert edited.status_code == 303, text(edited)

    page = unescape(text(client.get("/rules/house-five-deals")))

    assert "A game is 5 deals." in page
    assert "After deal 5, the side with the highest total wins the game." in page
    quick = page.split("Minimum", 1)[1].split("Minimum", 1)[0]
    assert "50 90 120 150 200" in quick
    assert "+100 / +200 / +300 / +400 / +500 for the side that went out" in page


def test_the_rules_pages_show_the_first_meld_by_running_score(client):
    make_house_rules(client, name="By score", **BY_SCORE)

    page = unescape(text(client.get("/rules/house-by-score")))

    assert "set by your side's total before the deal" in page
    assert "Score before the deal from 0 from 1500 from 3000 Minimum 50 90 120" in page
    assert "Score before the deal Minimum from 0 50 from 1500 90 from 3000 120" in page


def test_the_sheet_of_rules_by_running_score_prints_the_thresholds(client):
    make_house_rules(client, name="By score", **BY_SCORE)

    pages = pdf_pages(client.get("/sheets/house-by-score.pdf?sides=2").data)

    assert (
        "First meld: By the side's score before the deal: from 0: 50 · from 1,500: 90 · "
        "from 3,000: 120." in pages[0].replace("\n", " ")
    )
    assert "FIRST MELD\nby score" in pages[0]


def test_a_five_deal_game_goes_out_in_a_file_and_comes_back_and_a_sixth_deal_is_refused(client):
    make_house_rules(client, name="Five deals", deals=5)
    game = start_game(client, "house-five-deals")
    for number in range(1, 6):
        enter(client, game, number)
    document = client.get(f"{game}/export.json").get_json()
    six = copy.deepcopy(document)
    six["games"][0]["deals"].append({**six["games"][0]["deals"][-1], "number": 6})
    past = copy.deepcopy(document)
    past["games"][0]["deals"][-1]["number"] = 6

    imported = client.post("/api/v1/games", json=document)
    too_many = client.post("/api/v1/games", json=six)
    sixth = client.post("/api/v1/games", json=past)

    assert [deal["number"] for deal in document["games"][0]["deals"]] == [1, 2, 3, 4, 5]
    assert imported.status_code == 201, imported.get_json()
    assert too_many.status_code == 422
    assert "must be a list of at most 5" in str(too_many.get_json())
    assert sixth.status_code == 422
    assert "number" in str(sixth.get_json())


def test_the_meld_checker_page_offers_the_deals_of_the_rules_chosen(client):
    make_house_rules(client, name="Five deals", deals=5)
    ask = "/meld-checker?rank=K&naturals=3&twos=0&jokers=0&first_meld=y"

    fifth = client.get(f"{ask}&variant=house-five-deals&deal=5")
    refused = client.get(f"{ask}&variant=pagat&deal=5")

    assert fifth.status_code == 200, text(fifth)
    assert refused.status_code == 422
    assert "These rules play 4 deals: choose a deal from 1 to 4." in text(refused)


def test_the_openapi_document_allows_twelve_deals_and_describes_running_scores(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]

    entry = schemas["DealEntry"]["properties"]
    assert entry["deal"]["maximum"] == 12
    assert entry["running_scores"]["type"] == ["array", "null"]
    assert "first_meld_by_score" in entry["running_scores"]["description"]
    assert "running_scores" not in schemas["DealEntry"]["required"]
    assert schemas["MeldCheck"]["properties"]["deal"]["maximum"] == 12
    assert schemas["MeldCheck"]["properties"]["running_score"]["type"] == "integer"


def start_game_to_10000(client: FlaskClient) -> str:
    make_house_rules(client, name="First to 10000", deals=12, target_score=10_000)
    return start_game(client, "house-first-to-10000")


def test_a_game_to_10000_names_the_winner_after_the_deal_that_reaches_it_and_refuses_another(
    client,
):
    game = start_game_to_10000(client)
    enter(client, game, 1)
    enter(client, game, 2)
    before = text(client.get(game))
    enter(client, game, 3)
    board = text(client.get(game))
    refused = client.post(f"{game}/deals/4", data=DEAL)

    # 2 x 4595 = 9190 before deal 3; 13,785 after it
    assert "Enter deal 3" in before and "won with" not in before
    assert f"Us won with {3 * DEAL_TOTALS[0]:,} points." in board
    assert "Enter deal" not in board
    assert refused.status_code == 422
    assert (
        "The game ended before deal 4: a side reached the target score of 10000, so no "
        "further deal is played." in unescape(text(refused))
    )
    assert "Deal 4" not in text(client.get(game))


def test_a_game_to_10000_counts_as_finished_in_the_history_once_it_ends(client):
    game = start_game_to_10000(client)
    for number in (1, 2):
        enter(client, game, number)
    listed_before = text(client.get("/"))
    enter(client, game, 3)
    listed = text(client.get("/"))

    assert "Finished" not in listed_before
    assert "Deal 3 is next; the game ends once a side reaches 10,000 points." in listed_before
    assert "Deal 4 is next" not in listed and "of 12 is next" not in listed_before
    assert re.search(r"Finished First to 10000, .+? Us won\. Us 13785 Them 3840", listed)


def test_the_deal_form_past_the_end_of_a_game_to_10000_says_the_game_is_over(client):
    game = start_game_to_10000(client)
    for number in (1, 2):
        enter(client, game, number)
    open_deal_3 = text(client.get(f"{game}/deals/3"))
    enter(client, game, 3)

    past = client.get(f"{game}/deals/4")
    said = unescape(text(past))
    again = unescape(text(client.get(f"{game}/deals/3")))

    assert "The game is over" not in open_deal_3 and 'name="sides-0-meld_points"' not in said
    assert past.status_code == 200
    assert (
        "The game is over The game is over: Us reached the target score of 10,000 in deal 3 "
        "and won, so deal 4 is not played. See the scoreboard" in said
    )
    assert f'href="{game}"' in html(past).replace("http://localhost", "")
    assert "Edit deal 3" in again


def test_the_sheet_of_a_game_to_10000_prints_its_three_deals_and_the_winner(client):
    game = start_game_to_10000(client)
    for number in (1, 2, 3):
        enter(client, game, number)

    pages = pdf_pages(client.get(f"{game}/sheet.pdf").data)

    assert len(pages) == 1
    assert re.findall(r"^Deal (\d+)$", pages[0], flags=re.MULTILINE) == ["1", "2", "3"]
    assert f"Running total {3 * DEAL_TOTALS[0]:,} {3 * DEAL_TOTALS[1]:,}" in pages[0]
    assert f"Winner: Us with {3 * DEAL_TOTALS[0]:,}" in pages[0]
    assert "First to 10,000 points" in pages[0].replace("\n", " ")


def test_the_print_page_of_a_game_to_10000_says_when_the_winner_is_known(client):
    game = start_game_to_10000(client)
    plain = start_game(client, "pagat")

    to_target = text(client.get(f"{game}/sheet"))
    every_deal = text(client.get(f"{plain}/sheet"))

    assert "and the winner once a side reaches 10,000 points or every deal is in." in to_target
    assert "and the winner once every deal is in." in every_deal


def test_the_blank_sheet_of_a_game_to_10000_says_the_target(client):
    make_house_rules(client, name="First to 10000", deals=12, target_score=10_000)

    pages = pdf_pages(client.get("/sheets/house-first-to-10000.pdf?sides=2").data)
    whole = " ".join(pages).replace("\n", " ")

    assert (
        "First to 10,000 points: the game ends after the deal in which a side reaches them, "
        "or after deal 12 at the latest." in whole
    )
    on_pages = [re.findall(r"^Deal (\d+)$", page, flags=re.MULTILINE) for page in pages]
    assert sum(on_pages, []) == [str(n) for n in range(1, 13)]
    # no deal is cut in two by the page's end
    for page, deals in zip(pages, on_pages, strict=True):
        assert page.count("Running total") == len(deals)


def test_the_rules_page_of_a_game_to_10000_says_when_it_ends(client):
    make_house_rules(client, name="First to 10000", deals=12, target_score=10_000)

    page = unescape(text(client.get("/rules/house-first-to-10000")))

    assert (
        "A game goes on until a side reaches 10000 points: it ends after the deal in which one "
        "does, or after deal 12 at the latest, and the highest total then wins." in page
    )
    assert "a deal added to the rules takes the last deal's until the table changes them" in page
    assert (
        "After the deal in which a total reaches 10000 points, or after deal 12 if none does, "
        "the highest total wins the game." in page
    )


def test_the_house_rules_form_refuses_a_target_of_0_naming_the_field(client):
    data = house_form(html(client.get("/house/new?base=pagat")))
    data.update({"name": "Zero", "deals": "12", "target_score": "0"})
    refused = client.post("/house/new", data=data)

    assert refused.status_code == 422
    assert "Target score must be more than 0, or empty (entered 0)." in unescape(text(refused))


def test_the_api_scoreboard_of_a_game_to_10000_says_finished_and_names_the_winner(client, app):
    game = start_game_to_10000(client)
    token = game.rsplit("/", 1)[-1]
    api = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    body = api_deal(None, 1)
    body.pop("variant")
    body.pop("deal")
    for number in (1, 2, 3):
        saved = api.put(f"/api/v1/games/{token}/deals/{number}", json=body, headers=headers)
        assert saved.status_code == 201, saved.get_json()
    board = api.get(f"/api/v1/games/{token}/scoreboard").get_json()
    refused = api.put(f"/api/v1/games/{token}/deals/4", json=body, headers=headers)

    assert board["finished"] is True and board["winners"] == [0]
    assert board["target_score"] == 10_000 and board["deals_in_game"] == 12
    assert [side["total"] for side in board["sides"]] == [13_785, 3_840]
    assert board["next_deal"] is None
    assert refused.status_code == 422
    assert [(e["field"], e["message"]) for e in refused.get_json()["errors"]] == [
        (
            "deal",
            "The game ended before deal 4: a side reached the target score of 10000, so no "
            "further deal is played.",
        )
    ]


def test_the_api_scores_a_deal_past_the_target_only_without_running_scores(client):
    variant = {
        "based_on": "pagat",
        "name": "First to 10000",
        "changes": {"deals": 12, "target_score": 10_000},
    }
    tenth = client.post("/api/v1/score", json=api_deal(variant, 10, running_scores=[5000, 9000]))
    ended = client.post("/api/v1/score", json=api_deal(variant, 4, running_scores=[13785, 3840]))

    assert tenth.status_code == 200, tenth.get_json()
    assert [side["total"] for side in tenth.get_json()["sides"]] == list(DEAL_TOTALS)
    assert ended.status_code == 422
    assert ended.get_json()["errors"][0]["field"] == "deal"


def test_the_openapi_document_describes_the_target_score(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]

    board = schemas["Scoreboard"]["properties"]
    assert board["target_score"]["type"] == ["integer", "null"]
    rules = str(schemas)
    assert "Target score. Empty: the game is its number of deals." in rules


SWAPPED = form_values(PAGAT_CAUGHT, PAGAT_OUT, went_out=1)


def test_an_earlier_deal_changed_to_reach_the_target_is_refused_while_later_deals_stand(client):
    make_house_rules(client, name="First to 9000", deals=12, target_score=9000)
    game = start_game(client, "house-first-to-9000")
    enter(client, game, 1)  # 4595 / 1280
    enter(client, game, 2, SWAPPED)  # 5875 / 5875
    enter(client, game, 3, SWAPPED)  # 7155 / 10470: Them reach 9000
    version = house_form(html(client.get(f"{game}/deals/2")))["version"]

    refused = client.post(f"{game}/deals/2", data={**DEAL, "version": version})

    assert refused.status_code == 422
    assert (
        "With these scores a side reaches the target score of 9000 in deal 2, which ends the "
        "game, but deal 3 is already entered: delete the later deals first."
        in unescape(text(refused))
    )
    assert "Them won with 10,470 points." in text(client.get(game))


def test_the_scoreboard_of_a_game_ended_at_the_target_lists_only_the_deals_played(client):
    game = start_game_to_10000(client)
    for number in (1, 2, 3):
        enter(client, game, number)

    board = client.get(game).get_data(as_text=True)

    assert '<a href="#deal-3">3</a></th>' in board
    assert '<th scope="row">4</th>' not in board
    assert '<th scope="row">12</th>' not in board
