"""Each rule of the core has a stable machine-readable code, made from its message's template
(``rules.terms.code_of``): two different rules never share one."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from scorekeeper.rules.messages import Problem, Severity
from scorekeeper.rules.terms import CODE_LENGTH, Phrase, code_of

RULES = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"
CHECKING = (
    "validation.py",
    "json_entry.py",
    "variant_checks.py",
    "params.py",
    "variant_json.py",
    "house_rules.py",
)


def templates() -> set[str]:
    found = set()
    for name in CHECKING:
        for node in ast.walk(ast.parse((RULES / name).read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "N_"
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def test_a_code_is_the_templates_words_without_its_fields():
    template = "{side} went out, so no red three can still be held (entered {value})."
    assert code_of(template) == "went-out-so-no-red-three-can-still-be-held-entered"
    assert code_of("Keep names to %(max)s characters.") == "keep-names-to-characters"


def test_the_same_rule_has_the_same_code_whatever_its_values():
    first = Problem(
        1,
        "cards_left_points",
        "{side}: {field} cannot be below 0 (entered {value}).",
        {"side": "Us", "field": "x", "value": -5},
    )
    second = Problem(
        0,
        "meld_points",
        first.template,
        {"side": "Them", "field": "y", "value": -1},
        Severity.WARNING,
    )
    assert first.code == second.code == "cannot-be-below-0-entered"


def test_a_message_that_only_places_another_has_the_code_of_the_one_it_places():
    inner = Phrase("Only one side can go out in a deal; {count} are marked ({names}).")
    outer = Problem(None, "deals", "{where}: {problem}", {"where": "game 1", "problem": inner})
    assert outer.code == "only-one-side-can-go-out-in-a-deal-are-marked"


def all_words(template: str) -> str:
    """The template's words, without the cut ``code_of`` makes."""
    return "-".join(word for word in (code_of(part) for part in template.split()) if word)


def test_no_two_rules_of_the_core_share_a_code():
    """Two templates share a code only when their words are the same (the same rule said
    about a side or about the whole deal): the cut at ``CODE_LENGTH`` never joins two."""
    words_by_code: dict[str, set[str]] = defaultdict(set)
    for template in templates():
        words_by_code[code_of(template)].add(all_words(template))
    assert len(words_by_code) > 100
    assert {code: words for code, words in words_by_code.items() if len(words) > 1} == {}
    assert "" not in words_by_code
    assert all(len(code) <= CODE_LENGTH for code in words_by_code)
