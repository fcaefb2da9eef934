"""The image's HEALTHCHECK: exits 0 when the server on this container's PORT is ready
(``/readyz`` answers 200), 1 otherwise. Python's own library: the image has no curl."""

import os
import sys
import urllib.error
import urllib.request

URL = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/readyz"

try:
    with urllib.request.urlopen(URL, timeout=4) as answer:
        sys.exit(0 if answer.status == 200 else 1)
except (OSError, urllib.error.URLError) as error:
    print(f"{URL}: {error}", file=sys.stderr)
    sys.exit(1)
