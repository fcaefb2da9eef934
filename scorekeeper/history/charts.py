"""Charts drawn on the server as SVG, each followed by its numbers as a table.

The drawings scale to their box (a ``viewBox`` 360 units wide: one unit a CSS pixel on a 390 px
phone), write text and axes in ``currentColor`` and colour each series by a class
(``series-N``), which the stylesheet gives a colour for light and dark pages; the same colours
are also written as attributes, for the PDF, which reads no stylesheet inside a drawing. Series
differ by dash as well as colour, so that they stay apart in black and white. The table beside
each chart carries the same numbers for screen readers (the drawing itself is hidden from them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 360
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#6b7280")
"""Light-page colours of the series (Okabe and Ito's, told apart with colour blindness)."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 3", "10 4")
MARGIN_LEFT = 44
MARGIN_RIGHT = 12
MARGIN_TOP = 10
MARGIN_BOTTOM = 28


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    values: tuple[float | None, ...]


def _color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _dash(index: int) -> str:
    dash = DASHES[index % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def nice_ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round values from at most ``low`` to at least ``high``, about ``count`` of them."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    step = max(1, round(step))
    start = math.floor(low / step) * step
    ticks = [start]
    while ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


Numbers = Callable[[float], str]
"""How a chart writes a number: the reader's format (4,405 / 4 405 / 4.405) where the caller
knows the reader; plain digits otherwise."""


@dataclass(frozen=True, slots=True)
class TimeAxis:
    """An x axis of time: where each point lies (any unit: days, seconds) and the labelled
    moments, within a span several charts may share so that one date sits at one place."""

    positions: tuple[float, ...]
    start: float
    end: float
    ticks: tuple[tuple[float, str], ...]


def legend(labels: Sequence[str]) -> Markup:
    items = "".join(
        f'<li><svg class="swatch" viewBox="0 0 24 8" width="24" height="8" aria-hidden="true">'
        f'<line class="series-{i % len(PALETTE) + 1}" x1="0" y1="4" x2="24" y2="4" '
        f'stroke="{_color(i)}" stroke-width="3"{_dash(i)}/></svg> {escape(label)}</li>'
        for i, label in enumerate(labels)
    )
    return Markup(f'<ul class="chart-legend">{items}</ul>')


def line_chart(
    chart_id: str,
    title: str,
    x_title: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    height: int = 200,
    show_legend: bool = True,
    most_labels: int = 8,
    number: Numbers = _number,
    time: TimeAxis | None = None,
) -> Markup:
    """Lines over the same x values, with a zero line, y ticks, and the table of numbers.

    Without ``time`` the x values are evenly spaced and labelled by ``x_labels``; with it,
    each lies at its moment and the axis is labelled by the time axis's ticks (``x_labels``
    still name each point in the table of numbers)."""
    values = [v for s in series for v in s.values if v is not None]
    ticks = nice_ticks(min([0.0, *values]), max([0.0, *values]))
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = height - MARGIN_TOP - MARGIN_BOTTOM
    span = ticks[-1] - ticks[0]

    def x_of(position: float) -> float:
        assert time is not None
        if time.end <= time.start:
            return MARGIN_LEFT + plot_w / 2
        return MARGIN_LEFT + plot_w * (position - time.start) / (time.end - time.start)

    def x_at(i: int) -> float:
        if time is not None:
            return x_of(time.positions[i])
        return MARGIN_LEFT + (plot_w * i / (len(x_labels) - 1) if len(x_labels) > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return MARGIN_TOP + plot_h * (ticks[-1] - v) / span

    # What several shapes share is said once, on a group: a chart of seven players over
    # many deals is most of its page's weight otherwise.
    parts = [
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {height}" aria-hidden="true" '
        f'focusable="false"><g stroke="currentColor" stroke-width="1">'
    ]
    for tick in ticks:
        y = _at(y_at(tick))
        parts.append(
            f'<line class="grid{" zero" if tick == 0 else ""}" x1="{MARGIN_LEFT}" y1="{y}" '
            f'x2="{WIDTH - MARGIN_RIGHT}" y2="{y}" stroke-opacity="{0.6 if tick == 0 else 0.18}"/>'
        )
    parts.append('</g><g font-size="11" fill="currentColor">')
    for tick in ticks:
        parts.append(
            f'<text x="{MARGIN_LEFT - 4}" y="{_at(y_at(tick) + 4)}" text-anchor="end">'
            f"{escape(number(tick))}</text>"
        )
    if time is not None:
        placed = [(x_of(position), label) for position, label in time.ticks]
    else:
        step = max(1, math.ceil((len(x_labels) - 1) / max(1, most_labels - 1)))
        placed = [
            (x_at(i), label)
            for i, label in enumerate(x_labels)
            if _labelled(i, len(x_labels), step)
        ]
    for at, label in placed:
        x, anchor = _label_place(at, label)
        parts.append(
            f'<text x="{_at(x)}" y="{height - MARGIN_BOTTOM + 16}" text-anchor="{anchor}">'
            f"{escape(label)}</text>"
        )
    parts.append("</g>")
    for index, one in enumerate(series):
        points = [(_at(x_at(i)), _at(y_at(v))) for i, v in enumerate(one.values) if v is not None]
        css = f"series-{index % len(PALETTE) + 1}"
        if len(points) > 1:
            parts.append(
                f'<polyline class="{css}" points="{" ".join(f"{x},{y}" for x, y in points)}" '
                f'fill="none" stroke="{_color(index)}" stroke-width="2.5" stroke-linejoin="round"'
                f"{_dash(index)}/>"
            )
        if 0 < len(points) <= 12:
            dots = "".join(f'<circle cx="{x}" cy="{y}" r="3"/>' for x, y in points)
            parts.append(f'<g class="{css} dot" fill="{_color(index)}">{dots}</g>')
    parts.append("</svg>")
    caption = escape(title)
    table = _table(chart_id, title, x_title, x_labels, series, number)
    shown_legend = legend([s.label for s in series]) if show_legend else Markup("")
    return Markup(
        f'<figure class="chart" id="{chart_id}"><figcaption>{caption}</figcaption>'
        f"{''.join(parts)}{shown_legend}{table}</figure>"
    )


def _at(position: float) -> str:
    """A place in the drawing, to a tenth of a unit, without a trailing ".0"."""
    return f"{position:.1f}".removesuffix(".0")


def _label_place(x: float, label: str) -> tuple[float, str]:
    """Where an x label is written: centred under its point, unless it would then run past
    the drawing's left or right edge (where a PDF cuts it), when it starts or ends there."""
    half_width = len(label) * 11 * 0.3  # a digit is about 0.6 em wide
    if x + half_width > WIDTH - 1:
        return WIDTH - 1, "end"
    if x - half_width < 1:
        return 1, "start"
    return x, "middle"


def _labelled(index: int, count: int, step: int) -> bool:
    """Whether the x value at ``index`` is written: every ``step``-th and the last, but none
    so near the last that the two would overlap."""
    last = count - 1
    return index == last or (index % step == 0 and (index == 0 or last - index >= step / 2))


def _table(
    chart_id: str,
    title: str,
    x_title: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    number: Numbers = _number,
) -> Markup:
    head = "".join(f'<th scope="col">{escape(s.label)}</th>' for s in series)
    rows = "".join(
        f'<tr><th scope="row">{escape(label)}</th>'
        + "".join(
            f"<td>{'–' if s.values[i] is None else escape(number(s.values[i] or 0))}</td>"
            for s in series
        )
        + "</tr>"
        for i, label in enumerate(x_labels)
    )
    # A table ignores the 1 px box that hides things: its wrapper is hidden instead.
    return Markup(
        f'<div class="visually-hidden"><table class="chart-numbers" id="{chart_id}-numbers">'
        f'<caption>{escape(title)}</caption><thead><tr><th scope="col">{escape(x_title)}</th>'
        f"{head}</tr></thead><tbody>{rows}</tbody></table></div>"
    )


SCALE_HEIGHT = 22
"""The room under a bar chart for its scale of points."""
SCALE_SIDE = 14
"""The room beside a bar chart's scale, so that its first and last numbers fit."""


def _points_scale(
    ticks: Sequence[int], x_of: Callable[[float], float], top: int, number: Numbers
) -> str:
    """A horizontal scale of points: a line, a mark and a number at each tick."""
    parts = [
        f'<line class="scale" x1="{x_of(ticks[0]):.1f}" y1="{top}" x2="{x_of(ticks[-1]):.1f}" '
        f'y2="{top}" stroke="currentColor" stroke-opacity="0.6" stroke-width="1"/>'
    ]
    for tick in ticks:
        x = x_of(tick)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + 4}" stroke="currentColor" '
            f'stroke-width="1"/><text class="scale-tick" x="{x:.1f}" y="{top + 16}" '
            f'text-anchor="middle" font-size="11" fill="currentColor">{escape(number(tick))}'
            f"</text>"
        )
    return "".join(parts)


def share_chart(
    chart_id: str,
    title: str,
    who_title: str,
    rows: Sequence[tuple[str, Sequence[int]]],
    groups: Sequence[str],
    number: Numbers = _number,
) -> Markup:
    """One bar per row (a player), each split into the points of its lines: lines that add to
    the right of the zero line, lines that take away (cards left) to its left; a scale of
    points under the bars."""
    bar_h = 14
    row_h = 38
    bars_end = MARGIN_TOP + row_h * len(rows) + 4
    height = bars_end + SCALE_HEIGHT
    plus = max([1, *(sum(p for p in points if p > 0) for _name, points in rows)])
    minus = max([0, *(-sum(p for p in points if p < 0) for _name, points in rows)])
    ticks = [tick for tick in nice_ticks(-minus, plus) if -minus <= tick <= plus]
    plot_w = WIDTH - 8 - SCALE_SIDE * 2
    zero = 4 + SCALE_SIDE + plot_w * minus / (plus + minus)
    scale = plot_w / (plus + minus)
    parts = [
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {height}" aria-hidden="true" '
        f'focusable="false">',
        _points_scale(ticks, lambda v: zero + v * scale, bars_end, number),
    ]
    for row, (name, points) in enumerate(rows):
        top = MARGIN_TOP + row * row_h
        parts.append(
            f'<text x="4" y="{top + 9}" font-size="11" fill="currentColor">{escape(name)}</text>'
        )
        # The zero line runs beside each bar only, never through the name above it.
        parts.append(
            f'<line class="zero" x1="{zero:.1f}" y1="{top + 13}" x2="{zero:.1f}" '
            f'y2="{top + 17 + bar_h}" stroke="currentColor" stroke-width="1"/>'
        )
        right = left = zero
        for index, value in enumerate(points):
            if value == 0:
                continue
            width = abs(value) * scale
            if value > 0:
                x, right = right, right + width
            else:
                left -= width
                x = left
            parts.append(
                f'<rect class="series-{index % len(PALETTE) + 1} fill" x="{x:.1f}" '
                f'y="{top + 15}" width="{width:.1f}" height="{bar_h}" fill="{_color(index)}"/>'
            )
    parts.append("</svg>")
    series = [
        Series(group, tuple(float(points[i]) for _name, points in rows))
        for i, group in enumerate(groups)
    ]
    swatches = "".join(
        f'<li><svg class="swatch" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">'
        f'<rect class="series-{i % len(PALETTE) + 1} fill" width="12" height="12" '
        f'fill="{_color(i)}"/></svg> {escape(group)}</li>'
        for i, group in enumerate(groups)
    )
    table = _table(chart_id, title, who_title, [name for name, _points in rows], series, number)
    return Markup(
        f'<figure class="chart" id="{chart_id}"><figcaption>{escape(title)}</figcaption>'
        f'{"".join(parts)}<ul class="chart-legend">{swatches}</ul>{table}</figure>'
    )
