"""What the server's operator reads: request ids, log lines, Prometheus metrics, the version.

- ``requests``: WSGI middleware around the whole app: a request id for every request (the
  proxy's ``X-Request-ID`` when it is sane and the proxy trusted, else a new one), sent back as
  ``X-Request-ID``, and each request counted and timed by endpoint;
- ``logs``: log lines as JSON or text (``SCOREKEEPER_LOG_FORMAT``, ``SCOREKEEPER_LOG_LEVEL``),
  with the request id, tokens redacted;
- ``metrics``: the counters and histograms, shared by every gunicorn worker through files in
  the instance folder (prometheus_client's multiprocess mode), at ``/metrics``;
- ``version``: the version of the installed package, shown in the page footer and by
  ``flask --app scorekeeper version``.
"""

from __future__ import annotations

import click
from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.operations import logs, metrics, requests
from scorekeeper.operations.version import app_version


def init_app(app: Flask) -> None:
    """Logs and metrics as configured, the version in every template and as a command."""
    logs.init_app(app)
    metrics.init_app(app)
    app.add_template_global(app_version)
    app.cli.add_command(version_command)


def wrap(app: Flask) -> None:
    """Put the request layer, then ``ProxyFix``, in front of everything else the app has:
    requests answered early (the poll from memory) are counted too, and every layer sees the
    client's address. Called last in ``create_app``."""
    app.wsgi_app = requests.RequestLayer(app.wsgi_app, app)  # type: ignore[method-assign]
    proxies = app.config["TRUSTED_PROXIES"]
    if proxies:
        # The client's address only. Not X-Forwarded-Proto: a request that counted as secure
        # would make Flask-WTF ask for a Referer, which ``Referrer-Policy: no-referrer``
        # keeps browsers from sending; addresses come from SCOREKEEPER_PUBLIC_URL anyway.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=0
        )


@click.command("version")
def version_command() -> None:
    """Print the version of the score keeper."""
    click.echo(app_version())
