"""The engine in the app: the meld checker and demo games played by bots."""

from .views import bp

__all__ = ["bp"]
