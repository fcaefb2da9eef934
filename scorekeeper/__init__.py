"""Hand and Foot score keeper: the application factory."""

import importlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper import config as settings
from scorekeeper import connections, limits, security
from scorekeeper.extensions import babel, csrf, db, migrate, select_locale

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# Every blueprint of the app, by module; each module exposes its blueprint as ``bp``.
# One line per blueprint.
BLUEPRINTS = (
    "scorekeeper.errors",
    "scorekeeper.site",
    "scorekeeper.games",
    "scorekeeper.sharing.views",
    "scorekeeper.play",
    "scorekeeper.house",
    "scorekeeper.sheets",
    "scorekeeper.api",
    "scorekeeper.handbook",
)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Create and configure the app; ``config`` overrides every other setting."""
    app = Flask(
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

    db.init_app(app)
    connections.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    security.init_app(app)
    limits.init_app(app)

    for module_name in BLUEPRINTS:
        app.register_blueprint(importlib.import_module(module_name).bp)

    return app
