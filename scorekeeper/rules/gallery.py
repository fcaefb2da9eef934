"""Ready-made rules: rule sets that other tables and score keepers publish, as house rules.

Each entry is a built-in variant and the parameters its source plays differently, exactly as
house rules are written (`house_rules.HouseRules`), with a name and a one-line summary in our
own words and its source named: the author or project, and the address it is published at.
Picking one makes house rules from it, which a table then changes like any other.

Only rule sets that today's parameters express faithfully are here. The facts read from each
source, and the rule sets that wait for a parameter, are written down beside the code
(``notes/gallery-rules.md`` of the working notes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .house_rules import HouseRules
from .messages import N_
from .variants import Variant

PUBLISHED_PREFIX = "published-"
"""The key of an entry where a form offers it beside the variants (never a variant's id)."""


def _every_deal(deals: int, **counts: int) -> dict[str, int]:
    """The books to go out, the same in each of `deals` deals: ``going_out.<n>.<kind>``."""
    return {
        f"going_out.{deal}.{kind}": count
        for deal in range(1, deals + 1)
        for kind, count in counts.items()
    }


@dataclass(frozen=True)
class PublishedRules:
    """A published rule set: a base variant and its changed parameters, with its source."""

    slug: str
    """The entry's own part of its key, and the id its house rules are made under."""
    name: str
    """Marked for translation: the rule set named in our words."""
    summary: str
    """Marked for translation: one line, in our words, of what sets the rules apart."""
    author: str
    """Who publishes the rules: a person, a family or a project (a proper name)."""
    title: str
    """What the source is called where it is published (its own title)."""
    address: str
    """Where the rules are published (an https address)."""
    based_on: str
    changes: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "changes", MappingProxyType(dict(self.changes)))

    @property
    def key(self) -> str:
        return PUBLISHED_PREFIX + self.slug

    def house_rules(self, name: str | None = None, summary: str | None = None) -> HouseRules:
        """The house rules the entry makes (its name and summary in the reader's words when
        given)."""
        return HouseRules(
            self.name if name is None else name,
            self.based_on,
            dict(self.changes),
            self.summary if summary is None else summary,
            self.slug,
        )

    def variant(self) -> Variant:
        """The variant the entry's house rules make, checked (VariantRejected if not)."""
        return self.house_rules().checked_variant()


TONATIHUAI = PublishedRules(
    slug="canasta-scorer-tonatihuai2026",
    name=N_("Hand and Foot Score Calculator rules"),
    summary=N_(
        "No book is needed to go out and there are no wild books; a red three laid down earns "
        "100, or 50 for a side that did not go out, and one still in hand costs 500."
    ),
    author="tonatihuai2026",
    title="Hand and Foot Score Calculator (hand-and-foot-canasta-scorer)",
    address="https://github.com/tonatihuai2026/hand-and-foot-canasta-scorer",
    based_on="pagat",
    changes={
        "book_bonus.wild": None,
        "red_three.down_not_out": 50,
        "red_three.held": -500,
        **_every_deal(4, clean=0, dirty=0, wild=0),
    },
)

BERTA = PublishedRules(
    slug="score-keeper-michelle-berta",
    name=N_("Michelle Berta's score keeper rules"),
    summary=N_(
        "The partnership game with a first meld of 50 in every deal, and a second wild card in "
        "a meld only beside five natural cards."
    ),
    author="Michelle Berta",
    title="Hand and Foot Score Keeper (hand-and-foot-scorekeeper)",
    address="https://github.com/MichelleBerta/hand-and-foot-scorekeeper",
    based_on="pagat",
    changes={
        "first_meld.2": 50,
        "first_meld.3": 50,
        "first_meld.4": 50,
        "wild_limit.extra": 1,
    },
)

JCJ59_EAST_COAST = PublishedRules(
    slug="east-coast-jcj59",
    name=N_("East Coast rules of jcj59's online game"),
    summary=N_(
        "Hands and feet of 14 cards, a first meld of 60 to 150 that is waived when it lays "
        "down the whole hand, fewer wild cards than natural ones in a meld, one clean and two "
        "dirty books to go out, aces 15 and nines and eights 5."
    ),
    author="jcj59",
    title="hand-and-foot, East Coast preset (packages/shared/src/rules.ts)",
    address="https://github.com/jcj59/hand-and-foot",
    based_on="pagat",
    changes={
        "hand_size": 14,
        "foot_size": 14,
        "first_meld.1": 60,
        "first_meld_waived_to_empty_hand": True,
        "wild_limit.per_wild": 1,
        "wild_limit.extra": 1,
        "card_points.ace": 15,
        "card_points.nine": 5,
        "card_points.eight": 5,
        "book_bonus.wild": None,
        "red_three.held": -500,
        **_every_deal(4, clean=1, wild=0),
    },
)

GALLERY: tuple[PublishedRules, ...] = (TONATIHUAI, BERTA, JCJ59_EAST_COAST)
"""The ready-made rules, in the order pages list them."""


def published(key: object) -> PublishedRules | None:
    """The entry of this key (``published-<slug>``) or slug; None for anything else."""
    if not isinstance(key, str):
        return None
    slug = key.removeprefix(PUBLISHED_PREFIX)
    return next((entry for entry in GALLERY if entry.slug == slug), None)
