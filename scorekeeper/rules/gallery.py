"""Ready-made rules: rule sets that other tables and score keepers publish, as house rules.

Each entry is a built-in variant and the parameters its source plays differently, exactly as
house rules are written (`house_rules.HouseRules`), with a name and a one-line summary in our
own words and its source named: the author or project, and the address it is published at.
Picking one makes house rules from it, which a table then changes like any other.

Only rule sets that today's parameters express faithfully are here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .house_rules import HouseRules, RulesSource
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
            self.source,
        )

    @property
    def source(self) -> RulesSource:
        return RulesSource(self.author, self.title, self.address)

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

CHRISTOPHERSANZ = PublishedRules(
    slug="hand-and-foot-score-christophersanz",
    name=N_("Hand & Foot Score sheet rules"),
    summary=N_(
        "Hand and foot grow from 11 to 17 cards over the four deals and going out earns 100 "
        "to 400; books of sevens (1500) and of black threes (2000) score high but do not count "
        "toward the clean and dirty books needed to go out."
    ),
    author="Christophersanz-cyber",
    title="Hand & Foot Score (hand-and-foot-score)",
    address="https://github.com/Christophersanz-cyber/hand-and-foot-score",
    based_on="pagat",
    changes={
        "tables": [{"sides": 2, "players": 4, "decks": 5}],
        "hand_size_by_deal": [11, 13, 15, 17],
        "foot_size_by_deal": [11, 13, 15, 17],
        "cut_for_packets": True,
        "exact_22_bonus": 100,
        "card_points.black_three_melded": 5,
        "book_bonus.wild": None,
        "book_bonus.black_three": 2000,
        "book_bonus.special_rank": "7",
        "book_bonus.special": 1500,
        "black_three_book_goes_out_as": "none",
        "special_book_goes_out_as": "none",
        "red_three.down": None,
        "red_three.held": -500,
        "going_out_bonus.2": 200,
        "going_out_bonus.3": 300,
        "going_out_bonus.4": 400,
        "first_meld.1": 90,
        "first_meld.2": 120,
        "first_meld.3": 150,
        "first_meld.4": 180,
        # Deal n needs n clean and n dirty books (pagat's deal 2 already asks 2 and 2).
        "going_out.1.clean": 1,
        "going_out.1.dirty": 1,
        "going_out.3.clean": 3,
        "going_out.3.dirty": 3,
        "going_out.4.clean": 4,
        "going_out.4.dirty": 4,
        **_every_deal(4, wild=0),
    },
)

DEARIE = PublishedRules(
    slug="dearies-rules-hand-and-foot-calculator",
    name=N_("Dearie's rules"),
    summary=N_(
        "Five deals, the last one opened with a book instead of points; going out needs a wild "
        "book, a book of sevens (1000), three clean and two dirty books; a red three still held "
        "costs 500 and a book of red threes earns 1700."
    ),
    author="Hand and Foot Calculator (handandfootcalculator.com)",
    title="Instructions: the default settings",
    address="https://handandfootcalculator.com/instructions.html",
    based_on="pagat",
    changes={
        "deals": 5,
        "tables": [
            {"sides": 2, "players": 4, "decks": 5},
            {"sides": 2, "players": 2, "decks": 3},
            {"sides": 3, "players": 3, "decks": 4},
            # Six players in three teams of two, with pagat's decks for six.
            {"sides": 3, "players": 6, "decks": 7},
        ],
        "first_meld.5": 0,
        "book_first_meld_deals": [5],
        "red_three.held": -500,
        # Seven red threes laid down at 100 each, and 1000 more for their book.
        "book_bonus.red_three": 1700,
        "book_bonus.special_rank": "7",
        "book_bonus.special": 1000,
        "special_book_goes_out_as": "none",
        "going_out_needs_special_book": True,
        **_every_deal(5, clean=3),
    },
)

ROTH = PublishedRules(
    slug="roth-family-rules-chan-dev",
    name=N_("Roth family rules"),
    summary=N_(
        "One deck per player and 22 cards cut; fours to nines are worth 5 and black threes "
        "nothing; the first meld follows the team's score; going out needs five clean and four "
        "dirty books and a last discard."
    ),
    author="Michael Chan",
    title="Hand and Foot (Roth family rules)",
    address="https://chan.dev/hand-and-foot/",
    based_on="pagat",
    # The source plays until a team reaches 10,000 points: twelve deals at the most. Its
    # pickup (one matching card shown, then the top seven taken and a new clean meld made with
    # the top card) stays pagat's for the bots (a pair of naturals); a pickup that fails costs
    # 100 points, entered as a count.
    changes={
        "deals": 12,
        "target_score": 10000,
        "tables": [
            {"sides": 2, "players": 4, "decks": 4},
            {"sides": 2, "players": 6, "decks": 6},
        ],
        "hand_size": 11,
        "foot_size": 11,
        "cut_for_packets": True,
        "exact_22_bonus": 100,
        "failed_pickup_penalty": 100,
        "card_points.nine": 5,
        "card_points.eight": 5,
        "card_points.black_three": 0,
        "red_three.down": None,
        "red_three.held": -500,
        "book_bonus.wild": None,
        "first_meld_by_score": [
            {"from_score": 0, "minimum": 50},
            {"from_score": 2500, "minimum": 90},
            {"from_score": 5000, "minimum": 120},
            {"from_score": 7500, "minimum": 150},
        ],
        # Clean books stay open to more cards; a dirty book is closed at exactly seven.
        "max_meld_size": None,
        "max_dirty_meld_size": 7,
        "wild_limit.per_wild": 1,
        "wild_limit.extra": 1,
        "must_discard_to_go_out": True,
        "going_out_asks_partner": False,
        **_every_deal(12, clean=5, dirty=4, wild=0),
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

TANGLEWOOD_VEGAS = PublishedRules(
    slug="vegas-version-tanglewood",
    name=N_("Tanglewood's Vegas rules"),
    summary=N_(
        "Two teams and 22 cards cut; three to five cards drawn from the stock or taken from "
        "the discard pile as the deals go on; first melds of 90 to 180; three to five clean "
        "and as many dirty books to go out, by melding the last card; a black three held costs "
        "300 and a red three 500."
    ),
    author="Tanglewood (twrtimes.com)",
    title="Hand & Foot (Vegas Version)",
    address="https://twrtimes.com/?p=4100",
    based_on="pagat",
    # The source says nothing of a going-out bonus, of the partner's part in going out or of a
    # red three laid down: those stay pagat's (100; the partner must be in the foot and asked;
    # 100). It allows three wild cards in a dirty book, which pagat's two naturals a wild
    # forbid in a book of seven, and no more however the book grows: cards are buried in
    # closed books, so books have no upper size. Its card values (fours to sevens 5, eights to
    # kings 10, aces and twos 20, jokers 50) and its books (clean 500, dirty 300) are pagat's
    # too; it names no wild book.
    changes={
        "tables": [
            {"sides": 2, "players": 4, "decks": 6},
            {"sides": 2, "players": 6, "decks": 8},
        ],
        "hand_size": 11,
        "foot_size": 11,
        "cut_for_packets": True,
        "exact_22_bonus": 100,
        "first_meld.1": 90,
        "first_meld.2": 120,
        "first_meld.3": 150,
        "first_meld.4": 180,
        "draw_count_by_deal": [3, 3, 4, 5],
        # The pile gives as many cards as the stock in each deal.
        "pile_take_by_deal": [3, 3, 4, 5],
        "going_out_by_melding_only": True,
        "max_meld_size": None,
        "wild_limit.per_wild": 1,
        "wild_limit.extra": 1,
        "wild_limit.most": 3,
        "card_points.black_three": 300,
        "red_three.held": -500,
        "book_bonus.wild": None,
        "going_out.1.clean": 3,
        "going_out.1.dirty": 3,
        "going_out.2.clean": 3,
        "going_out.2.dirty": 3,
        "going_out.3.clean": 4,
        "going_out.3.dirty": 4,
        "going_out.4.clean": 5,
        "going_out.4.dirty": 5,
        **_every_deal(4, wild=0),
    },
)

GALLERY: tuple[PublishedRules, ...] = (
    TONATIHUAI,
    BERTA,
    CHRISTOPHERSANZ,
    JCJ59_EAST_COAST,
    DEARIE,
    ROTH,
    TANGLEWOOD_VEGAS,
)
"""The ready-made rules, in the order pages list them."""


def published(key: object) -> PublishedRules | None:
    """The entry of this key (``published-<slug>``) or slug; None for anything else."""
    if not isinstance(key, str):
        return None
    slug = key.removeprefix(PUBLISHED_PREFIX)
    return next((entry for entry in GALLERY if entry.slug == slug), None)
