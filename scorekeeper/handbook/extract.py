"""A Babel extractor for the rules data: the names, summaries and sources of the variants.

Those strings are plain values in `scorekeeper/rules/variants.py` (the rules core imports no
translation machinery), yet every page shows them. `babel.cfg` sends that file here: this
yields the usual gettext calls of the file plus every string given as ``name=``, ``summary=``
or ``source=`` to a call, so the catalogs hold them without anyone retyping them.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import IO, Any, cast

from babel.messages.extract import extract_python

VARIANT_TEXT_FIELDS = frozenset({"name", "summary", "source"})

Extracted = tuple[int, str | None, str | tuple[str | None, ...], list[str]]
"""What an extractor yields: (line, function name, message or messages, comments)."""

# Babel annotates ``extract_python`` as yielding what ``extract`` makes of an extractor's
# results, (line, message, comments, context); it yields the results themselves.
_extract_python = cast(Callable[..., Iterator[Extracted]], extract_python)


def extract_variant_texts(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any] | Collection[str],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[Extracted]:
    source = fileobj.read()
    yield from _extract_python(io.BytesIO(source), keywords, comment_tags, options)
    tree = ast.parse(source.decode(options.get("encoding", "utf-8")))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            value = keyword.value
            if (
                keyword.arg in VARIANT_TEXT_FIELDS
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                comment = f"Variant {keyword.arg} (rules data)."
                yield value.lineno, None, value.value, [comment]
