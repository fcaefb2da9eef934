"""The rules handbook: a page per variant, a quick reference, search and a comparison."""

from scorekeeper.handbook.views import bp

__all__ = ["bp"]
