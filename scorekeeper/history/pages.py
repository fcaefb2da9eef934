"""What the history pages show: the statistics with their filters, and the charts."""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache, partial
from threading import Lock

from babel import Locale
from babel.numbers import format_decimal as babel_decimal
from babel.numbers import get_decimal_symbol, get_group_symbol
from flask_babel import format_date, format_decimal, get_locale, pgettext
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db
from scorekeeper.history import charts
from scorekeeper.history.stats import (
    Filters,
    Statistics,
    Tallies,
    Tally,
    named,
    statistics,
    tallies,
)
from scorekeeper.rules.game import GameScore
from scorekeeper.rules.names import clean_name, refused_characters
from scorekeeper.store import kept_pages
from scorekeeper.store.kept_pages import KeptPage
from scorekeeper.store.people import table_players
from scorekeeper.store.players import PLAYER_NAME_LENGTH
from scorekeeper.store.summaries import (
    GameSummary,
    Versions,
    summaries,
    table_seats,
    table_summaries_read,
    table_versions,
)
from scorekeeper.store.table_statistics import played_rules, stored_statistics
from scorekeeper.variant_texts import table_label, variant_text

log = logging.getLogger(__name__)

MOST_POINTS_OVER_TIME = 40
"""A player's results over time are drawn as at most this many points (averages of games)."""


def line_labels() -> dict[str, str]:
    """The groups of a score's lines, as the charts and tables name them."""
    return {
        "meld_points": _("Melded cards"),
        "books": _("Books"),
        "red_threes": _("Red threes"),
        "going_out": _("Going out"),
        "exact_22": _("Exact cut"),
        "failed_pickups": _("Failed pickups"),
        "cards_left": _("Cards left"),
    }


def book_labels() -> dict[str, str]:
    return {
        "clean_books": _("Clean books"),
        "dirty_books": _("Dirty books"),
        "wild_books": _("Wild books"),
        "black_three_books": _("Black-three books"),
    }


@dataclass(slots=True)
class StatsView:
    filters: Filters
    errors: dict[str, str]
    stats: Statistics
    shown: Mapping[str, str] = field(default_factory=dict)
    """The filter fields as typed, to show them again."""
    drawn: Drawn | None = None
    keep: Callable[[Markup], None] | None = None
    """Where the numbers part goes once rendered (``kept_pages``), if anywhere."""

    def keeping(self) -> Callable[[], None] | None:
        """What keeps the numbers part as rendered for every worker, if it is to be kept: to
        run once the page is sent (the reader does not wait for it)."""
        if self.keep is None or self.drawn is None or self.drawn.body is None:
            return None
        return partial(self.keep, self.drawn.body)

    def rules_text(self, counts: Counter[str]) -> list[tuple[str, int]]:
        return [(variant_text(name), count) for name, count in counts.most_common()]

    def tables_text(self, counts: Counter[tuple[int, int]]) -> list[tuple[str, int]]:
        return [(table_label(*table), count) for table, count in counts.most_common()]

    def body(self, render: Callable[[StatsView], str]) -> Markup:
        """The part of the page that shows the numbers, rendered once for its key."""
        if self.drawn is None:
            return Markup(render(self))
        if self.drawn.body is None:
            self.drawn.body = Markup(render(self))
        return self.drawn.body

    def share_chart(self) -> Markup:
        return self.drawn.share if self.drawn else share_chart(self.stats.players)

    def results_charts(self) -> list[Markup]:
        if self.drawn:
            return self.drawn.results
        return results_charts(self.stats.players)


def _date(raw: str | None, label: str, errors: dict[str, str], key: str) -> date | None:
    if not raw:
        return None
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        errors[key] = _("%(field)s: enter a date such as 2026-03-31.", field=label)
        return None


@dataclass(slots=True)
class Drawn:
    """A table's statistics under some filters, with their charts drawn, and the page's part
    that shows them once it has been rendered."""

    stats: Statistics
    share: Markup
    results: list[Markup]
    body: Markup | None = None


class ViewCache:
    """Statistics and charts by everything they are made of: the table's games and their
    versions, its seats, its players' names, the filters and the language. A deal saved,
    changed or deleted changes its game's version, and so the key: nothing stale is shown."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._items: OrderedDict[Hashable, Drawn] = OrderedDict()
        self._lock = Lock()

    def get(self, key: Hashable) -> Drawn | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, drawn: Drawn) -> None:
        with self._lock:
            self._items[key] = drawn
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


drawn_views = ViewCache()


def stats_view(table_id: int, args: Mapping[str, str], page: bool = False) -> StatsView:
    """The table's statistics under the filters asked; a filter refused is named, not used.

    For the ``page`` of every game (no filter), the part that shows the numbers is read as a
    worker of any server kept it (``kept_pages``), and kept once rendered, if none did: the
    view then holds no standings, only what the rest of the page shows."""
    versions = table_versions(table_id)
    names = {player.id: player.name for player in table_players(table_id)}
    errors: dict[str, str] = {}
    rules = args.get("rules") or None
    read: list[tuple[list[GameSummary], Versions | None]] = []

    def stored() -> list[GameSummary]:
        """The table's stored summaries, read once a request, and only when needed."""
        if not read:
            read.append(table_summaries_read(table_id))
        return read[0][0]

    if rules is not None and rules not in {
        variant_id for variant_id, _name in _rules_of(table_id, versions)
    }:
        errors["rules"] = _("%(field)s: choose rules from the list.", field=_("Rules"))
        rules = None
    since = _date(args.get("from"), _("From"), errors, "from")
    until = _date(args.get("to"), _("To"), errors, "to")
    if since and until and since > until:
        errors["to"] = _("%(field)s: the end comes before the start.", field=_("To"))
        since = until = None
    filters = Filters(rules, since, until)
    # Seats change only with their game's version (a new game, a merge: see people.merge)
    # or with the players' names (a merge drops one): they need no place in the key.
    locale, named_as = str(get_locale()), tuple(names.items())
    key = (table_id, versions, named_as, filters, locale)
    drawn = drawn_views.get(key)
    to_keep = None
    if drawn is None and page and filters == Filters():
        kept_key = kept_pages.page_key(table_id, (versions, named_as), locale)
        drawn = _kept_page(kept_key)
        to_keep = kept_key if drawn is None else None
    if drawn is None:
        if filters == Filters():
            found = _all_games(table_id, stored)
            result = named(found, names, _rules_of(table_id, versions))
        else:
            result = statistics(stored(), table_seats(table_id), names, filters)
        drawn = Drawn(result, share_chart(result.players), results_charts(result.players))
        drawn_views.put(key, drawn)
    shown = {key: args.get(key, "") for key in ("rules", "from", "to")}
    view = StatsView(filters, errors, drawn.stats, shown, drawn)
    if to_keep is not None:
        view.keep = partial(_keep_page, db.engine, to_keep, table_id, drawn.stats)
    return view


def _kept_page(key: str) -> Drawn | None:
    """The numbers part of a table's page, as this worker or another kept it, if one did."""
    found = drawn_views.get(("page", key))
    if found is not None:
        return found
    try:
        kept = kept_pages.kept_stats_page(key)
    except SQLAlchemyError:
        log.warning("The kept statistics page %s could not be read", key, exc_info=True)
        return None
    if kept is None:
        return None
    stats = Statistics(kept.games, [], [], kept.rules)
    found = Drawn(stats, Markup(""), [], Markup(kept.body))  # as this page rendered it
    drawn_views.put(("page", key), found)
    return found


def _keep_page(engine: Engine, key: str, table_id: int, stats: Statistics, body: Markup) -> None:
    """Keep a table's page for every worker; a cache: a failure only means a later render."""
    page = KeptPage(stats.games, stats.rules, str(body))
    try:
        kept_pages.keep_stats_page(engine, key, table_id, page)
    except SQLAlchemyError:
        log.warning("The statistics page of table %s could not be kept", table_id, exc_info=True)


def _all_games(table_id: int, stored: Callable[[], list[GameSummary]]) -> Tallies:
    """The numbers of every game of the table: stored with the table, and kept up to date by
    every change to its games (``store.table_statistics``); else (a table with no row yet)
    made from the games' summaries."""
    found = stored_statistics(table_id)
    if found is not None:
        return found
    return tallies(stored(), table_seats(table_id))


def _rules_of(table_id: int, versions: Versions) -> list[tuple[str, str]]:
    """The rules the table played: read from its first game of each, kept by the table's
    games. A game's rules are frozen with it, so a deal saved, changed or deleted leaves
    them as they were: the first request after it need not read them again."""
    key = (table_id, tuple(game_id for game_id, _version in versions))
    played = _played_rules.get(key)
    if played is None:
        played = played_rules(table_id)
        with _played_lock:
            if len(_played_rules) >= 64:
                _played_rules.clear()
            _played_rules[key] = played
    return played


_played_rules: dict[tuple[int, tuple[int, ...]], list[tuple[str, str]]] = {}
_played_lock = Lock()


def forget_kept() -> None:
    """Drop everything kept in memory of any table (for a process moving to another database,
    as the tests and the bench do)."""
    summaries.clear()
    drawn_views.clear()
    with _played_lock:
        _played_rules.clear()


def running_chart(score: GameScore) -> Markup:
    labels = [pgettext("chart", "Start")] + [str(result.number) for result in score.deals]
    series = [
        charts.Series(name, (0.0, *(float(r.running_totals[i]) for r in score.deals)))
        for i, name in enumerate(score.side_names)
    ]
    return charts.line_chart(
        "running-chart",
        _("Running totals, deal by deal"),
        _("Deal"),
        labels,
        series,
        number=reader_numbers(),
    )


def reader_number(value: float) -> str:
    """A chart's number in the reader's format: 4,405 / 4 405 / 4.405.

    Written by Python's own formatting with the language's symbols where that was checked to
    write what Babel writes (``_plain_symbols``): a statistics page writes hundreds of numbers,
    and Babel takes tens of microseconds for each."""
    return reader_numbers()(value)


def reader_numbers() -> Callable[[float], str]:
    """``reader_number`` with the reader's language looked up once, for a chart's many numbers."""
    symbols = _plain_symbols(str(get_locale()))
    if symbols is None:
        return lambda value: str(format_decimal(value))
    group, decimal = symbols
    return lambda value: _plain_number(value, group, decimal)


def _plain_number(value: float, group: str, decimal: str) -> str:
    text = f"{value:,.3f}".rstrip("0").rstrip(".")
    return text.replace(",", "\0").replace(".", decimal).replace("\0", group)


_SAMPLES = (0, 5, -7, 12.5, 999, 1000, 4405, -4405, 12345.6, 1234567, 0.25, 98765.4, 1.125)


@lru_cache(maxsize=32)
def _plain_symbols(locale: str) -> tuple[str, str] | None:
    """The language's group and decimal symbols, when with them ``_plain_number`` writes the
    samples as Babel's ``format_decimal`` does; else None (Babel writes every number)."""
    parsed = Locale.parse(locale)
    symbols = (get_group_symbol(parsed), get_decimal_symbol(parsed))
    for sample in _SAMPLES:
        if _plain_number(sample, *symbols) != babel_decimal(sample, locale=parsed):
            return None
    return symbols


def _day(moment: datetime) -> float:
    """A moment as days, the unit of the charts' time axis."""
    return moment.timestamp() / 86_400


def results_charts(players: Sequence[Tally]) -> list[Markup]:
    """Every player's game totals over time, on one time axis: one date is at one place in
    every player's chart, which is labelled with the first, middle and last dates."""
    # Each player's games are kept oldest first: the span is their first and last dates.
    counted = [tally.played for tally in players if tally.played]
    if not counted:
        return []
    first = min(played[0][0] for played in counted)
    last = max(played[-1][0] for played in counted)
    middle = first + (last - first) / 2
    shown = [first] if last.date() == first.date() else [first, last]
    if (last - first).days >= 2:
        shown.insert(1, middle)
    ticks = tuple((_day(when), _short_date(when.date())) for when in shown)
    number = reader_numbers()
    return [
        results_chart(index, tally, (_day(first), _day(last)), ticks, number)
        for index, tally in enumerate(players)
    ]


def results_chart(
    index: int,
    tally: Tally,
    span: tuple[float, float],
    ticks: tuple[tuple[float, str], ...],
    number: Callable[[float], str] = reader_number,
) -> Markup:
    """One player's game totals, oldest first, each at its date within ``span`` (days); long
    histories as averages of equal runs, each at its first game's date.

    Wins are counted in the standings: on this axis of points they would lie flat on zero.
    """
    played = tally.played  # (when, game id, total, won, best deal), oldest first
    runs = _runs(len(played), MOST_POINTS_OVER_TIME)
    locale = str(get_locale())
    labels = []
    positions = []
    totals: list[float | None] = []
    for start, end in runs:
        when = played[start][0]
        labels.append(_short_date(when.date(), locale))
        positions.append(_day(when))
        run_total = 0
        for index in range(start, end):
            run_total += played[index][2]
        totals.append(round(run_total / (end - start), 1))
    title = _("%(name)s: game totals over time", name=tally.name)
    averaged = any(end - start > 1 for start, end in runs)
    name = _("Average game total") if averaged else _("Game total")
    return charts.line_chart(
        f"results-{index}",
        title,
        _("Date"),
        labels,
        [charts.Series(name, tuple(totals))],
        height=150,
        show_legend=averaged,
        most_labels=4,
        number=number,
        time=charts.TimeAxis(tuple(positions), span[0], span[1], ticks),
    )


def _short_date(
    day: date,
    locale: str | None = None,
    known: dict[tuple[date, str], str] = {},  # noqa: B006
) -> str:
    """The date as the reader's language (``locale``, looked up when not given) writes it
    briefly (formatting is slow: kept)."""
    key = (day, locale or str(get_locale()))
    if key not in known:
        if len(known) > 10_000:
            known.clear()
        known[key] = str(format_date(day, "short"))
    return known[key]


def _runs(count: int, most: int) -> list[tuple[int, int]]:
    """``count`` items cut into at most ``most`` runs of nearly equal length, in order."""
    if count == 0:
        return []
    parts = min(count, most)
    bounds = [round(i * count / parts) for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts)]


def share_chart(players: Sequence[Tally]) -> Markup:
    labels = {
        key: label
        for key, label in line_labels().items()
        if any(tally.lines[key] for tally in players)
    }
    rows = [(tally.name, [tally.lines[key] for key in labels]) for tally in players]
    return charts.share_chart(
        "share-chart",
        _("Where the points came from"),
        _("Player"),
        rows,
        list(labels.values()),
        number=reader_numbers(),
    )


def posted_name(raw: str | None) -> tuple[str, str | None]:
    """A typed player name, cleaned, and the problem with it (None when it may be kept)."""
    name = clean_name(raw or "")
    if not name:
        return name, _("Give the player a name.")
    if len(name) > PLAYER_NAME_LENGTH:
        return name, _("Keep names to %(max)s characters.", max=PLAYER_NAME_LENGTH)
    if refused_characters(name):
        return name, _("Player names cannot hold control characters.")
    return name, None
