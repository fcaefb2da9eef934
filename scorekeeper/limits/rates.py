"""Per-client rate limits, counted in the app's database.

Each limit allows a client so many requests in a window that opens with the client's first
request ("20/hour": 20 requests in the hour after the first). The count lives in the
``rate_counter`` table, one row per limit and client, bumped by one atomic statement (an
upsert that also opens a new window when the old one is over): every gunicorn worker, and every
machine on the same PostgreSQL database, shares it, with no server to run beside the database.
The count is written on a connection of its own and committed at once, whatever the view does
next. A request over the limit gets 429 with ``Retry-After``, the seconds until its window ends.

A client is its IP address (its /64 network for IPv6, which hands a device many addresses);
behind ``TRUSTED_PROXIES`` reverse proxies, the address the nearest of them saw in
``X-Forwarded-For``, as werkzeug's ``ProxyFix`` (``operations.wrap``) makes it the request's.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from flask import Flask, current_app, g, request
from flask_babel import format_timedelta
from flask_babel import lazy_gettext as _l
from sqlalchemy import BigInteger, String, case, delete
from sqlalchemy.orm import Mapped, mapped_column
from werkzeug.exceptions import TooManyRequests

from scorekeeper.extensions import Model, db, insert_into, table_of
from scorekeeper.operations import metrics

P = ParamSpec("P")
R = TypeVar("R")

PERIODS = {"second": 1, "minute": 60, "hour": 60 * 60, "day": 24 * 60 * 60}
OFF_WORDS = frozenset({"off", "0", ""})
KEY_LENGTH = 80
IPV6_CLIENT_PREFIX = 64


@dataclass(frozen=True, slots=True)
class Limit:
    """One kind of request that is counted, and what a client over its limit is told."""

    name: str
    setting: str
    refusal: Any
    """A lazy message with ``%(wait)s``, the time until the client may try again."""


GAMES = Limit(
    "games",
    "LIMIT_GAMES",
    _l("Many games were started from your network in a short time. Try again in %(wait)s."),
)
HOUSE_RULES = Limit(
    "house_rules",
    "LIMIT_HOUSE_RULES",
    _l("Many house rules were made from your network in a short time. Try again in %(wait)s."),
)
IMPORTS = Limit(
    "imports",
    "LIMIT_IMPORTS",
    _l("Many files were imported from your network in a short time. Try again in %(wait)s."),
)
SHEETS = Limit(
    "sheets",
    "LIMIT_SHEETS",
    _l("Many score sheets were printed from your network in a short time. Try again in %(wait)s."),
)
TABLES = Limit(
    "tables",
    "LIMIT_TABLES",
    _l("Many card tables were made from your network in a short time. Try again in %(wait)s."),
)
LIMITS = (GAMES, HOUSE_RULES, IMPORTS, SHEETS, TABLES)


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``requests`` requests in ``seconds`` seconds."""

    requests: int
    seconds: int


def parse_rate(name: str, value: str) -> Rate | None:
    """``"20/hour"`` as a Rate, ``"off"`` as None; anything else stops the start."""
    text = str(value).strip().lower()
    if text in OFF_WORDS:
        return None
    count, _slash, period = text.partition("/")
    if count.strip().isdigit() and int(count) > 0 and period.strip() in PERIODS:
        return Rate(int(count), PERIODS[period.strip()])
    periods = ", ".join(PERIODS)
    raise ValueError(f"{name} must be N/period (period: {periods}) or off; not {value!r}")


class RateCounter(Model):
    """One client's requests of one kind in its current window."""

    __tablename__ = "rate_counter"

    key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    """The limit's name and the client, as ``games:203.0.113.7``."""
    hits: Mapped[int]
    window_ends: Mapped[int] = mapped_column(BigInteger)
    """Seconds since the epoch."""


def init_app(app: Flask) -> None:
    rates = {limit.name: parse_rate(limit.setting, app.config[limit.setting]) for limit in LIMITS}
    app.extensions["scorekeeper.rates"] = rates
    proxies = app.config["TRUSTED_PROXIES"]
    if not isinstance(proxies, int) or proxies < 0:
        raise ValueError(f"TRUSTED_PROXIES must be a whole number, 0 or more; not {proxies!r}")


def client() -> str:
    """Who sent this request: its address, or its /64 network for IPv6."""
    address = request.remote_addr or "unknown"  # behind trusted proxies, ProxyFix's
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[: KEY_LENGTH // 2]
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(parsed)


def _count(key: str, rate: Rate, now: int) -> tuple[int, int]:
    """Add one to the key's window, opening a new one if it is over: (hits, window end)."""
    table = table_of(RateCounter)
    engine = db.engine
    insert = insert_into(engine.dialect.name, table).values(
        key=key, hits=1, window_ends=now + rate.seconds
    )
    over = table.c.window_ends <= now
    upsert = insert.on_conflict_do_update(
        index_elements=[table.c.key],
        set_={
            "hits": case((over, 1), else_=table.c.hits + 1),
            "window_ends": case((over, insert.excluded.window_ends), else_=table.c.window_ends),
        },
    ).returning(table.c.hits, table.c.window_ends)
    with engine.begin() as connection:
        hits, window_ends = connection.execute(upsert).one()
        if hits == 1:
            # A window opened: a good time to forget every client whose window is over.
            connection.execute(delete(table).where(table.c.window_ends <= now))
    return hits, window_ends


def spend(limit: Limit) -> None:
    """Count this request against the client's limit; 429 when it is over. Once a request."""
    spent = g.setdefault("rate_limits_spent", set())
    rate = current_app.extensions["scorekeeper.rates"][limit.name]
    if rate is None or limit.name in spent:
        return
    spent.add(limit.name)
    now = int(time.time())
    hits, window_ends = _count(f"{limit.name}:{client()}", rate, now)
    if hits > rate.requests:
        metrics.count("rate_limited", limit.name)
        wait = max(1, window_ends - now)
        words = format_timedelta(timedelta(seconds=wait), threshold=1, add_direction=False)
        raise TooManyRequests(str(limit.refusal % {"wait": words}), retry_after=wait)


def limited(limit: Limit) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Count every POST to the view against ``limit`` (GETs, which only show forms, are free)."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @wraps(view)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            if request.method == "POST":
                spend(limit)
            return view(*args, **kwargs)

        return counted

    return decorate
