"""Printable score sheets: blank ones for any variant and table, and filled ones of a game."""
