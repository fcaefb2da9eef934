"""The operator's backups: ``flask --app scorekeeper backup create PATH | restore PATH``.

SQLite is copied through its online backup API: one consistent snapshot taken while the app
runs and writes, the write-ahead log included (a plain copy of the file misses what the log
still holds). PostgreSQL is dumped with ``pg_dump`` (custom format) and restored with
``pg_restore``, from Debian's ``postgresql-client``. A backup is written beside PATH first and
renamed into place once whole, so PATH is never a half-written file.

The database is not all there is to keep: the secret key encrypts the sessions, which hold the
links of every browser's games and tables, so the commands say where it is.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup
from sqlalchemy import func, inspect, select
from sqlalchemy.engine import URL

from scorekeeper.extensions import db
from scorekeeper.store.games import Game

backup_cli = AppGroup("backup", help="Back the database up, or restore it from a backup.")

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
SQLITE_BUSY_SECONDS = 15.0
POSTGRESQL_CLIENT = "Debian's postgresql-client package (apt-get install postgresql-client)"


class BackupError(click.ClickException):
    """A backup or restore that cannot be done; its message says why and changes nothing."""


@backup_cli.command("create")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def create_command(path: Path) -> None:
    """Write a consistent copy of the database to PATH, while the app keeps running."""
    url = db.engine.url
    partial = path.with_name(path.name + ".partial")
    try:
        if url.get_backend_name() == "sqlite":
            copy_sqlite(_sqlite_file(url), partial)
        elif url.get_backend_name() == "postgresql":
            dump_postgresql(url, partial)
        else:
            raise BackupError(f"Backups of {url.get_backend_name()} databases are not supported.")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    click.echo(f"Backed up the database to {path}.")
    click.echo(keep_the_secret_key(current_app.config))


@backup_cli.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace a database that already holds games.")
def restore_command(path: Path, force: bool) -> None:
    """Replace the database with the backup at PATH (refused over games unless --force)."""
    url = db.engine.url
    kind = backup_kind(path)
    backend = url.get_backend_name()
    if kind != backend:
        raise BackupError(
            f"{path} is not a backup of a {backend} database"
            + (f" (it is a {kind} backup)." if kind else ".")
        )
    games = games_held()
    if games and not force:
        raise BackupError(
            f"The database holds {games} game(s): restoring would replace them. "
            "Add --force to replace them with the backup."
        )
    db.session.remove()
    db.engine.dispose()
    if backend == "sqlite":
        restore_sqlite(path, _sqlite_file(url))
    else:
        restore_postgresql(url, path)
    db.engine.dispose()
    click.echo(f"Restored the database from {path}: {games_held()} game(s).")
    click.echo(keep_the_secret_key(current_app.config, restoring=True))


def games_held() -> int:
    """Games in the app's database; 0 when it has no tables yet."""
    if not inspect(db.engine).has_table(Game.__tablename__):
        return 0
    try:
        return db.session.scalar(select(func.count()).select_from(Game)) or 0
    finally:
        db.session.remove()


def backup_kind(path: Path) -> str | None:
    """``"sqlite"`` or ``"postgresql"`` from the file's first bytes; None for anything else."""
    with path.open("rb") as handle:
        head = handle.read(len(SQLITE_MAGIC))
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    return None


def keep_the_secret_key(config: Mapping[str, object], *, restoring: bool = False) -> str:
    """Where the secret key is, and why it belongs with the backup."""
    origin = config.get("SECRET_KEY_ORIGIN", "the app's configuration (SECRET_KEY)")
    if restoring:
        return (
            f"The secret key is {origin}: it must be the one of the backed-up server, "
            "or browsers lose the games and tables their sessions held."
        )
    return (
        f"Keep the secret key with this backup: it is {origin}. Without it, a restored "
        "server cannot read the sessions, and browsers lose the games and tables they held."
    )


def _sqlite_file(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("The database is in memory: there is nothing to back up.")
    return Path(url.database)


def copy_sqlite(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` in one step of SQLite's backup API: one snapshot, taken
    under a read transaction, so writers go on meanwhile (the write-ahead log) and the copy
    is consistent."""
    if not source.exists():
        raise BackupError(f"There is no database at {source}.")
    target.unlink(missing_ok=True)
    with _sqlite(source) as origin, _sqlite(target) as copy:
        origin.backup(copy, pages=-1)
        copy.execute("PRAGMA journal_mode = DELETE")  # the copy is one file, with no log
    _fsync(target)


def restore_sqlite(backup: Path, database: Path) -> None:
    """Write ``backup`` over ``database`` through the backup API, as one transaction: other
    connections see the old database or the restored one, never a mixture."""
    with _sqlite(backup) as origin:
        verdict = origin.execute("PRAGMA integrity_check").fetchone()
        if not verdict or verdict[0] != "ok":
            raise BackupError(f"{backup} is damaged: SQLite's integrity check failed.")
        with _sqlite(database) as live:
            origin.backup(live, pages=-1)
            live.execute("PRAGMA journal_mode = WAL")


def _sqlite(path: Path) -> closing[sqlite3.Connection]:
    """A connection in autocommit mode, closed when its ``with`` block ends."""
    return closing(sqlite3.connect(path, timeout=SQLITE_BUSY_SECONDS, isolation_level=None))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def dump_postgresql(url: URL, target: Path) -> None:
    """``pg_dump`` of the whole database, in the custom format ``pg_restore`` reads; one
    snapshot (pg_dump's own transaction), taken while the app goes on writing."""
    _run_client("pg_dump", ["--format=custom", "--no-owner", "--no-acl", f"--file={target}"], url)
    _fsync(target)


def restore_postgresql(url: URL, backup: Path) -> None:
    """Drop what the backup holds and create it again, all in one transaction."""
    _run_client(
        "pg_restore",
        [
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-acl",
            "--single-transaction",
            "--exit-on-error",
            str(backup),
        ],
        url,
    )


def _run_client(program: str, arguments: list[str], url: URL) -> None:
    """Run a PostgreSQL client on the app's database; the password goes through the
    environment, never the command line (which any user may read)."""
    executable = shutil.which(program)
    if executable is None:
        raise BackupError(
            f"{program} is not installed: it comes with {POSTGRESQL_CLIENT}, "
            "and should be of the server's major version or newer."
        )
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    conninfo = url.set(drivername="postgresql", password=None).render_as_string()
    result = subprocess.run(
        [executable, f"--dbname={conninfo}", *arguments],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise BackupError(f"{program} failed: {result.stderr.strip() or result.returncode}")
