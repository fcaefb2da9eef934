"""Sheets kept on disk, in the instance folder's ``sheets/``: a cache every worker shares.

A PDF is kept by the digest of the HTML it was rendered from, and a shape's row height by the
digest of the shortened page that was measured for it: whichever worker made them, any other
worker of the machine sends the same page again without laying anything out. Nothing here is
required: a file missing, unreadable or removed is made again (other machines on the same
database keep their own; a game's sheet is also kept in the database for every server,
``store.kept_sheets``). Files are written whole (a temporary file renamed into place), and
the least recently written go when there are more than ``MOST_FILES``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from contextlib import suppress
from pathlib import Path

FOLDER = "sheets"
MOST_FILES = 400
PDF_SUFFIX = ".pdf"
ROW_SUFFIX = ".row"

log = logging.getLogger(__name__)


def digest_of(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()[:32]


class KeptSheets:
    """The folder of kept PDFs and row heights."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def _read(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def _write(self, name: str, body: bytes) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".part-")
            with os.fdopen(handle, "wb") as stream:
                stream.write(body)
            os.replace(temporary, self.folder / name)
            self._trim()
        except OSError as error:
            log.warning("A sheet could not be kept in %s: %s", self.folder, error)

    def _trim(self) -> None:
        """Remove the least recently written files beyond ``MOST_FILES``."""
        entries = [entry for entry in os.scandir(self.folder) if not entry.name.startswith(".")]
        if len(entries) <= MOST_FILES:
            return
        entries.sort(key=lambda entry: entry.stat().st_mtime)
        for entry in entries[: len(entries) - MOST_FILES]:
            with suppress(FileNotFoundError):  # another worker trimmed it first
                os.unlink(entry.path)

    def pdf(self, digest: str) -> bytes | None:
        body = self._read(digest + PDF_SUFFIX)
        return body if body and body.startswith(b"%PDF-") else None

    def keep_pdf(self, digest: str, body: bytes) -> None:
        self._write(digest + PDF_SUFFIX, body)

    def row_pt(self, measure_html: str) -> float | None:
        stored = self._read(digest_of(measure_html) + ROW_SUFFIX)
        try:
            return float(stored) if stored else None
        except ValueError:
            return None

    def keep_row_pt(self, measure_html: str, row_pt: float) -> None:
        self._write(digest_of(measure_html) + ROW_SUFFIX, repr(row_pt).encode())
