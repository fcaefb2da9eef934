"""JSON Schemas of what the rules core reads: a variant (house form or whole), a name.

Built from the rules' own parameter list (``rules.params.PARAMS``) and limits, value by value,
so that the OpenAPI document accepts what the readers accept and refuses what they refuse.
What no schema can say (a variant a table cannot play, an impossible deal) is the rules'
verdict, answered 422 and described as such.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import params
from scorekeeper.rules.house_rules import FORMAT, FORMAT_VERSION, HOUSE_PREFIX
from scorekeeper.rules.names import refused_class, unclean_class
from scorekeeper.rules.params import (
    MAX_DECKS,
    MAX_ID,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_SIDES,
    MAX_TABLES,
    MAX_TEXT,
    MAX_THRESHOLDS,
    PARAM_BY_KEY,
    PARAMS,
    POINT_STEP,
    Kind,
    Param,
)
from scorekeeper.rules.variant_json import FULL_OPTIONAL
from scorekeeper.rules.variants import BUILT_IN, MAX_DEALS, PAGAT

Schema = dict[str, Any]

# What a name may not hold (``rules.names``), and it holds more than spaces.
NAME_PATTERN = f"^(?=.*\\S)[^{refused_class()}]*$"
TEXT_PATTERN = f"^[^{refused_class()}]*$"
STORED_NAME_PATTERN = f"^(?=.*\\S)[^{unclean_class()}]*$"
STORED_TEXT_PATTERN = f"^[^{unclean_class()}]*$"
"""Names and texts as the app writes them (an export file's rules): cleaned already."""
ID_PATTERN = f"^{params.ID_PATTERN.pattern}$"
HOUSE_ID_PATTERN = f"^{HOUSE_PREFIX}{params.ID_PATTERN.pattern}$"
OPTIONAL_TEXT = ("summary", "source", "inferred")

META_DESCRIPTIONS = {
    "id": "The variant's id: lowercase letters, digits and single dashes.",
    "name": "The variant's name.",
    "summary": "What sets the variant apart, in a sentence.",
    "source": "Where its rules come from.",
    "inferred": "Rules whose values no source states: defaults a table may change.",
}
"""The fields that name and document a variant rather than set a rule."""


def name_schema() -> Schema:
    return {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN}


def _points(low: int) -> Schema:
    return {"type": "integer", "minimum": low, "maximum": MAX_POINTS, "multipleOf": POINT_STEP}


def param_schema(param: Param) -> Schema:
    """The values ``params.check_value`` takes for one parameter, and its description."""
    return {**_values_schema(param), "description": param.description()}


def _values_schema(param: Param) -> Schema:
    kind = param.kind
    if kind is Kind.CARD:
        return _points(POINT_STEP)
    if kind is Kind.POINTS:
        return _points(-MAX_POINTS)
    if kind is Kind.BONUS:
        return _points(0)
    if kind is Kind.OPTIONAL_BONUS:
        return {"oneOf": [_points(0), {"type": "null"}]}
    if kind is Kind.OPTIONAL_POINTS:
        return {"oneOf": [_points(-MAX_POINTS), {"type": "null"}]}
    if kind is Kind.OPTIONAL_CARD:
        return {"oneOf": [_points(POINT_STEP), {"type": "null"}]}
    if kind is Kind.COUNT:
        return {"type": "integer", "minimum": param.low, "maximum": param.high}
    if kind is Kind.CHOICE:
        return {"enum": list(param.choices)}
    if kind is Kind.FLAG:
        return {"type": "boolean"}
    if kind is Kind.DEALS:
        return {
            "type": "array",
            "uniqueItems": True,
            "items": {"type": "integer", "minimum": 1, "maximum": MAX_DEALS},
        }
    if kind is Kind.THRESHOLDS:
        threshold = {
            "from_score": {
                "type": "integer",
                "minimum": -MAX_POINTS,
                "maximum": MAX_POINTS,
                "description": "A running score: from it up, until the next one listed.",
            },
            "minimum": {
                **_points(0),
                "description": "The first meld a side at that running score needs.",
            },
        }
        return {"type": "array", "maxItems": MAX_THRESHOLDS, "items": _object(threshold)}
    if kind is Kind.SIZES:
        return {
            "type": "array",
            "maxItems": MAX_DEALS,
            "items": {"type": "integer", "minimum": param.low, "maximum": param.high},
        }
    if kind is Kind.CARD_KINDS:
        return {
            "type": "array",
            "uniqueItems": True,
            "items": {"enum": list(params.CARD_KIND_VALUES)},
        }
    # Each table's own ranges (``variant_checks._check_tables``); how they fit together is the
    # rules'.
    table = {
        "sides": {"type": "integer", "minimum": 2, "maximum": MAX_SIDES},
        "players": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS},
        "decks": {"type": "integer", "minimum": 1, "maximum": MAX_DECKS},
    }
    return {"type": "array", "minItems": 1, "maxItems": MAX_TABLES, "items": _object(table)}


def _object(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def house_form_schema() -> Schema:
    """House rules inline: a built-in variant and the parameters it changes."""
    return _object(
        {
            "format": {"const": FORMAT},
            "version": {"const": FORMAT_VERSION},
            "id": {"type": "string", "maxLength": MAX_ID, "pattern": HOUSE_ID_PATTERN},
            "name": name_schema(),
            "summary": {"type": "string", "maxLength": MAX_TEXT, "pattern": TEXT_PATTERN},
            "based_on": {"enum": list(BUILT_IN)},
            "changes": _object({p.key: param_schema(p) for p in PARAMS}, required=[]),
        },
        required=["name", "based_on", "changes"],
    )


def _rule_field_schema(name: str, template: Any) -> Schema:
    """One rule field of a whole variant, shaped like the same field of a built-in one."""
    if name in PARAM_BY_KEY and not PARAM_BY_KEY[name].every_deal:
        return param_schema(PARAM_BY_KEY[name])
    described = {"description": params.field_description(name)}
    if isinstance(template, dict):
        parts = {key: param_schema(PARAM_BY_KEY[f"{name}.{key}"]) for key in template}
        needed = [key for key in parts if not PARAM_BY_KEY[f"{name}.{key}"].optional_in_whole]
        return {**_object(parts, required=needed), **described}
    per_deal = template[0]
    if isinstance(per_deal, dict):
        item = _object({key: _values_schema(PARAM_BY_KEY[f"{name}.1.{key}"]) for key in per_deal})
    else:
        item = _values_schema(PARAM_BY_KEY[f"{name}.1"])
    per_deal_list = {"type": "array", "minItems": 1, "maxItems": MAX_DEALS, "items": item}
    if name in PARAM_BY_KEY:  # one value for every deal, or one per deal
        return {"oneOf": [_values_schema(PARAM_BY_KEY[name]), per_deal_list], **described}
    return {**per_deal_list, **described}


def whole_variant_schema(*, exported: bool = False) -> Schema:
    """A variant as ``GET /api/v1/variants`` lists it; ``exported``: every field present."""
    text = STORED_TEXT_PATTERN if exported else TEXT_PATTERN
    meta: dict[str, Schema] = {
        "id": {"type": "string", "maxLength": MAX_ID, "pattern": ID_PATTERN},
        "name": {
            **name_schema(),
            "pattern": STORED_NAME_PATTERN if exported else NAME_PATTERN,
        },
        "summary": {"type": "string", "maxLength": MAX_TEXT, "pattern": text},
        "source": {"type": "string", "maxLength": MAX_TEXT, "pattern": text},
        "inferred": {
            "type": "array",
            "maxItems": len(PAGAT.to_dict()),
            "items": {"enum": list(PAGAT.to_dict())},
        },
    }
    meta = {
        name: {**schema, "description": META_DESCRIPTIONS[name]} for name, schema in meta.items()
    }
    rules = {
        name: _rule_field_schema(name, value)
        for name, value in PAGAT.to_dict().items()
        if name not in meta
    }
    properties = {**meta, **rules}
    optional = (*OPTIONAL_TEXT, *FULL_OPTIONAL)
    required = [n for n in properties if exported or n not in optional]
    return _object(properties, required=required)


def variant_choice_schema() -> Schema:
    from scorekeeper.rules.variants import all_variants

    return {
        "oneOf": [
            {
                "type": "string",
                "enum": [v.id for v in all_variants()],
                "description": "A variant's id.",
            },
            {
                **house_form_schema(),
                "description": "House rules: a built-in variant's id as based_on and the "
                "changed parameters as changes.",
            },
            {**whole_variant_schema(), "description": "A whole variant as /variants lists it."},
        ]
    }
