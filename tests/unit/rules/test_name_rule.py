"""The one rule for names and short texts a person types (``rules.names``)."""

import pytest

from scorekeeper.rules.names import clean_name, refused_characters


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Friday night  ", "Friday night"),
        ("Friday\tnight", "Friday night"),
        ("Ann\r\nBob", "Ann  Bob"),
        ("\vline\fbreaks\u2028and\u2029paragraphs\x85", "line breaks and paragraphs"),
        ("Müller & 山田", "Müller & 山田"),
        ("\t\n ", ""),
    ],
)
def test_whitespace_controls_become_spaces_and_the_ends_are_stripped(typed, kept):
    assert clean_name(typed) == kept
    assert not refused_characters(clean_name(typed))


@pytest.mark.parametrize(
    "text",
    ["nul\x00", "bell\x07", "escape\x1b[31m", "delete\x7f", "c1\x9b", "half\ud800", "rlo\u202e"],
)
def test_other_control_characters_lone_surrogates_and_bidi_overrides_are_refused(text):
    assert refused_characters(clean_name(text))


def test_ordinary_names_are_not_refused():
    assert not refused_characters("Ann & Bob — l'équipe ①")
