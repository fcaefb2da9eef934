"""Sharing games, built on the games package (which never imports this one): new links, QR
codes, the share panel, the live scoreboard's poll and its feed, and export and import of games
as JSON. ``create_app`` wires the poll, the feed and the log filter in."""
