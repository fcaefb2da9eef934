"""A process of its own that lays sheets out at a lower priority, one per process that renders.

The worker starts it with ``subprocess`` (``python -m scorekeeper.printing.render_process``),
not ``multiprocessing``: nothing is forked from a worker that may run threads, and no
resource tracker is left behind. Work goes over the child's stdin and comes back over its
stdout, one pickled frame each way, one piece of work at a time (callers take turns).

When the child dies (killed, out of memory), the call that meets it raises ``RendererGone``
and the dead process is reaped; the next call starts a new one. When the worker dies, the
child goes too: it stops at the end of its stdin, and a thread of its own watches its parent,
so that a child busy with a render does not outlive it either.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import IO, NoReturn, TypeVar

R = TypeVar("R")

FRAME_HEADER = struct.Struct(">Q")
PARENT_CHECK_SECONDS = 0.5
STOP_WAIT_SECONDS = 5


class RendererGone(RuntimeError):
    """The render process died before it answered: nothing was rendered."""


def _write_frame(stream: IO[bytes], payload: bytes) -> None:
    stream.write(FRAME_HEADER.pack(len(payload)) + payload)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    """``size`` bytes, or None when the stream ends first."""
    chunks = []
    while size:
        chunk = stream.read(size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read_frame(stream: IO[bytes]) -> bytes | None:
    header = _read_exactly(stream, FRAME_HEADER.size)
    if header is None:
        return None
    return _read_exactly(stream, FRAME_HEADER.unpack(header)[0])


class RenderProcess:
    """The child process and the pipes to it."""

    def __init__(self, nice: int) -> None:
        self.owner = os.getpid()
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(nice), str(self.owner)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def call(self, work: Callable[..., R], *args: object) -> R:
        """``work(*args)`` in the child; its exception raised here if it raised one."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            _write_frame(stdin, pickle.dumps((work, args)))
            answer = _read_frame(stdout)
        except (BrokenPipeError, ConnectionResetError):
            answer = None
        if answer is None:
            self.stop()
            raise RendererGone(f"the render process {self.pid} died")
        ok, value = pickle.loads(answer)
        if not ok:
            raise value
        result: R = value
        return result

    def stop(self) -> None:
        """End the child (its stdin closed, then killed if it lingers) and reap it."""
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with suppress(OSError):
                    stream.close()
        try:
            self.process.wait(timeout=STOP_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _answer(work: Callable[..., object], args: tuple[object, ...]) -> bytes:
    try:
        return pickle.dumps((True, work(*args)))
    except Exception as error:  # noqa: BLE001 (raised again in the worker)
        try:
            return pickle.dumps((False, error))
        except Exception:  # noqa: BLE001 (an exception that does not pickle)
            return pickle.dumps((False, RuntimeError(repr(error))))


def _leave_with_parent(parent: int) -> None:
    """Exit as soon as the process that started this one is gone (its child is re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def serve(nice: int, parent: int, requests: IO[bytes], answers: IO[bytes]) -> None:
    """Answer work until the requests end (the worker closed them, or died)."""
    if os.getppid() != parent:
        return
    threading.Thread(target=_leave_with_parent, args=(parent,), daemon=True).start()
    if nice > 0:
        os.nice(nice)
    while (request := _read_frame(requests)) is not None:
        work, args = pickle.loads(request)
        _write_frame(answers, _answer(work, args))


def main(argv: list[str]) -> NoReturn:
    nice, parent = (int(value) for value in argv)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    # Nothing printed by rendering may reach the worker's pipe.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(nice, parent, sys.stdin.buffer, answers)
    # At once: the interpreter's clean-up takes seconds at a low priority on a busy machine.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
