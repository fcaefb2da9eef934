"""/rules/: the index, a page per variant, the search and the side-by-side comparison."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import get_locale

from scorekeeper.capabilities import is_token
from scorekeeper.extensions import SUPPORTED_LANGUAGES
from scorekeeper.handbook.content import handbook
from scorekeeper.handbook.params import (
    BASELINE_ID,
    describe,
    differs,
    param_label,
    params,
    table_lines,
)
from scorekeeper.handbook.search import MAX_QUERY, Result, cached_index, search
from scorekeeper.rules.variants import UnknownVariant, Variant
from scorekeeper.store import catalogue
from scorekeeper.wording.words import clauses, join

bp = Blueprint("handbook", __name__, url_prefix="/rules")

MAX_COMPARED = 3
"""Variants side by side: three columns still read on a phone without sideways scrolling."""


def _language() -> str:
    return str(get_locale() or "en")


GAME_PATH_PREFIX = "/g/"
FROM_GAME = "from"
"""The query parameter that names the game a rules page was opened from."""


def game_path(value: str | None) -> str | None:
    """`value` when it is the path of a game's page (``/g/<token>``), else None: the rules
    pages link back to the app's own games only, never to an address a link brought in."""
    if not value or not value.startswith(GAME_PATH_PREFIX):
        return None
    token = value[len(GAME_PATH_PREFIX) :]
    return value if is_token(token) else None


@bp.context_processor
def handbook_helpers() -> dict[str, object]:
    return {
        "list_words": join,
        "clauses": clauses,
        "from_game": game_path(request.args.get(FROM_GAME)),
    }


@bp.get("/")
def index() -> str:
    variants = catalogue.variants()
    tables = {variant.id: table_lines(variant.tables) for variant in variants}
    return render_template("handbook/index.html", variants=variants, tables=tables)


@bp.get("/<variant_id>")
def variant(variant_id: str) -> str:
    try:
        chosen = catalogue.find_variant(variant_id)
    except UnknownVariant:
        abort(404)
    return render_template(
        "handbook/variant.html",
        book=handbook(chosen),
        variants=catalogue.variants(),
        baseline_id=BASELINE_ID,
    )


def _search_everywhere(
    query: str, variant_id: str | None, first: str | None
) -> tuple[list[Result], str | None]:
    """Results in the page's language; failing that, in the first other language that has any.

    Returns the results and, when they come from another language, that language's code.
    """
    language = _language()
    variants = catalogue.variants()
    results = search(cached_index(language, variants), query, variant_id, first)
    if results:
        return results, None
    for other in SUPPORTED_LANGUAGES:
        if other == language:
            continue
        found = search(cached_index(other, variants), query, variant_id, first)
        if found:
            return found, other
    return [], None


@bp.get("/search", endpoint="search")
def search_page() -> str:
    query = request.args.get("q", "").strip()[:MAX_QUERY]
    variants = catalogue.variants()
    known = {v.id for v in variants}
    variant_id = request.args.get("variant") or None
    if variant_id not in known:
        variant_id = None
    # The variant being played (the rules page a search starts from): its answers come first.
    first = request.args.get("first") or None
    if first not in known:
        first = None
    results, found_in = _search_everywhere(query, variant_id, first) if query else ([], None)
    return render_template(
        "handbook/search.html",
        query=query,
        variant_id=variant_id,
        first=first,
        first_variant=next((v for v in variants if v.id == first), None),
        variants=variants,
        results=results,
        found_in=found_in,
        languages=SUPPORTED_LANGUAGES,
    )


def _default_compared(variants: tuple[Variant, ...], baseline: Variant) -> list[Variant]:
    """With no choice made: the partnership game beside the table's own house rules, then
    the next variants of the list, three in all."""
    house = catalogue.house_variants()
    others = [v for v in (*house, *variants) if v is not baseline]
    unique = list(dict.fromkeys(others))
    return [baseline, *unique][:MAX_COMPARED]


@bp.get("/compare")
def compare() -> str:
    variants = catalogue.variants()
    asked = request.args.getlist("v")
    chosen = [v for v in variants if v.id in asked]
    baseline = next((v for v in variants if v.id == BASELINE_ID), variants[0])
    shown = chosen[:MAX_COMPARED] if len(chosen) >= 2 else _default_compared(variants, baseline)
    rows = [
        {
            "param": param,
            "label": param_label(param),
            "cells": [
                {
                    "variant": v,
                    "text": describe(param, v),
                    "inferred": param.is_inferred_in(v),
                    "differs": differs(param, v, baseline),
                }
                for v in shown
            ],
        }
        for param in params(baseline)
    ]
    return render_template(
        "handbook/compare.html",
        variants=variants,
        shown=shown,
        chosen_ids={v.id for v in shown},
        too_many=len(chosen) > MAX_COMPARED,
        most=MAX_COMPARED,
        baseline=baseline,
        rows=rows,
    )
