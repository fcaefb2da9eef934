"""Small immutable values compared, hashed and shown by their fields.

The engine makes one or more of them at every action (plays, melds, draws), so they are plain
classes with their own `__init__` rather than frozen dataclasses: compiled (see `native`), a
frozen dataclass still builds each instance through the interpreter, ten times slower.
Their fields are `Final`: the type check refuses any assignment after `__init__`.
"""

from __future__ import annotations


class Value:
    """Equal to a value of the same class with equal fields; shown as its constructor call."""

    __slots__ = ()

    def fields(self) -> tuple[object, ...]:
        """The value's fields, in the order its constructor takes them."""
        return ()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Value)
            and type(other) is type(self)
            and other.fields() == self.fields()
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.fields()))})"
