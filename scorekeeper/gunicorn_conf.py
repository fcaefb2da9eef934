"""gunicorn's settings for the app: ``gunicorn -c python:scorekeeper.gunicorn_conf``.

``make run`` (``scorekeeper.serve``) and production use the same settings; the command line
adds the address (``--bind``) and may change the number of workers.

Slow clients must not hold the server: a connection that sends its request a byte at a time
keeps whatever reads it busy until the request is whole. With gunicorn's sync workers four
such connections took all four workers. Here each worker reads requests in threads
(``gthread``), and takes no more connections than it has threads (``worker_connections``):
a worker whose threads are all taken stops accepting, so a new request goes to a worker with
a thread free and is never queued behind a slow one. Four workers of 32 threads hold 128
connections at once; beyond that, connections wait in the listening socket's backlog.

The price is keep-alive: a worker with no connection to spare closes each connection after
its answer (phones on the table's network open a new one in a millisecond or two).

What a worker keeps in memory is shared by its threads and guarded by locks: the caches of
sheets, charts and summaries, the poll's versions, the render process (one render at a time
per worker). Database sessions are one per request (Flask-SQLAlchemy's scoped session).
"""

from __future__ import annotations

wsgi_app = "scorekeeper:create_app()"
worker_class = "gthread"
workers = 4
"""About two a core on two cores; ``--workers`` overrides it."""
threads = 32
worker_connections = threads
"""No more connections than threads: a slow client never has a new request wait behind it."""
keepalive = 0
"""A connection is closed after its answer (see above): none is kept open without a thread."""
