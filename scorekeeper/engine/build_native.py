"""Builds the engine's compiled modules (see `native`) with mypyc, under `build/native/`.

    python -m scorekeeper.engine.build_native

Needs mypy (the test extras) and a C compiler. The digest of the sources is written last, so
a build that fails half-way is never used; the engine runs as plain Python meanwhile.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

from .native import BUILD_DIR, COMPILED, DIGEST_FILE, GROUP, PACKAGE_DIR, sources_digest


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    root = PACKAGE_DIR.parent.parent
    os.chdir(root)  # mypyc names the modules from their paths, relative to the checkout
    shutil.rmtree(BUILD_DIR, ignore_errors=True)
    BUILD_DIR.mkdir(parents=True)
    digest = sources_digest()
    paths = [str((PACKAGE_DIR / f"{name}.py").relative_to(root)) for name in COMPILED]
    with tempfile.TemporaryDirectory() as temp:
        setup(
            name="scorekeeper-engine-native",
            ext_modules=mypycify(paths, group_name=GROUP, target_dir=f"{temp}/c"),
            script_args=["--quiet", "build_ext", "--build-lib", str(BUILD_DIR)]
            + ["--build-temp", temp],
        )
    (BUILD_DIR / DIGEST_FILE).write_text(digest + "\n")


if __name__ == "__main__":
    build()
    sys.exit(0)
