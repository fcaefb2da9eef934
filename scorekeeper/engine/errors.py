"""Why an action is refused: a reason a player can read, and the exception that carries it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..rules.messages import Message

if TYPE_CHECKING:
    from .actions import Action


@dataclass(frozen=True, slots=True)
class Reason(Message):
    """One broken rule: a short key for programs and a message for players.

    A `Message` like the rules core's problems, so a refusal renders wholly in the reader's
    language the same way.
    """

    rule: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)


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
