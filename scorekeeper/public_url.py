"""The app's public address: every absolute URL the app makes starts with it.

The Host header is whatever the client sends: a link built from it (a share link, the QR code
of one, the API's ``edit_url``, a redirect) would point wherever a request said, for example at
``evil.example``. So the app builds its URLs from the address it is configured with
(SCOREKEEPER_PUBLIC_URL, config ``PUBLIC_URL``) and never from the request's host or scheme.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from flask import Flask, Request
from werkzeug.routing import MapAdapter

PUBLIC_URL_SETTING = "SCOREKEEPER_PUBLIC_URL"
DEFAULT_PUBLIC_URL = "http://127.0.0.1:5000"
"""Where the app is without a setting; ``make run`` sets this machine's network address
(``scorekeeper.serve``)."""
SCHEMES = ("http", "https")


@dataclass(frozen=True, slots=True)
class PublicAddress:
    scheme: str
    host: str
    """The host, with the port when there is one (``scores.example:8443``)."""

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}"


@lru_cache(maxsize=16)
def parse_public_url(value: str) -> PublicAddress:
    """The address in ``value`` (http or https, a host, an optional port, nothing after).

    Raises ValueError naming the setting: a wrong address stops the start, not a request.
    """
    parts = urlsplit(value.strip())
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if (
        parts.scheme not in SCHEMES
        or not parts.hostname
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or not port_ok
    ):
        raise ValueError(
            f"{PUBLIC_URL_SETTING} must be an address such as https://scores.example "
            f"(http or https, a host, an optional port, no path); not {value!r}"
        )
    return PublicAddress(parts.scheme, parts.netloc.lower())


def public_address(app: Flask) -> PublicAddress:
    return parse_public_url(app.config["PUBLIC_URL"])


class PublicAddressFlask(Flask):
    """Flask whose URL adapter takes host and scheme from the public address.

    ``url_for(..., _external=True)`` and the redirects of the URL map (a missing trailing
    slash) use the adapter, inside a request and outside one (the command line) alike. Routing
    still matches the request's own path; Flask's TRUSTED_HOSTS check, when configured, still
    runs first. The request keeps its own scheme, so ``request.is_secure`` stays true to the
    connection.
    """

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        adapter = super().create_url_adapter(request)
        address = public_address(self)
        if adapter is None:
            if request is not None:
                return None
            return self.url_map.bind(
                address.host,
                script_name=self.config["APPLICATION_ROOT"],
                url_scheme=address.scheme,
            )
        return self.url_map.bind(
            address.host,
            script_name=adapter.script_name,
            subdomain=adapter.subdomain,
            url_scheme=address.scheme,
            default_method=adapter.default_method,
            path_info=adapter.path_info,
            query_args=adapter.query_args,
        )
