"""Hand and Foot score keeper: the application factory."""

import importlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response

from scorekeeper import (
    bounds,
    caching,
    connections,
    limits,
    operations,
    security,
    sessions,
    static_files,
)
from scorekeeper import config as settings
from scorekeeper.access import can_edit
from scorekeeper.backups import backup_cli
from scorekeeper.extensions import babel, csrf, db, migrate, select_locale
from scorekeeper.health.upgrade import db_upgrade_locked_command
from scorekeeper.history.demo import demo_season_command
from scorekeeper.live import feed, poll
from scorekeeper.operations import redact
from scorekeeper.public_url import PublicAddressFlask
from scorekeeper.sharing.panel import share_panel
from scorekeeper.store.links import remember_new_games
from scorekeeper.store.table_service import remember_new_tables
from scorekeeper.tables.cli import tables_cli
from scorekeeper.variant_texts import variant_text

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# Every blueprint of the app, by module; each module exposes its blueprint as ``bp``.
# One line per blueprint.
BLUEPRINTS = (
    "scorekeeper.errors.handlers",
    "scorekeeper.site.views",
    "scorekeeper.games.views",
    "scorekeeper.tables.views",
    "scorekeeper.history.views",
    "scorekeeper.sharing.views",
    "scorekeeper.play.views",
    "scorekeeper.house.views",
    "scorekeeper.sheets.views",
    "scorekeeper.api.views",
    "scorekeeper.api.docs",
    "scorekeeper.handbook.views",
    "scorekeeper.offline.views",
    "scorekeeper.trust.views",
    "scorekeeper.health.views",
)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Create and configure the app; ``config`` overrides every other setting."""
    app = PublicAddressFlask(
        __name__,
        instance_path=settings.instance_path(),
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)

    app.config.from_mapping(settings.defaults(app.instance_path))
    app.config.from_mapping(settings.from_environment())
    if config is not None:
        app.config.from_mapping(config)
    settings.complete(app.config, app.instance_path)

    bounds.init_app(app)
    db.init_app(app)
    connections.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    security.init_app(app)
    sessions.init_app(app)
    caching.init_app(app)
    limits.init_app(app)
    feed.init_app(app)
    poll.init_app(app)
    redact.init_app(app)
    static_files.init_app(app)
    operations.init_app(app)
    app.after_request(_keep_new_links)
    app.add_template_global(can_edit)
    app.add_template_global(share_panel)
    app.add_template_global(variant_text)

    for module_name in BLUEPRINTS:
        app.register_blueprint(importlib.import_module(module_name).bp)
    tables_cli.add_command(demo_season_command)
    app.cli.add_command(tables_cli)
    app.cli.add_command(db_upgrade_locked_command)
    app.cli.add_command(backup_cli)
    operations.wrap(app)

    return app


def _keep_new_links(response: Response) -> Response:
    """Whoever made a card table or a game in this request keeps its edit link (in the
    encrypted session)."""
    remember_new_tables()
    remember_new_games()
    return response
