"""Error pages for people, error bodies for /api/ clients."""

from scorekeeper.errors.handlers import bp

__all__ = ["bp"]
