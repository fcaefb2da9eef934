"""What the app keeps, below every blueprint: the models, their queries and their writes.

- ``tables``, ``games``, ``players``, ``house``: the SQLAlchemy models (card tables; games, their
  sides and deals; the players of a table; a table's house rules);
- ``game_service``, ``deal_writes``, ``scores``, ``links``: a game loaded, started, scored, and
  its deals written under the game's version; the capability links that open it;
- ``table_service``, ``holdings``, ``people``, ``catalogue``, ``house_rules``: the tables a
  browser holds, the players of a table, the rules a table may play;
- ``summaries``, ``tallies``, ``table_statistics``, ``export``, ``transfer``: a table's
  statistics (its games' summaries, and its numbers over all of them, changed with every change
  to a game), its CSV, and games moved between servers as JSON.

The store imports the rules core and shared infrastructure, never a blueprint: every blueprint
reads and writes through it.
"""
