"""Tables: the groups of people who play together. A table owns its games and house rules, and
is reached through its own links, as a game is (view and edit)."""
