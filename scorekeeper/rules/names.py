"""What a name or a short text typed by a person may hold: one rule for every way in.

Game names, side names, and the name and summary of house rules come in through forms, files,
share links and the JSON API. Each of those ways applies this rule, so that whatever the app
accepted one way it accepts every other way (a game exported then imported comes back the
same), and every database stores it: PostgreSQL refuses a NUL byte in text, and no database
can store half of a surrogate pair.

The rule: whitespace controls (tab, newline, carriage return, vertical tab, form feed and the
Unicode line and paragraph separators) become a space and the text is stripped; what still
holds another control character, a lone surrogate or a bidirectional override is refused.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache

WHITESPACE_CONTROLS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")
"""Characters ``str.split`` treats as whitespace that are not a plain space."""
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Overrides and isolates that can make a name read differently from what it holds."""
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
_AS_SPACES = str.maketrans(dict.fromkeys(WHITESPACE_CONTROLS, " "))


def clean_name(text: str) -> str:
    """The text with its whitespace controls made spaces, stripped (see the module)."""
    return text.translate(_AS_SPACES).strip()


def refused_characters(text: str) -> bool:
    """Whether the text holds a character no name may hold, once cleaned."""
    return any(
        unicodedata.category(char) in _REFUSED_CATEGORIES or char in BIDI_CONTROLS for char in text
    )


def _as_class(refused: Callable[[str], bool]) -> str:
    """The characters of the Basic Multilingual Plane ``refused`` refuses, as the body of a
    regular expression's character class (``\\uXXXX`` ranges). Lone surrogates are left out:
    no regular expression can name them."""
    codes = [code for code in range(0x10000) if not 0xD800 <= code <= 0xDFFF and refused(chr(code))]
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "".join(
        f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}" for low, high in ranges
    )


@cache
def refused_class() -> str:
    """What this rule refuses in a name as typed (a regular expression class, for the API's
    JSON Schema)."""
    return _as_class(lambda char: refused_characters(clean_name(f"a{char}a")))


@cache
def unclean_class() -> str:
    """What a name this rule has cleaned never holds: the refused characters and the
    whitespace controls (for names the app wrote itself, as in an export file)."""
    return _as_class(lambda char: refused_characters(char) or char in WHITESPACE_CONTROLS)
