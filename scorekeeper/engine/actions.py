"""The actions a player takes on their turn, as small immutable values.

A turn is: lay down red threes (whenever one is held; where the rules pay for it, a red three
may go onto a clean book instead), pick up the foot (whenever the hand is
empty), draw from the stock or take the discard pile, meld, and discard one card. Asking
the partner for leave to go out is an action of its own where the variant calls for it.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from .cards import Face
from .values import Value


class Play(Value):
    """Cards put on the table in one place: a new meld, or added to one of the side's melds.

    `rank` is the meld's rank: a natural face (ace to four), `Face.BLACK_THREE` where black
    threes form melds, or None for an all-wild meld. `onto` is the index of the side's meld
    the cards are added to (melds of the same action count, in order); None starts a new meld.
    """

    __slots__ = ("rank", "naturals", "twos", "jokers", "onto")

    def __init__(
        self,
        rank: Face | None,
        naturals: int = 0,
        twos: int = 0,
        jokers: int = 0,
        onto: int | None = None,
    ) -> None:
        self.rank: Final = rank
        self.naturals: Final = naturals
        self.twos: Final = twos
        self.jokers: Final = jokers
        self.onto: Final = onto

    def fields(self) -> tuple[object, ...]:
        return (self.rank, self.naturals, self.twos, self.jokers, self.onto)

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    def __str__(self) -> str:
        parts = []
        if self.naturals and self.rank is not None:
            parts.append(f"{self.naturals}x{self.rank.symbol}")
        if self.twos:
            parts.append(f"{self.twos}x2")
        if self.jokers:
            parts.append(f"{self.jokers}xJK")
        where = "new meld" if self.onto is None else f"onto meld {self.onto}"
        return f"{' '.join(parts) or 'nothing'} ({where})"


class LayRedThrees(Value):
    """Lay every red three held face up and draw a replacement for each."""

    __slots__ = ()

    def __str__(self) -> str:
        return "lay down red threes"


class AddRedThree(Value):
    """Add a red three from the hand to one of the side's clean books, for its bonus
    (``book_bonus.lady``: the HANDnFOOT pack's ladies). `onto` is the book's meld index.

    Where red threes are laid down at once, a red three held may go onto a clean book
    instead (it is not replaced); where they never are, adding one is a play of the turn.
    """

    __slots__ = ("onto",)

    def __init__(self, onto: int) -> None:
        self.onto: Final = onto

    def fields(self) -> tuple[object, ...]:
        return (self.onto,)

    def __str__(self) -> str:
        return f"add a red three onto meld {self.onto}"


class PickUpFoot(Value):
    """Take up the foot once every card of the hand has been played."""

    __slots__ = ()

    def __str__(self) -> str:
        return "pick up the foot"


class Draw(Value):
    """Draw the deal's cards from the stock (two in most rules): `piles` says which stock
    pile each card comes from, one index a card; empty: every card from the first pile."""

    __slots__ = ("piles",)

    def __init__(self, piles: tuple[int, ...] = ()) -> None:
        self.piles: Final = piles

    def fields(self) -> tuple[object, ...]:
        return (self.piles,)

    def __str__(self) -> str:
        if not any(self.piles):
            return "draw"
        return "draw from piles " + ", ".join(str(index + 1) for index in self.piles)


class TakePile(Value):
    """Take the discard pile, melding its top card at once with `plays`.

    The plays count the top card among their cards (so a new meld of the top card's rank
    from two held cards is `Play(rank, naturals=3)`); the rest of the pile joins the hand.
    """

    __slots__ = ("plays",)

    def __init__(self, plays: tuple[Play, ...]) -> None:
        self.plays: Final = plays

    def fields(self) -> tuple[object, ...]:
        return (self.plays,)

    def __str__(self) -> str:
        return "take the pile: " + ", ".join(str(play) for play in self.plays)


class Meld(Value):
    """Put cards from the hand on the table, in one or several places at once."""

    __slots__ = ("plays",)

    def __init__(self, plays: tuple[Play, ...]) -> None:
        self.plays: Final = plays

    def fields(self) -> tuple[object, ...]:
        return (self.plays,)

    def __str__(self) -> str:
        return "meld " + ", ".join(str(play) for play in self.plays)


class AskToGoOut(Value):
    """Ask the partner whether one may go out this turn.

    Where a yes binds (`Variant.partner_yes_binds`), a player told yes goes out that turn
    while they still can; a player told no after taking the pile down to one card keeps it,
    and the turn passes.
    """

    __slots__ = ()

    def __str__(self) -> str:
        return "ask to go out"


class Discard(Value):
    """Discard one card, ending the turn (or going out, if it is the last card)."""

    __slots__ = ("face",)

    def __init__(self, face: Face) -> None:
        self.face: Final = face

    def fields(self) -> tuple[object, ...]:
        return (self.face,)

    def __str__(self) -> str:
        return f"discard {self.face.symbol}"


Action: TypeAlias = (
    LayRedThrees | AddRedThree | PickUpFoot | Draw | TakePile | Meld | AskToGoOut | Discard
)
