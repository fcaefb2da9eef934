"""The statistics page's charts: games on a real time axis shared by every player's chart, a
scale under "Points by line", numbers in the reader's format."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from flask import Flask

from scorekeeper.history.pages import reader_number, results_charts, share_chart
from scorekeeper.history.stats import Tally

START = datetime(2026, 3, 1, 20, 0)


def _tally(name: str, days: list[int], total: int = 1000) -> Tally:
    tally = Tally(name=name)
    tally.results = [(START + timedelta(days=day), total + 100 * day, False) for day in days]
    return tally


def _dots(chart: str) -> list[float]:
    group = re.search(r'<g class="series-1 dot"[^>]*>(.*?)</g>', chart)
    assert group is not None, "the first series' dots are drawn"
    return [float(x) for x in re.findall(r'<circle cx="([\d.]+)"', group.group(1))]


def _x_labels(chart: str) -> list[str]:
    return re.findall(r'<text x="[\d.]+" y="138" text-anchor="\w+">([^<]*)</text>', chart)


def test_a_date_sits_at_one_place_in_every_players_chart(app: Flask) -> None:
    ann = _tally("Ann", [0, 1, 20])
    bob = _tally("Bob", [1, 20])
    with app.test_request_context():
        first, second = (str(chart) for chart in results_charts([ann, bob]))

    ann_dots, bob_dots = _dots(first), _dots(second)
    assert ann_dots[1:] == bob_dots, "1 and 20 March are at the same places in both charts"
    gaps = (ann_dots[1] - ann_dots[0], ann_dots[2] - ann_dots[1])
    assert gaps[1] == pytest.approx(19 * gaps[0], abs=0.5), "spaced by time, not by game"
    assert _x_labels(first) == _x_labels(second) == ["3/1/26", "3/11/26", "3/21/26"]


def test_points_by_line_has_a_scale_of_points(app: Flask) -> None:
    ann, bob = Tally(name="Ann"), Tally(name="Bob")
    ann.lines.update(meld_points=7240, books=3000, cards_left=-540)
    bob.lines.update(meld_points=4800, books=1000, cards_left=-960)
    with app.test_request_context():
        chart = str(share_chart([ann, bob]))

    ticks = re.findall(r'<text class="scale-tick"[^>]*>([^<]*)</text>', chart)
    assert ticks == ["0", "5,000", "10,000"]


def test_chart_numbers_are_written_in_the_readers_format(app: Flask) -> None:
    ann = _tally("Ann", [0, 3], total=4000)
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        [chart] = [str(drawn) for drawn in results_charts([ann])]
        french = reader_number(4405)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        german = reader_number(4405)

    assert (french, german) == ("4\u202f405", "4.405")
    y_ticks = re.findall(r'text-anchor="end">([^<]*)<', chart)
    assert "4\u202f000" in y_ticks
    assert "<td>4\u202f300</td>" in chart, "the table of numbers too"
