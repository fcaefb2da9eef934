"""What one part of the app tells the others without importing them (blinker signals).

A blueprint that sends a signal does not know who listens; a listener connects when its module
is imported by the application factory.
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

last_deal_saved = _signals.signal("last-deal-saved")
"""Sent, with ``game_id``, in the request that saved a game's last deal for the first time:
the game may now be finished. Sent after the commit."""
