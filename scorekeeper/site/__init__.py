"""Site-wide pieces that belong to no one area: the language switch."""

from scorekeeper.site.views import bp

__all__ = ["bp"]
