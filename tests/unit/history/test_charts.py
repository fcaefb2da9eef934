"""The server-drawn charts: what the drawing itself holds."""

import re

from scorekeeper.history.charts import share_chart


def test_the_share_charts_zero_line_stays_clear_of_the_players_names() -> None:
    rows = [("Ann", [900, 300, -200]), ("François", [400, 100, -50])]
    drawn = str(share_chart("share", "Points", "Player", rows, ["Melds", "Books", "Cards left"]))

    names = {
        name: float(y)
        for y, name in re.findall(r'<text x="4" y="([\d.]+)"[^>]*>([^<]+)</text>', drawn)
    }
    zero_lines = [
        (float(y1), float(y2))
        for y1, y2 in re.findall(r'<line class="zero" x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" '
                                 r'y2="([\d.]+)"', drawn)
    ]
    assert names == {"Ann": 19.0, "François": 57.0}
    assert zero_lines == [(23.0, 41.0), (61.0, 79.0)]
    # A name's 11-unit letters stand from its baseline up: no zero line crosses them.
    for y in names.values():
        assert all(y2 < y - 11 or y1 > y + 3 for y1, y2 in zero_lines)
