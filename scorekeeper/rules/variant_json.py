"""Variants that come from outside: a shared file, pasted JSON, an inline score request.

Read strictly: unknown keys, wrong types and values a game cannot have are refused with
problems naming the field (``VariantRejected``), never with another exception.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .house_rules import (
    FORMAT,
    FORMAT_VERSION,
    HOUSE_PREFIX,
    HouseRules,
    RulesSource,
    house_rules_of,
    read_changes,
)
from .json_numbers import read_json_number
from .messages import N_, Problem, Term
from .names import clean_name, refused_characters
from .params import (
    ID_PATTERN,
    MAX_ID,
    MAX_TEXT,
    PARAMS,
    PER_DEAL_FIELDS,
    VARIANT_FIELDS,
    VariantRejected,
    check_value,
    field_problem,
    params_for,
    problem_at,
    quoted,
    same_value,
    sets_every_deal,
    value_at,
)
from .variant_checks import validate_variant
from .variants import (
    BUILT_IN,
    MAX_DEALS,
    PAGAT,
    UnknownVariant,
    Variant,
    get_variant,
    is_one_number,
    variant_from_dict,
    with_every_deal_values,
)

MAX_FILE_BYTES = 16 * 1024
"""A shared file's size limit: a house variant's file is well under 2 KB."""


_HOUSE_KEYS = frozenset(
    {"format", "version", "id", "name", "summary", "based_on", "changes", "source"}
)
_SOURCE_KEYS = ("author", "title", "address")
MAX_SOURCE_PART = 150
"""The longest author, title or address of the rules' source: the three fit in a variant's
source text (`MAX_TEXT`)."""
_HOUSE_REQUIRED = ("name", "based_on", "changes")
FULL_OPTIONAL: Mapping[str, Any] = {
    "summary": "",
    "source": "",
    "inferred": [],
    **{
        param.key: value_at(PAGAT.to_dict(), param.key)
        for param in PARAMS
        if param.optional_in_whole and param.field == param.key
    },
}
"""What a whole variant may leave out, and the value it then has."""
_NESTED_OPTIONAL: Mapping[str, Any] = {
    param.key: value_at(PAGAT.to_dict(), param.key)
    for param in PARAMS
    if param.optional_in_whole and param.field != param.key
}
"""Parts of a variant's objects (``book_bonus.lady``) a whole variant may leave out, and the
value each then has."""
_DERIVED = ("deals",)
"""Whole-variant fields that may be left out because others say them (first_meld's length)."""


_RULE_FIELDS = frozenset(VARIANT_FIELDS) - {"id", "name", "summary", "source", "inferred"}


def is_house_form(data: Mapping[str, Any]) -> bool:
    """House form (``based_on`` and ``changes``) unless the data holds a variant's own rules."""
    return "based_on" in data or "changes" in data or not any(k in data for k in _RULE_FIELDS)


def house_rules_from_json(data: object) -> HouseRules:
    """House rules from a shared file's data (house form or a whole variant), checked.

    Raises VariantRejected, naming every field, for anything a table cannot play.
    """
    if not isinstance(data, Mapping):
        raise VariantRejected([problem_at(None, N_("The variant must be a JSON object."))])
    if not is_house_form(data):
        variant = _full_variant(data)
        rules = house_rules_of(variant)
        if not variant.id.startswith(HOUSE_PREFIX):
            rules = HouseRules(rules.name, rules.based_on, rules.changes, rules.summary)
        rules.checked_variant()
        return rules
    problems = [
        problem_at(key, N_("Unknown field {value}."), value=quoted(key))
        for key in data
        if key not in _HOUSE_KEYS
    ]
    problems += [
        problem_at(key, N_("{key} is required."), key=key)
        for key in _HOUSE_REQUIRED
        if key not in data
    ]
    if "format" in data and data["format"] != FORMAT:
        problems.append(
            field_problem("format", N_("{field} must be {value}."), value=quoted(FORMAT))
        )
    if "version" in data and not same_value(data["version"], FORMAT_VERSION):
        problems.append(
            field_problem(
                "version",
                N_("{field} {value} is not known; this app reads version {known}."),
                value=quoted(data["version"]),
                known=FORMAT_VERSION,
            )
        )
    for key in ("id", "name", "summary", "based_on"):
        if key in data and not isinstance(data[key], str):
            problems.append(problem_at(key, N_("{key} must be text."), key=key))
    if problems:
        raise VariantRejected(problems)
    slug = ""
    if "id" in data:
        given = data["id"]
        if (
            not given.startswith(HOUSE_PREFIX)
            or not ID_PATTERN.fullmatch(given)
            or (len(given) > MAX_ID)
        ):
            raise VariantRejected(
                [
                    field_problem(
                        "id",
                        N_(
                            "The {field} of house rules starts with {prefix} and holds only "
                            "lowercase letters, digits and single dashes (entered {value})."
                        ),
                        prefix=HOUSE_PREFIX,
                        value=quoted(given),
                    )
                ]
            )
        slug = given[len(HOUSE_PREFIX) :]
    summary = data.get("summary", "")
    if len(summary) > MAX_TEXT:
        raise VariantRejected(
            [
                field_problem(
                    "summary", N_("The {field} can be at most {most} characters."), most=MAX_TEXT
                )
            ]
        )
    source = _read_source(data["source"]) if "source" in data else None
    rules = HouseRules(data["name"], data["based_on"], data["changes"], summary, slug, source)
    problems = rules.problems()
    if problems:
        raise VariantRejected(problems)
    changes, _ = read_changes(data["changes"])
    return rules.with_changes(changes)


def _read_source(raw: object) -> RulesSource:
    """The published rules that house rules were made from: an object of ``author``,
    ``title`` and ``address``, each text. Raises VariantRejected naming the field."""
    if not isinstance(raw, Mapping):
        raise VariantRejected([field_problem("source", N_("{field} must be a JSON object."))])
    problems = [
        problem_at("source", N_("Unknown field {value}."), value=quoted(key))
        for key in raw
        if key not in _SOURCE_KEYS
    ]
    for key in _SOURCE_KEYS:
        where = f"source.{key}"
        if key not in raw:
            problems.append(problem_at(where, N_("{key} is required."), key=where))
        elif not isinstance(raw[key], str):
            problems.append(problem_at(where, N_("{key} must be text."), key=where))
        elif len(raw[key]) > MAX_SOURCE_PART or refused_characters(raw[key]):
            problems.append(
                problem_at(
                    where,
                    N_(
                        "{key} must be text of at most {most} characters, with no control "
                        "characters."
                    ),
                    key=where,
                    most=MAX_SOURCE_PART,
                )
            )
    if problems:
        raise VariantRejected(problems)
    return RulesSource(raw["author"], raw["title"], raw["address"])


def variant_from_json(data: object) -> Variant:
    """A variant given inline (a score request's ``"variant": {...}``), checked.

    Takes the house form (``based_on`` and ``changes``) or a whole variant as
    ``GET /api/v1/variants`` lists them. Raises VariantRejected naming every field.
    """
    if not isinstance(data, Mapping):
        raise VariantRejected([problem_at(None, N_("The variant must be a JSON object."))])
    if is_house_form(data):
        return house_rules_from_json(data).variant()
    return _full_variant(data)


def _full_variant(data: Mapping[str, Any]) -> Variant:
    problems = [
        problem_at(str(key)[:40], N_("Unknown field {value}."), value=quoted(key))
        for key in data
        if key not in VARIANT_FIELDS
    ]
    complete = {**FULL_OPTIONAL, **data}
    problems += [
        problem_at(key, N_("{key} is required."), key=key)
        for key in VARIANT_FIELDS
        if key not in complete and key not in _DERIVED
    ]
    if problems:
        raise VariantRejected(problems)
    _fill_nested_optional(complete)
    problems += _check_meta_types(complete)
    problems += _check_nested_shape(complete)
    if problems:
        raise VariantRejected(problems)
    deals = len(complete["first_meld"])
    complete = with_every_deal_values(complete, deals)
    complete.setdefault("deals", deals)
    for param in params_for(deals):
        if not param.every_deal:
            problems += check_value(param, value_at(complete, param.key))
    if problems:
        raise VariantRejected(problems)
    # Names and texts read as every other way in reads them (``names``).
    texts = {key: clean_name(complete[key]) for key in ("name", "summary", "source")}
    variant = variant_from_dict({**complete, **texts})
    problems = validate_variant(variant)
    built_in = BUILT_IN.get(variant.id)
    if built_in is not None and built_in != variant:
        problems.append(
            field_problem(
                "id",
                N_(
                    "The {field} {value} belongs to a built-in variant; give changed rules an "
                    "id of their own."
                ),
                value=quoted(variant.id),
            )
        )
    if problems:
        raise VariantRejected(problems)
    return variant


def _fill_nested_optional(data: dict[str, Any]) -> None:
    """Give each object of a whole variant the parts it may leave out (files written before
    those parts existed), leaving objects of the wrong shape for the checks to name."""
    for key, value in _NESTED_OPTIONAL.items():
        field, name = key.split(".", 1)
        if isinstance(data.get(field), Mapping) and name not in data[field]:
            data[field] = {**data[field], name: value}


def _check_meta_types(data: Mapping[str, Any]) -> Iterator[Problem]:
    for key in ("id", "name", "summary", "source"):
        if not isinstance(data[key], str):
            yield problem_at(key, N_("{key} must be text."), key=key)
        elif len(data[key]) > MAX_TEXT:
            yield field_problem(
                key, N_("The {field} can be at most {most} characters."), most=MAX_TEXT
            )
    inferred = data["inferred"]
    if (
        not isinstance(inferred, list)
        or len(inferred) > len(VARIANT_FIELDS)
        or not all(isinstance(name, str) for name in inferred)
    ):
        yield problem_at("inferred", N_("{key} must be a list of rule names."), key="inferred")


def _check_nested_shape(data: Mapping[str, Any]) -> Iterator[Problem]:
    """Objects and per-deal lists hold exactly the keys and items a variant has."""
    template = PAGAT.to_dict()
    for key, expected in template.items():
        if key not in data:
            continue  # a field others say (``_DERIVED``), left out
        value = data[key]
        if isinstance(expected, dict):
            yield from _check_object_keys(key, value, expected)
        elif key in PER_DEAL_FIELDS:
            wrong_length = list(check_deal_list(data, key))
            yield from wrong_length
            if key == "going_out" and not wrong_length:
                for deal, books in enumerate(value, start=1):
                    yield from _check_object_keys(f"{key}.{deal}", books, expected[0])


def check_deal_lists(data: Mapping[str, Any]) -> Iterator[Problem]:
    """Each per-deal list of a variant's data holds one value for each deal (`check_deal_list`),
    where the data has it and the first meld's list that counts the deals."""
    if "first_meld" not in data:
        return
    for key in PER_DEAL_FIELDS:
        if key in data:
            yield from check_deal_list(data, key)


def check_deal_list(data: Mapping[str, Any], key: str) -> Iterator[Problem]:
    """A per-deal list of a whole variant holds one value for each deal, as first_meld does.

    This is the one rule of a variant's shape that a JSON Schema cannot state.
    """
    value = data[key]
    if sets_every_deal(key) and is_one_number(value):
        return
    first_meld = data["first_meld"]
    deals = len(first_meld) if isinstance(first_meld, list) else 0
    if key == "first_meld" and "deals" in data and data["deals"] != deals:
        yield field_problem(
            "deals",
            N_("{field} must be the number of values in first_meld ({count})."),
            count=deals,
        )
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DEALS or len(value) != deals:
        yield field_problem(
            key,
            N_(
                "{field} must be a list of one value per deal, as many as first_meld "
                "has (1 to {most})."
            ),
            most=MAX_DEALS,
        )


def _check_object_keys(key: str, value: object, expected: Mapping[str, Any]) -> Iterator[Problem]:
    if not isinstance(value, Mapping):
        yield problem_at(key, N_("{key} must be a JSON object."), key=key)
        return
    for name in value:
        if name not in expected:
            yield problem_at(key, N_("{key}: unknown field {value}."), key=key, value=quoted(name))
    for name in expected:
        if name not in value:
            yield problem_at(f"{key}.{name}", N_("{key} is required."), key=f"{key}.{name}")


class _Refused(ValueError):
    """JSON that parses but that this reader refuses, with the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _refuse_constant(name: str) -> None:
    raise _Refused(
        problem_at(
            None,
            N_("{what} holds {value}, which is not a number."),
            what=Term(N_("The file")),
            value=name[:20],
        )
    )


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(
                problem_at(
                    None,
                    N_("{what} gives the key {value} twice."),
                    what=Term(N_("The file")),
                    value=quoted(key),
                )
            )
        result[key] = value
    return result


def parse_json_text(raw: bytes | str, what: Term | None = None) -> object:
    """JSON read defensively: size-limited, UTF-8, no NaN, no repeated keys, not too deep.

    Raises VariantRejected with a plain message for anything else.
    """
    what = what or Term(N_("The file"))
    if len(raw) > MAX_FILE_BYTES:
        raise VariantRejected(
            [
                problem_at(
                    None,
                    N_("{what} is larger than {most} KB; shared rules are far smaller."),
                    what=what,
                    most=MAX_FILE_BYTES // 1024,
                )
            ]
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise VariantRejected(
                [problem_at(None, N_("{what} is not UTF-8 text."), what=what)]
            ) from None
    try:
        return json.loads(
            raw,
            parse_constant=_refuse_constant,
            parse_float=read_json_number,
            object_pairs_hook=_no_duplicate_keys,
        )
    except json.JSONDecodeError as error:
        raise VariantRejected(
            [
                problem_at(
                    None,
                    N_("{what} is not valid JSON (line {line}, column {column})."),
                    what=what,
                    line=error.lineno,
                    column=error.colno,
                )
            ]
        ) from None
    except _Refused as refusal:
        problem = refusal.problem
        params = {**problem.params, "what": what}
        raise VariantRejected([Problem(None, None, problem.template, params)]) from None
    except RecursionError:
        raise VariantRejected(
            [problem_at(None, N_("{what} is nested too deeply to be a variant."), what=what)]
        ) from None
    except ValueError:
        raise VariantRejected(
            [problem_at(None, N_("{what} is not JSON a variant can be read from."), what=what)]
        ) from None


def read_house_file(raw: bytes | str) -> HouseRules:
    """House rules from a shared file; VariantRejected with a message for anything else."""
    return house_rules_from_json(parse_json_text(raw))


def resolve_variant(raw: object, find: Callable[[str], Variant] = get_variant) -> Variant:
    """A score request's ``variant``: an id ``find`` knows (a built-in one by default), or an
    inline variant object.

    Raises UnknownVariant for an unknown id and VariantRejected for an object that cannot
    be played.
    """
    if isinstance(raw, Mapping):
        return variant_from_json(raw)
    if isinstance(raw, str):
        return find(raw)
    raise UnknownVariant(raw)
