"""Prometheus metrics at ``/metrics``: off (404) unless ``SCOREKEEPER_METRICS_TOKEN`` is set, and
then only for ``Authorization: Bearer <that token>``.

Each gunicorn worker is a process of its own, so the values live in files, one set per
process, in the instance folder's ``metrics/`` (or ``PROMETHEUS_MULTIPROC_DIR`` when set), and
a scrape sums them (prometheus_client's multiprocess mode): whichever worker answers, the
counts are the server's. The folder is chosen once a process, before the first value is made.

What is counted: requests by endpoint, method and status, with their time; PDF renders, and
the ones refused (no free render slot, or the client over its limit); deal saves; conflicts
(409) by endpoint; rate-limit refusals by limit.
"""

from __future__ import annotations

import hmac
import os
from pathlib import Path
from typing import Any

from flask import Flask, current_app, has_app_context

EXTENSION = "scorekeeper.metrics"
ENVIRONMENT_FOLDER = "PROMETHEUS_MULTIPROC_DIR"
FOLDER = "metrics"
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """The process's instruments, made once a process (see ``_instruments``)."""

    def __init__(self, folder: str, token: str) -> None:
        self.folder = folder
        self.token = token
        self.instruments = _instruments()

    def observe_request(self, endpoint: str, method: str, status: str, seconds: float) -> None:
        self.instruments["requests"].labels(endpoint, method, status).inc()
        self.instruments["latency"].labels(endpoint).observe(seconds)
        if status == "409":
            self.instruments["conflicts"].labels(endpoint).inc()

    def allows(self, authorization: str | None) -> bool:
        """Whether an ``Authorization`` header carries the token (compared in constant time)."""
        scheme, _space, offered = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            offered.strip().encode("utf-8"), self.token.encode("utf-8")
        )

    def exposition(self) -> tuple[bytes, str]:
        """Every process's values summed, in Prometheus's text format: (body, content type)."""
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
        from prometheus_client.multiprocess import MultiProcessCollector

        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=self.folder)
        return generate_latest(registry), CONTENT_TYPE_LATEST


_made: dict[str, Any] = {}
_folder: list[str] = []


def _choose_folder(instance: str) -> str:
    """The process's folder: the first app's (values already made stay where they are)."""
    if not _folder:
        folder = os.environ.get(ENVIRONMENT_FOLDER) or str(Path(instance) / FOLDER)
        os.makedirs(folder, exist_ok=True)
        # prometheus_client reads it when the first value is made, and when it is imported.
        os.environ[ENVIRONMENT_FOLDER] = folder
        _folder.append(folder)
    return _folder[0]


def _instruments() -> dict[str, Any]:
    if _made:
        return _made
    from prometheus_client import Counter, Histogram, values

    if not getattr(values.ValueClass, "_multiprocess", False):
        # Imported before the folder was set (by another library): switch to files now,
        # before any value of ours is made.
        values.ValueClass = values.MultiProcessValue()
    _made.update(
        requests=Counter(
            "scorekeeper_requests",
            "Requests answered, by endpoint, method and status.",
            ["endpoint", "method", "status"],
            registry=None,
        ),
        latency=Histogram(
            "scorekeeper_request_duration_seconds",
            "Time to answer a request, by endpoint.",
            ["endpoint"],
            buckets=BUCKETS,
            registry=None,
        ),
        renders=Counter("scorekeeper_pdf_renders", "PDF sheets rendered.", registry=None),
        render_refusals=Counter(
            "scorekeeper_pdf_refusals",
            "PDF sheets refused: busy (no free render slot) or rate_limited.",
            ["reason"],
            registry=None,
        ),
        render_waits=Counter(
            "scorekeeper_pdf_render_waits",
            "PDF sheets that found every render slot taken and waited for one.",
            registry=None,
        ),
        saves=Counter("scorekeeper_deal_saves", "Deals saved from the deal form.", registry=None),
        summaries_rebuilt=Counter(
            "scorekeeper_summaries_rebuilt",
            "Game summaries made again on reading: the stored one was missing or not current.",
            registry=None,
        ),
        conflicts=Counter(
            "scorekeeper_conflicts",
            "Answers 409 (changed meanwhile), by endpoint.",
            ["endpoint"],
            registry=None,
        ),
        rate_limited=Counter(
            "scorekeeper_rate_limited",
            "Requests refused with 429, by limit.",
            ["limit"],
            registry=None,
        ),
    )
    return _made


def init_app(app: Flask) -> None:
    token = app.config.get("METRICS_TOKEN")
    app.extensions[EXTENSION] = Metrics(_choose_folder(app.instance_path), token) if token else None


def of(app: Flask) -> Metrics | None:
    """The app's metrics; None when they are off."""
    found: Metrics | None = app.extensions.get(EXTENSION)
    return found


def count(name: str, *labels: str) -> None:
    """Add one to an instrument of the current app's metrics; nothing when they are off."""
    found = of(current_app) if has_app_context() else None
    if found is None:
        return
    instrument = found.instruments[name]
    (instrument.labels(*labels) if labels else instrument).inc()
