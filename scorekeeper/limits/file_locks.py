"""Whether another process of the machine holds a lock file: the sign, shared by every worker,
that a job or a waiting request is still alive."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def held_elsewhere(path: Path) -> bool | None:
    """Whether a process holds `path` locked (None where the file is gone). A shared lock is
    tried and let go at once: only another's exclusive lock refuses it."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)  # closing releases a lock just taken
    return False
