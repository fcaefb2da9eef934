"""How every JSON reader of the app reads a number written with a fraction or an exponent.

JSON Schema, and so the API's OpenAPI document, counts ``4.0`` and ``1e3`` as the integers 4
and 1000; Python's decoder makes floats of them, which every "whole number" check refuses. The
app's readers (the API's JSON, export files, shared house rules) pass ``read_json_number`` as
``parse_float``, so that the app accepts the whole numbers its document describes, whichever
way they are written, and the same file reads the same through the page and the API.
"""

from __future__ import annotations

from decimal import Decimal

WHOLE_NUMBER_DIGITS = 400
"""Whole numbers up to this many digits become ints; a larger one stays a float (and is refused
where a whole number is wanted), so that ``1e1000000`` costs nothing to read."""


def read_json_number(text: str) -> int | float:
    """``text`` (a JSON number with a fraction or an exponent) as an int when it is whole."""
    number = Decimal(text)
    small = number.is_finite() and number.adjusted() < WHOLE_NUMBER_DIGITS
    if small and number == number.to_integral_value():
        return int(number)
    return float(text)
