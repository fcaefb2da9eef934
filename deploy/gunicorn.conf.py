"""gunicorn's settings in the image: the app's own (``scorekeeper/gunicorn_conf.py``: threaded
workers that slow clients cannot hold), with the image's address, workers and shutdown.
``GUNICORN_CMD_ARGS`` overrides any of them, such as ``--workers 4`` or
``--bind 127.0.0.1:8001``.
"""

import os

from scorekeeper.gunicorn_conf import keepalive, threads, worker_class, worker_connections

__all__ = ["keepalive", "threads", "worker_class", "worker_connections"]

bind = [f"0.0.0.0:{os.environ.get('PORT', '8000')}"]
workers = 2
# The scheme and the client's address come from the app's own settings (the public address,
# the proxies it trusts), never from headers that gunicorn would trust by itself.
forwarded_allow_ips = ""
# No access log: its lines would carry the links' tokens; the app logs requests without them.
# Let a request in progress finish when the container is stopped (docker's default wait is 10 s).
graceful_timeout = 8
