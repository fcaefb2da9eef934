"""The rules of one variant, written out section by section from its parameters.

Nothing here knows a variant by its id. Each section is composed from the `Variant` fields
that govern it: the paragraph about the discard pile is chosen by `pile_pickup`, the wild-card
table is computed from `wild_limit`, the going-out books come from `going_out_for(deal)`, and
every number in the prose is a placeholder filled from the data. The same text feeds the
page and the search index. The sections are written in `play_sections`, `card_sections`,
`scoring_sections` and `quick_reference`, from the blocks of `blocks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields

from flask_babel import gettext as _

from scorekeeper.handbook.blocks import Block, QuickGroup, Row, Section
from scorekeeper.handbook.card_sections import CardSections
from scorekeeper.handbook.params import words
from scorekeeper.handbook.play_sections import PlaySections
from scorekeeper.handbook.quick_reference import QuickReference
from scorekeeper.handbook.scoring_sections import ScoringSections
from scorekeeper.rules.params import label_of
from scorekeeper.rules.variants import Variant

QUICK_REFERENCE = "quick-reference"

# The sections of every rules page, in reading order. The score-entry form links to
# card-values, books, wilds, red-threes, going-out, end-of-deal, scoring and first-meld.
SECTION_IDS: tuple[str, ...] = (
    "setup",
    "turn",
    "melds",
    "first-meld",
    "books",
    "wilds",
    "threes",
    "red-threes",
    "foot",
    "going-out",
    "end-of-deal",
    "card-values",
    "scoring",
    "differences",
)


def section_titles() -> dict[str, str]:
    return {
        QUICK_REFERENCE: _("Quick reference"),
        "setup": _("Set-up"),
        "turn": _("A turn"),
        "melds": _("Melds"),
        "first-meld": _("First meld"),
        "books": _("Books"),
        "wilds": _("Wild cards"),
        "threes": _("Threes"),
        "red-threes": _("Red threes"),
        "foot": _("The foot"),
        "going-out": _("Going out"),
        "end-of-deal": _("End of a deal"),
        "card-values": _("Card values"),
        "scoring": _("Scoring"),
        "differences": _("Differences from the partnership game"),
    }


def section_keywords() -> dict[str, str]:
    """Other words people use for each section's subject: searched, never shown."""
    return {
        "setup": _(
            "set up, setup, deal, dealing, dealer, shuffle, decks, players, partners, teams, "
            "hand, foot, stock, cut, packets, start"
        ),
        "turn": _(
            "turn, draw, stock, discard, discard pile, pile, pick up the pile, take the pile, "
            "pickup, top card, pack, play"
        ),
        "melds": _("meld, melds, melding, set, lay down, rank, table"),
        "first-meld": _(
            "first meld, initial meld, opening meld, minimum, open, going down, points needed"
        ),
        "books": _("book, books, pile, canasta, seven cards, clean, dirty, natural, mixed, bonus"),
        "wilds": _("wild, wild card, wildcard, wilds, joker, jokers, two, twos, deuce, deuces"),
        "threes": _("three, threes, black three, black threes, red three, block, blocker"),
        "red-threes": _("red three, red threes, red 3, bonus, penalty, held, foot, laid down"),
        "foot": _("foot, feet, hand, pick up the foot, second packet, play the foot"),
        "going-out": _("go out, going out, out, finish, close, permission, ask partner"),
        "end-of-deal": _(
            "end of the deal, end of the hand, round, stock runs out, cards left, count, "
            "penalty, remaining cards"
        ),
        "card-values": _("card values, card points, points, count, worth, value, joker, ace"),
        "scoring": _("score, scoring, total, bonus, points, exact cut, score sheet"),
        "differences": _("differences, compare, comparison, variant, variants, house rules"),
    }


@dataclass(frozen=True, slots=True)
class Handbook:
    variant: Variant
    quick_reference: tuple[QuickGroup, ...]
    first_meld: tuple[Row, ...]
    """The quick reference's first melds: by deal, or by running score."""
    first_meld_note: str
    first_meld_heading: str
    """What the first cell of each of those rows is: a deal, or a running score."""
    sections: tuple[Section, ...]
    titles: dict[str, str]
    inferred: tuple[str, ...]
    """The parameters no source states, in words (shown as defaults a table may change)."""


class _Writer(PlaySections, CardSections, ScoringSections, QuickReference):
    """Every section of one variant's rules page."""


def _section_builders(writer: _Writer) -> dict[str, Callable[[], Iterable[Block]]]:
    """The function that writes each section, by section id."""
    return {
        "setup": writer.setup,
        "turn": writer.turn,
        "melds": writer.melds,
        "first-meld": writer.first_meld,
        "books": writer.books,
        "wilds": writer.wilds,
        "threes": writer.threes,
        "red-threes": writer.red_threes,
        "foot": writer.foot,
        "going-out": writer.going_out,
        "end-of-deal": writer.end_of_deal,
        "card-values": writer.card_values,
        "scoring": writer.scoring,
        "differences": writer.differences,
    }


def handbook(variant: Variant) -> Handbook:
    """Every section of the variant's rules, in the current language."""
    writer = _Writer(variant)
    titles = section_titles()
    keywords = section_keywords()
    builders = _section_builders(writer)
    sections = tuple(
        Section(id=sid, title=titles[sid], blocks=tuple(builders[sid]()), keywords=keywords[sid])
        for sid in SECTION_IDS
    )
    return Handbook(
        variant=variant,
        quick_reference=writer.quick_reference(),
        first_meld=tuple(
            writer.threshold_rows() if variant.first_meld_by_score else writer.first_meld_rows()
        ),
        first_meld_note=writer.first_meld_note(),
        first_meld_heading=(
            _("Score before the deal") if variant.first_meld_by_score else _("Deal")
        ),
        sections=sections,
        titles=titles,
        inferred=tuple(
            words(label_of(field.name))
            for field in fields(variant)
            if variant.is_inferred(field.name)
        ),
    )
