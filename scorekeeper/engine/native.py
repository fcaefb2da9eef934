"""The engine's compiled build: its hot modules compiled to C by mypyc, used only while it
was built from the sources beside it.

`make` builds it under `build/native/` of the checkout (`python -m
scorekeeper.engine.build_native`), with a digest of the sources it was compiled from. On
import, the engine package puts that build first on its own path when the digest equals
the current sources', so an engine module edited since is never shadowed by an older
compiled one: the engine then runs as the plain Python it is written in. The two play
alike, decision for decision (the tests that fix the bots' choices run on both).
`SCOREKEEPER_ENGINE=python` keeps the compiled build out.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_DIR = PACKAGE_DIR.parent.parent / "build" / "native"
"""Where the compiled build goes: outside the package, so a stale build is never imported."""

COMPILED = (
    "actions",
    "bots",
    "cards",
    "chance",
    "conventions",
    "game",
    "going_out",
    "legal",
    "melds",
    "play_shapes",
    "reasons",
    "state",
    "values",
)
"""The engine modules compiled: those a deal's play runs through (and the base of its
values, which the digest must follow too)."""

GROUP = "scorekeeper.engine._native"
"""The shared library of the compiled modules, inside the package's path."""

DIGEST_FILE = "sources.sha256"


def sources_digest() -> str:
    """A digest of the compiled modules' sources, as they are now."""
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update(name.encode())
        digest.update((PACKAGE_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def compiled_dir() -> Path:
    return BUILD_DIR / "scorekeeper" / "engine"


def usable_build() -> Path | None:
    """The compiled build's directory when it may be used: built from these very sources,
    and not turned off by `SCOREKEEPER_ENGINE=python`."""
    if os.environ.get("SCOREKEEPER_ENGINE", "") == "python":
        return None
    try:
        built_from = (BUILD_DIR / DIGEST_FILE).read_text().strip()
    except OSError:
        return None
    return compiled_dir() if built_from == sources_digest() else None


def engine_build() -> str:
    """Which engine runs in this process: "compiled" or "python"."""
    from . import state

    return "compiled" if Path(state.__file__ or "").suffix != ".py" else "python"


def engine_build_words() -> str:
    """Which engine runs, and why, for a benchmark to print beside its figures."""
    if engine_build() == "compiled":
        return "compiled by mypyc (build/native)"
    if os.environ.get("SCOREKEEPER_ENGINE") == "python":
        return "plain Python (SCOREKEEPER_ENGINE=python)"
    return "plain Python (no compiled build of these sources: make engine-native)"
