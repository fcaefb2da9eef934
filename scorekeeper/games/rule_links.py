"""Where each thing a form asks for is explained: an address on the rules pages."""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import lazy_gettext as _l

# The section of a variant's rules page that explains each entry field (and the notes).
RULE_SECTIONS: Mapping[str, str] = {
    "meld_points": "card-values",
    "clean_books": "books",
    "dirty_books": "books",
    "wild_books": "books",
    "black_three_books": "books",
    "special_books": "books",
    "red_three_books": "books",
    "red_threes_down": "red-threes",
    "red_threes_held": "red-threes",
    "went_out": "going-out",
    "went_out_concealed": "going-out",
    "cards_left_points": "end-of-deal",
    "exact_22": "scoring",
    "first_meld": "first-meld",
}

# What each section is about, to name the link for screen readers.
SECTION_TOPICS = {
    "card-values": _l("card values"),
    "books": _l("books"),
    "red-threes": _l("red threes"),
    "going-out": _l("going out"),
    "end-of-deal": _l("the end of a deal"),
    "scoring": _l("scoring"),
    "first-meld": _l("the first meld"),
}


def rule_url(variant_id: str, topic: str) -> str:
    """``/rules/<variant_id>#<section>`` for a field name or note (see RULE_SECTIONS)."""
    return f"/rules/{variant_id}#{RULE_SECTIONS[topic]}"


def rule_topic(topic: str) -> str:
    """What the linked section is about, in the reader's language: "books", "red threes"."""
    return str(SECTION_TOPICS[RULE_SECTIONS[topic]])
