"""House rules: a table's own variant, made by changing a built-in variant's parameters.

A house variant is a base variant (``based_on``) and a set of changes, each keyed by the
parameter it sets (``"book_bonus.wild"``, ``"first_meld.2"``, ``"going_out.4.clean"``...).
Applied, the changes give an ordinary `Variant`, which every layer reads like a built-in one.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .decks import get_deck
from .messages import N_, Problem
from .names import clean_name
from .params import (
    MAX_ID,
    PARAM_BY_KEY,
    PARAMS,
    Kind,
    Param,
    VariantRejected,
    check_value,
    field_problem,
    has_type,
    is_int,
    params_for,
    problem_at,
    quoted,
    set_at,
    set_deals,
    value_at,
)
from .variant_checks import check_known_tables, validate_variant
from .variants import BUILT_IN, MAX_DEALS, UnknownVariant, Variant, variant_from_dict

HOUSE_PREFIX = "house-"
FORMAT = "hand-and-foot-house-rules"
FORMAT_VERSION = 1


def slugify(text: str) -> str:
    """Lowercase ASCII letters and digits joined by single dashes ("" when none are left)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = "-".join(words)[: MAX_ID - len(HOUSE_PREFIX)]
    return slug.strip("-")


def house_id(name: str, slug: str = "") -> str:
    return HOUSE_PREFIX + (slugify(slug) or slugify(name) or "rules")


@dataclass(frozen=True)
class RulesSource:
    """Where house rules made from published rules come from: who publishes them, the
    title they go by there, and their address."""

    author: str
    title: str
    address: str

    def __post_init__(self) -> None:
        for key in ("author", "title", "address"):
            object.__setattr__(self, key, clean_name(getattr(self, key)))

    def to_json(self) -> dict[str, str]:
        return {"author": self.author, "title": self.title, "address": self.address}

    @property
    def linkable(self) -> bool:
        """Whether the address can be followed as a link (an https address)."""
        return self.address.startswith("https://")


@dataclass(frozen=True)
class HouseRules:
    """A table's own rules: a built-in variant and the parameters it changes."""

    name: str
    based_on: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    """Parameter key -> JSON-ready value; only what differs from the base."""
    summary: str = ""
    slug: str = ""
    """The id's own part ("house-<slug>"); made from the name when empty."""
    source: RulesSource | None = None
    """The published rules these were made from (`gallery`), kept through edits and files."""

    def __post_init__(self) -> None:
        # Every way in (the form, a file, a link, the score API) names rules by one rule.
        for key in ("name", "summary"):
            if isinstance(getattr(self, key), str):
                object.__setattr__(self, key, clean_name(getattr(self, key)))
        object.__setattr__(self, "slug", house_id(self.name, self.slug)[len(HOUSE_PREFIX) :])

    @property
    def id(self) -> str:
        return HOUSE_PREFIX + self.slug

    @property
    def base(self) -> Variant:
        """The built-in variant the rules start from; raises UnknownVariant."""
        try:
            return BUILT_IN[self.based_on]
        except (KeyError, TypeError):
            raise UnknownVariant(self.based_on) from None

    def variant(self) -> Variant:
        """The variant these rules make (not validated: see `problems`).

        Raises UnknownVariant for an unknown base and VariantRejected for changes that
        cannot be read.
        """
        changes, problems = read_changes(self.changes)
        if problems:
            raise VariantRejected(problems)
        return self._build(changes)

    def _build(self, changes: Mapping[str, Any]) -> Variant:
        base = self.base
        data = copy.deepcopy(base.to_dict())
        deals = changes.get("deals", base.deals)
        ordered = sorted(changes.items(), key=lambda item: _apply_order(item[0], base.deals))
        for key, value in ordered:
            if PARAM_BY_KEY[key].deal is not None and PARAM_BY_KEY[key].deal > deals:
                continue  # reported by `problems`
            set_at(data, key, copy.deepcopy(value))
        if "deck" in changes and "tables" not in changes:
            data["tables"] = _tables_in_decks_of(data["tables"], base.deck, changes["deck"])
        touched = {PARAM_BY_KEY[key].field for key in changes}
        data.update(
            id=self.id,
            name=self.name,
            summary=self.summary or default_summary(base.name),
            source=self._source_words(base),
            inferred=sorted(base.inferred - touched),
        )
        return variant_from_dict(data)

    def _source_words(self, base: Variant) -> str:
        if self.source is None:
            return f"House rules, based on {base.name} ({base.id})."
        return (
            f"House rules made from {self.source.title}, by {self.source.author} "
            f"({self.source.address}); based on {base.name} ({base.id})."
        )

    def problems(self) -> list[Problem]:
        """Every reason these rules cannot be played, each naming its field."""
        if self.based_on not in BUILT_IN:
            return [_unknown_base(self.based_on)]
        _, unread = read_changes(self.changes)
        if not isinstance(self.changes, Mapping):
            return unread
        typed = {
            key: value
            for key, value in self.changes.items()
            if key in PARAM_BY_KEY and _buildable(PARAM_BY_KEY[key], value)
        }
        variant = self._build(typed)
        problems = list(_past_last_deal(typed, variant.deals))
        problems += validate_variant(variant) + list(check_known_tables(variant))
        seen = {(p.field, p.message) for p in problems}
        return [p for p in unread if (p.field, p.message) not in seen] + problems

    def checked_variant(self) -> Variant:
        """The variant, or VariantRejected naming every problem."""
        problems = self.problems()
        if problems:
            raise VariantRejected(problems)
        return self.variant()

    def with_changes(self, changes: Mapping[str, Any]) -> HouseRules:
        return HouseRules(
            self.name, self.based_on, dict(changes), self.summary, self.slug, self.source
        )

    def to_json(self) -> dict[str, Any]:
        """The shareable form: small, and read back by `house_rules_from_json`."""
        ordered = {p.key: self.changes[p.key] for p in PARAMS if p.key in self.changes}
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "based_on": self.based_on,
            "changes": ordered,
            **({"source": self.source.to_json()} if self.source is not None else {}),
        }


def _buildable(param: Param, value: object) -> bool:
    """Whether a change can go into the variant that the whole-variant checks read: of its
    type, and a count within its range (twelve deals cannot even be built); what is left
    out is reported by `read_changes`."""
    if not has_type(param, value):
        return False
    return param.kind is not Kind.COUNT or not check_value(param, value)


def _apply_order(key: str, base_deals: int) -> int:
    """The deck first (a deck brings values of its own), then what sets every deal, then
    single values of the base's deals, then the number of deals (a deal added takes the last
    deal's values as changed), then the added deals'."""
    param = PARAM_BY_KEY[key]
    if key == "deck":
        return -1
    if param.every_deal:
        return 0
    if key == "deals":
        return 2
    return 3 if param.deal is not None and param.deal > base_deals else 1


def _tables_in_decks_of(tables: list[dict[str, int]], old: str, new: str) -> list[dict[str, int]]:
    """The base's tables counted in decks of the deck chosen instead: as many cards at least
    (five standard decks make one HANDnFOOT pack)."""
    was, now = get_deck(old).stands_for, get_deck(new).stands_for
    return [{**table, "decks": max(1, -(-table["decks"] * was // now))} for table in tables]


def _past_last_deal(changes: Mapping[str, Any], deals: int) -> Iterator[Problem]:
    for key in changes:
        deal = PARAM_BY_KEY[key].deal
        if deal is not None and deal > deals:
            yield field_problem(
                key,
                N_("{field}: the game has {deals} deals; add deals before setting deal {deal}."),
                deals=deals,
                deal=deal,
            )


def _unknown_base(value: object) -> Problem:
    return field_problem(
        "based_on",
        N_("{field} must be the id of a built-in variant ({known}), not {value}."),
        known=", ".join(BUILT_IN),
        value=quoted(value),
    )


def read_changes(raw: object) -> tuple[dict[str, Any], list[Problem]]:
    """Changes read strictly: known parameter keys only, each value of its kind."""
    if not isinstance(raw, Mapping):
        return {}, [field_problem("changes", N_("{field} must be a JSON object."))]
    if len(raw) > len(PARAMS):
        return {}, [
            field_problem(
                "changes", N_("{field} can hold at most {most} parameters."), most=len(PARAMS)
            )
        ]
    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, value in raw.items():
        param = PARAM_BY_KEY.get(key) if isinstance(key, str) else None
        if param is None:
            problems.append(
                problem_at("changes", N_("changes: unknown parameter {value}."), value=quoted(key))
            )
            continue
        found = check_value(param, value)
        if found:
            problems += found
        else:
            changes[key] = _normalised(param, value)
    return changes, problems


def _normalised(param: Param, value: Any) -> Any:
    if param.kind in (Kind.DEALS, Kind.CARD_KINDS):
        return sorted(value)
    if param.kind is Kind.TABLES:
        return [{k: table[k] for k in ("sides", "players", "decks")} for table in value]
    if param.kind is Kind.THRESHOLDS:
        return sorted(
            ({"from_score": item["from_score"], "minimum": item["minimum"]} for item in value),
            key=lambda item: item["from_score"],
        )
    return value


@dataclass(frozen=True, slots=True)
class Difference:
    """One parameter whose value differs from the base variant's."""

    param: Param
    base: Any
    value: Any

    @property
    def key(self) -> str:
        return self.param.key


def diff_from_base(variant: Variant, base: Variant) -> tuple[Difference, ...]:
    """The parameters `variant` sets differently from `base`, in form order."""
    data = variant.to_dict()
    values = {param.key: value_at(data, param.key) for param in params_for(variant.deals)}
    for param in PARAMS:
        if param.every_deal and values.get(param.key) is None:
            # Deals that differ: the value most of them share is said once, the rest by deal.
            common = max(data[param.key], key=data[param.key].count)
            if data[param.key].count(common) > 1:
                values[param.key] = common
    return typed_differences(base, values)


def default_summary(base_name: str) -> str:
    """The summary of house rules given none: the rules they are based on, in English (pages
    show it in the reader's language, ``variant_texts.variant_text``)."""
    return f"House rules based on {base_name}."


def typed_differences(base: Variant, values: Mapping[str, Any]) -> tuple[Difference, ...]:
    """The parameters `values` (JSON-ready, by key) sets differently from `base`, in form order.

    Unlike `diff_from_base`, the values need not make a playable variant yet: this is what a
    form being edited changes so far.
    """
    theirs = copy.deepcopy(base.to_dict())
    deals = values.get("deals", base.deals)
    # A number of deals out of bounds stays a difference, which the checks refuse by name;
    # the parameters of each deal are then compared as far as the base's deals go.
    laid_out = deals if is_int(deals) and 1 <= deals <= MAX_DEALS else base.deals
    set_deals(theirs, laid_out)
    every_deal_set = {
        param.key
        for param in PARAMS
        if param.every_deal
        and values.get(param.key) is not None
        and values[param.key] != value_at(theirs, param.key)
    }
    differences = (
        [Difference(PARAM_BY_KEY["deals"], base.deals, deals)] if (deals != base.deals) else []
    )
    for param in PARAMS:
        if param.key == "deals" or param.key not in values:
            continue
        if param.every_deal and values[param.key] is None:
            continue  # the deals differ: their own parameters say how
        if param.deal is not None and param.deal > laid_out:
            continue
        if (
            param.deal is not None
            and param.field in every_deal_set
            and values[param.key] == values[param.field]
        ):
            continue  # said once, by the parameter that sets every deal
        if values[param.key] != value_at(theirs, param.key):
            differences.append(Difference(param, value_at(theirs, param.key), values[param.key]))
    return tuple(differences)


def changes_from(variant: Variant, base: Variant) -> dict[str, Any]:
    return {d.key: d.value for d in diff_from_base(variant, base)}


def nearest_base(variant: Variant) -> Variant:
    """The built-in variant that differs from `variant` in the fewest parameters."""
    return min(BUILT_IN.values(), key=lambda base: len(diff_from_base(variant, base)))


def house_rules_of(variant: Variant, base: Variant | None = None) -> HouseRules:
    """A variant expressed as house rules over `base` (the nearest built-in by default)."""
    base = base if base is not None else nearest_base(variant)
    slug = variant.id[len(HOUSE_PREFIX) :] if variant.id.startswith(HOUSE_PREFIX) else ""
    summary = "" if variant.summary == default_summary(base.name) else variant.summary
    return HouseRules(variant.name, base.id, changes_from(variant, base), summary, slug)
