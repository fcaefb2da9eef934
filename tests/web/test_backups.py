"""``flask backup create PATH`` and ``flask backup restore PATH``, on SQLite and PostgreSQL.

A backup is taken while a thread keeps saving deals through the deal form: every save
acknowledged before the backup began must be in it, and a restore into a fresh database gives
them back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from game_helpers import Links, save, start_game
from server_database import ServerDatabase
from sqlalchemy import create_engine, func, make_url, select, text

from scorekeeper import create_app
from scorekeeper.backups import BackupError, dump_postgresql
from scorekeeper.extensions import db
from scorekeeper.store.games import Deal, Game

GAMES = 3
DEALS_PER_GAME = 4
SAVES_BEFORE_BACKUP = 24
SAVES_AFTER_BACKUP = 12
WAIT_SECONDS = 120


class SaveStream:
    """A thread saving deals (new ones, then edits of them) round the games until stopped;
    the version of each deal as its last acknowledged save left it."""

    def __init__(self, app: Flask, games: list[Links]) -> None:
        self.client = app.test_client()
        self.games = games
        self.acked: dict[tuple[int, int], int] = {}
        self.saves = 0
        self.failure: str | None = None
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> SaveStream:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(WAIT_SECONDS)

    def _run(self) -> None:
        step = 0
        while not self.stopping.is_set():
            links = self.games[step % len(self.games)]
            number = step // len(self.games) % DEALS_PER_GAME + 1
            key = (links.game_id, number)
            version = self.acked.get(key, 0)
            response = save(self.client, links, number, version)
            with self.changed:
                if response.status_code != 303:
                    self.failure = f"save {key} at version {version}: {response.status_code}"
                    self.changed.notify_all()
                    return
                self.acked[key] = version + 1
                self.saves += 1
                self.changed.notify_all()
            step += 1

    def wait_for(self, saves: int) -> None:
        with self.changed:
            reached = self.changed.wait_for(
                lambda: self.failure is not None or self.saves >= saves, WAIT_SECONDS
            )
        assert self.failure is None, self.failure
        assert reached, f"only {self.saves} saves"

    def snapshot(self) -> tuple[int, dict[tuple[int, int], int]]:
        with self.changed:
            return self.saves, dict(self.acked)


@pytest.fixture
def fresh_database_url(tmp_path: Path) -> Iterator[str]:
    """A database with nothing in it, besides the test's own: a new SQLite file, or a new
    database on the test server."""
    if ServerDatabase.url is None:
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    name = f"{ServerDatabase.url.database}_restored"
    admin = create_engine(ServerDatabase.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield ServerDatabase.url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def deal_versions(app: Flask) -> dict[tuple[int, int], int]:
    with app.app_context():
        rows = db.session.execute(select(Deal.game_id, Deal.number, Deal.version)).all()
        db.session.remove()
    return {(game_id, number): version for game_id, number, version in rows}


def game_count(app: Flask) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Game)) or 0
        db.session.remove()
    return count


def test_a_backup_during_saves_holds_every_acknowledged_save_and_restores_them(
    app: Flask, make_app: Callable[..., Flask], fresh_database_url: str, tmp_path: Path
) -> None:
    client = app.test_client()
    games = [start_game(app, client, name=f"Table {number}") for number in range(GAMES)]
    backup = tmp_path / "scores.backup"

    with SaveStream(app, games) as stream:
        stream.wait_for(SAVES_BEFORE_BACKUP)
        saves_before, acked_before = stream.snapshot()
        result = app.test_cli_runner().invoke(args=["backup", "create", str(backup)])
        stream.wait_for(stream.snapshot()[0] + SAVES_AFTER_BACKUP)  # the saves went on

    assert result.exit_code == 0, result.output
    assert f"Backed up the database to {backup}." in result.output
    assert "Keep the secret key with this backup" in result.output
    assert not backup.with_name(backup.name + ".partial").exists()

    restored = make_app(tables=False, SQLALCHEMY_DATABASE_URI=fresh_database_url)
    result = restored.test_cli_runner().invoke(args=["backup", "restore", str(backup)])

    assert result.exit_code == 0, result.output
    assert f"Restored the database from {backup}: {GAMES} game(s)." in result.output
    versions = deal_versions(restored)
    assert saves_before >= SAVES_BEFORE_BACKUP
    missing = {
        key: version for key, version in acked_before.items() if versions.get(key, 0) < version
    }
    assert missing == {}, f"acknowledged before the backup, not in it: {missing}"
    assert game_count(restored) == GAMES
    # The restored games are served as they were: a scoreboard by its view link.
    page = restored.test_client().get(games[0].view_path)
    assert page.status_code == 200
    assert "Table 0" in page.get_data(as_text=True)


def test_a_restore_over_games_is_refused_unless_forced(
    app: Flask, make_app: Callable[..., Flask], fresh_database_url: str, tmp_path: Path
) -> None:
    client = app.test_client()
    kept = start_game(app, client, name="Kept")
    backup = tmp_path / "one-game.backup"
    assert app.test_cli_runner().invoke(args=["backup", "create", str(backup)]).exit_code == 0
    start_game(app, client, name="Made after the backup")

    refused = app.test_cli_runner().invoke(args=["backup", "restore", str(backup)])

    assert refused.exit_code == 1
    assert "The database holds 2 game(s)" in refused.output
    assert "--force" in refused.output
    assert game_count(app) == 2

    forced = app.test_cli_runner().invoke(args=["backup", "restore", "--force", str(backup)])

    assert forced.exit_code == 0, forced.output
    assert "1 game(s)" in forced.output
    assert game_count(app) == 1
    assert app.test_client().get(kept.view_path).status_code == 200


def test_a_restore_refuses_a_file_that_is_no_backup_of_this_database(
    app: Flask, tmp_path: Path
) -> None:
    start_game(app, app.test_client())
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database")

    result = app.test_cli_runner().invoke(args=["backup", "restore", "--force", str(notes)])

    assert result.exit_code == 1
    backend = "postgresql" if ServerDatabase.url is not None else "sqlite"
    assert f"{notes} is not a backup of a {backend} database." in result.output
    assert game_count(app) == 1


def test_the_backup_names_the_secret_key_file_to_keep(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    key_file = tmp_path / "instance" / "secret_key"
    key_file.parent.mkdir()
    key_file.write_text("made-by-this-server\n")
    app = make_app(SECRET_KEY="")
    backup = tmp_path / "scores.backup"

    result = app.test_cli_runner().invoke(args=["backup", "create", str(backup)])

    assert result.exit_code == 0, result.output
    assert app.secret_key == "made-by-this-server"
    assert f"Keep the secret key with this backup: it is in the file {key_file}." in result.output


def test_the_backup_names_the_secret_key_setting_to_keep(
    database_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "kept-elsewhere")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        db.create_all()

    try:
        result = app.test_cli_runner().invoke(args=["backup", "create", str(tmp_path / "b")])
    finally:
        with app.app_context():
            db.engine.dispose()

    assert result.exit_code == 0, result.output
    assert "it is the SCOREKEEPER_SECRET_KEY setting." in result.output


def test_without_pg_dump_the_backup_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a folder without pg_dump

    with pytest.raises(BackupError) as refused:
        dump_postgresql(make_url("postgresql+psycopg://someone@db.example/scores"), tmp_path / "x")

    assert "pg_dump is not installed" in refused.value.message
    assert "postgresql-client" in refused.value.message
