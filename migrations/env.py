"""Alembic environment for Flask-Migrate: run through ``flask --app scorekeeper db ...``.

The metadata is ``scorekeeper.extensions.Base.metadata``, with its naming convention, and the
configure arguments come from ``Migrate(render_as_batch=True)``, so that SQLite can alter tables.
"""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

config = context.config
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

migrate_extension = current_app.extensions["migrate"]
target_db = migrate_extension.db
config.set_main_option(
    "sqlalchemy.url",
    target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"),
)


def get_metadata():
    return target_db.metadatas[None]


def configure_args() -> dict:
    args = dict(migrate_extension.configure_args)
    args.setdefault("render_as_batch", True)
    return args


def run_migrations_offline() -> None:
    """Emit the SQL to standard output instead of running it."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=get_metadata(),
        literal_binds=True,
        **configure_args(),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    def process_revision_directives(context, revision, directives):
        # Write no revision file when autogenerate finds no change in the schema.
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    args = configure_args()
    args.setdefault("process_revision_directives", process_revision_directives)

    with target_db.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=get_metadata(), **args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
