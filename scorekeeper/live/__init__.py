"""How a game's changes reach whoever watches it: the version each process keeps per link
(``poll``), answered in front of the app when memory vouches for it (``poll_front``), and on
PostgreSQL the feed of changed games (``feed``, LISTEN/NOTIFY). The pages' poll (``sharing``) and
the API's event stream (``api``) both read it."""
