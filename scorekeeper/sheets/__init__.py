"""Printable score sheets: blank ones for any variant and table, and filled ones of a game."""

from scorekeeper.sheets.views import bp

__all__ = ["bp"]
