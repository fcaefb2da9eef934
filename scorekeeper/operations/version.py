"""The version of the installed package (pyproject.toml's ``version``)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "scorekeeper"


@cache
def app_version() -> str:
    """Such as ``1.0.0``; ``unknown`` when the package is not installed (run from a copy)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"
