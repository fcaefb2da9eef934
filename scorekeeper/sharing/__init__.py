"""Sharing games: view and edit links (capability tokens), who may change what, QR codes, the
live scoreboard's poll, and export and import of games as JSON.

The blueprint lives in ``sharing.views`` (registered by the factory from there), so that the
games service can issue tokens without importing any view.
"""
