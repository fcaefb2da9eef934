"""Why an action is refused: a reason a player can read, and the exception that carries it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..rules.messages import Phrase, Term

if TYPE_CHECKING:
    from .actions import Action


@dataclass(frozen=True, slots=True)
class Reason:
    """One broken rule: a short key for programs and an English template for players.

    Templates are marked for translation like the rules core's messages, and the words put
    into them are the same translated `Term` and `Phrase` values, so that a sentence is
    wholly in the reader's language.
    """

    rule: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.render(lambda text: text)

    def render(self, translate: Callable[[str], str]) -> str:
        """The sentence in a language, given its gettext function: the template and every
        word inside it (a `Term`, a `Phrase`, another `Reason`) in that language."""
        values = {
            key: value.render(translate)
            if isinstance(value, Reason | Phrase)
            else translate(value)
            if isinstance(value, Term)
            else value
            for key, value in self.params.items()
        }
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.message


class IllegalAction(ValueError):
    """The action breaks a rule; the message says which, in a player's words."""

    def __init__(self, action: Action, reason: Reason) -> None:
        super().__init__(reason.message)
        self.action = action
        self.reason = reason

    @property
    def rule(self) -> str:
        return self.reason.rule


class TurnCapReached(RuntimeError):
    """A simulated deal ran past the turn cap: a bot or the engine is going round in circles."""
