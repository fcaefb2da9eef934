"""Which tests touch a database: every statement sent to one while a test sets up and runs.

The PostgreSQL run of `make test` leaves out the tests marked ``no_database`` (pages made from
the rules alone, static files, the handbook...): on PostgreSQL they would check nothing more.
That is right only while they send no statement, so a test so marked fails when it sends one,
on SQLite as on PostgreSQL. Making the tables of a test's app (``make_test_app``) and emptying
the server database between tests are not the test's own use: they run ``paused()``.

Each test's count is in its report (``user_properties``, ``database_statements``; pytest's
``--junitxml`` writes it out), which shows the tests that could be marked.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


class DatabaseUse:
    """The statements sent since the current test started, by any engine in this process."""

    statements: list[str] = []
    paused_depth = 0

    @classmethod
    def start(cls) -> None:
        cls.statements = []

    @classmethod
    @contextmanager
    def paused(cls) -> Iterator[None]:
        """Statements sent meanwhile are not counted."""
        cls.paused_depth += 1
        try:
            yield
        finally:
            cls.paused_depth -= 1


@event.listens_for(Engine, "before_cursor_execute")
def _count_statement(
    _connection: Any, _cursor: Any, statement: str, *_args: Any, **_kwargs: Any
) -> None:
    if not DatabaseUse.paused_depth:
        DatabaseUse.statements.append(statement)
