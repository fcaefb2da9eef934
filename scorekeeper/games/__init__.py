"""Games: start one, enter its deals, and follow the score (models, forms, views)."""

from scorekeeper.games.views import bp

__all__ = ["bp"]
