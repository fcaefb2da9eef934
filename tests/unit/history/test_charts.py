"""The server-drawn charts: what the drawing itself holds."""

import re

from scorekeeper.history.charts import WIDTH, Series, line_chart, share_chart


def test_the_share_charts_zero_line_stays_clear_of_the_players_names() -> None:
    rows = [("Ann", [900, 300, -200]), ("François", [400, 100, -50])]
    drawn = str(share_chart("share", "Points", "Player", rows, ["Melds", "Books", "Cards left"]))

    names = {
        name: float(y)
        for y, name in re.findall(r'<text x="4" y="([\d.]+)"[^>]*>([^<]+)</text>', drawn)
    }
    zero_lines = [
        (float(y1), float(y2))
        for y1, y2 in re.findall(
            r'<line class="zero" x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" '
            r'y2="([\d.]+)"',
            drawn,
        )
    ]
    assert names == {"Ann": 19.0, "François": 57.0}
    assert zero_lines == [(23.0, 41.0), (61.0, 79.0)]
    # A name's 11-unit letters stand from its baseline up: no zero line crosses them.
    for y in names.values():
        assert all(y2 < y - 11 or y1 > y + 3 for y1, y2 in zero_lines)


def x_labels(drawn: str) -> list[tuple[float, str, str]]:
    return [
        (float(x), anchor, text)
        for x, anchor, text in re.findall(
            r'<text x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)"[^>]*>([^<]+)</text>', drawn
        )
    ]


def test_the_last_date_under_a_chart_ends_inside_the_drawing() -> None:
    dates = ["1/28/26", "5/16/26", "8/8/26", "11/24/26"]
    drawn = str(line_chart("r", "Ann", "Date", dates, [Series("Total", (1.0, 2.0, 3.0, 4.0))]))

    assert x_labels(drawn)[-1] == (WIDTH - 1, "end", "11/24/26")
    assert x_labels(drawn)[-4] == (44.0, "middle", "1/28/26")


def test_a_short_last_label_stays_centred_under_its_point() -> None:
    deals = ["Start", "1", "2", "3", "4"]
    drawn = str(line_chart("g", "Totals", "Deal", deals, [Series("Ann", (0, 1, 2, 3, 4))]))

    assert x_labels(drawn)[-1] == (348.0, "middle", "4")
