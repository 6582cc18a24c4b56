"""Edges of the invariant language that mutation testing found unchecked (``scripts/mutate.py``, issue 32).

Each test pins one decision of ``mechlint/invariants/`` exactly: a column
of values, a whole message with its trace, a parser's error and its place.
Mechanism documents are built here, as small as the rules allow, and the
invariants are written out in the test that uses them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import load_config
from mechlint.invariants.formula import FormulaError, Node, parse, show
from mechlint.invariants.monitor import StepView, candidate_bindings, evaluate, step_view, verb
from mechlint.invariants.vocabulary import values_of


def _step(title: str, paths: list[str], active: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    return {"title": title, "duration": 4000, "active": active or [], "paths": paths, **fields}


def _document(*steps: dict[str, Any], scenario: str = "one", edges: tuple[str, ...] = ()) -> dict[str, Any]:
    """A mechanism with the edges its steps animate (and ``edges``) as targets, and one scenario of ``steps``."""
    keys = sorted({*edges, *(key for step in steps for key in (*step["paths"], *step["active"]))})
    return {
        "version": 1,
        "language": "en",
        "title": "A small mechanism",
        "description": "Steps that animate a few edges.",
        "caption": "A few edges.",
        "alt": "A few edges are animated one after the other.",
        "sources": [],
        "limitations": ["The timing is an example."],
        "targets": {key: {"id": f"mechanism-{key}", "kind": "edge", "label": key.title()} for key in keys},
        "stateLabels": {"stage": "Stage"},
        "scenarios": [
            {"id": scenario, "title": "One", "description": "The steps.", "initial": {"stage": "Start"}, "steps": [*steps]}
        ],
    }


def _lint(tmp_path: Path, invariants: str, data: dict[str, Any]) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """The invariant findings on ``data`` under the invariant file ``invariants``: (rule, pointer, message, trace)."""
    (tmp_path / "mine.toml").write_text(invariants, encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["mine.toml"]\n', encoding="utf-8")
    path = tmp_path / "mechanisms" / "x.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    config = load_config(start=tmp_path).with_flags(select=["invariant"])
    report = lint([path], config, root=tmp_path)
    return [(r.rule_id, r.pointer, r.message, [(t.pointer, t.message) for t in r.trace]) for r in report.results]


def _invariant(formula: str, name: str = "mine", **fields: str) -> str:
    lines = ["[[invariant]]", f'name = "{name}"', 'summary = "A rule of the test."', f"formula = '{formula}'"]
    lines += [f"{key} = '{value}'" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


# -- monitor.py ---------------------------------------------------------------------------------------------------


def test_verb_says_what_a_step_does_for_each_atom() -> None:
    binding = {"n": "3"}
    assert verb(parse('path("reuse{n}")'), binding, {}) == "animates reuse3"
    assert verb(parse('active("b{n}*")'), binding, {}) == "lights b3*"
    assert verb(parse('target("store{n}")'), binding, {}) == "belongs to a file with the target store3"
    assert verb(parse('target("store{n}", "node")'), binding, {}) == "belongs to a file with the node store3"
    assert verb(parse('text("^Keep")'), binding, {}) == "has text matching /^Keep/"
    assert verb(parse('state("stage", "Keep|Hold")'), binding, {}) == "has a state stage matching /Keep|Hold/"
    assert verb(parse('once(path("a")) and not text("b")'), binding, {}) == (
        'satisfies (once(path("a")) and not(text("b")))'
    )


def test_verb_of_a_definition_is_its_says_or_its_name() -> None:
    inner = parse('path("a")')
    ref = parse("stored", {"stored": inner})
    assert verb(ref, {}, {"stored": "stores the block"}) == "stores the block"
    assert verb(ref, {}, {"stored": ""}) == "satisfies stored"  # an empty says is no wording
    assert verb(ref, {}, {}) == "satisfies stored"


def test_a_placeholder_in_a_target_with_a_kind_takes_its_values_from_the_keys() -> None:
    root = parse('target("store{n}", "edge") and path("reuse{n}")')
    assert candidate_bindings(root, ["store0", "reuse1", "store-x", "edge"]) == [{"n": "0"}, {"n": "1"}]


def test_a_formula_without_placeholders_has_one_empty_binding() -> None:
    assert candidate_bindings(parse('path("reuse*")'), ["reuse0", "reuse1"]) == [{}]


# -- formula.py: the parser's errors, each whole, at its place ------------------------------------------------------

DEFINED = {"stored": parse("true"), "kept": parse("false")}


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ('path("a") and )', 14, "expected a condition, found ')'"),
        ('path("a") implies )', 18, "expected a condition, found ')'"),
        ('path("a") and', 13, "expected a condition, found the end of the formula"),
        ('"a"', 0, "expected a condition, found '\"a\"'"),
        ('path("a"', 8, "expected ')', found the end of the formula"),
        ('path("a" and path("b")', 9, "expected ')', found 'and'"),
        ('target("a" "edge")', 11, "expected ')', found '\"edge\"'"),
        ('target("a", "edge", "node")', 18, "expected ')', found ','"),
        ('text("a", "b")', 8, "expected ')', found ','"),
        ('state("k" "r")', 10, "expected ',', found '\"r\"'"),
        ("path(a)", 5, "path() takes 1 string argument(s) in double quotes"),
        ("state()", 6, "state() takes 2 string argument(s) in double quotes"),
        ("target(x)", 7, "target() takes 1 or 2 string argument(s) in double quotes"),
        ('target("a",', 11, "target() takes 1 or 2 string argument(s) in double quotes"),
        ('target("a", "nodes")', 13, "the kind of a target is node or edge, not 'nodes'"),
        ('path("a*b*c*d*e")', 6, "invalid glob: a glob may have at most 3 '*'"),  # MAX_STARS, written out
        ('target("s*t*o*r*e", "edge")', 8, "invalid glob: a glob may have at most 3 '*'"),
        ('state("k", "(")', 12, "invalid regular expression: missing ): ("),
        ('path("a") "b"', 10, "unexpected '\"b\"' after a complete formula (missing 'and' or 'or'?)"),
        ('path("a") & path("b")', 10, "unexpected character '&'"),
        ('implies path("a")', 0, "'implies' needs a condition on its left"),
    ],
)
def test_a_formula_that_does_not_parse_says_what_and_where(text: str, offset: int, message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(text, DEFINED)
    assert (caught.value.offset, caught.value.message) == (offset, message)


def test_an_unknown_name_is_told_every_atom_and_the_definitions() -> None:
    atoms = "use active, path, text, state, target, an operator, or a definition"
    with pytest.raises(FormulaError) as caught:
        parse("nothing")
    assert (caught.value.offset, caught.value.message) == (0, f"unknown name 'nothing'; {atoms} (none)")
    with pytest.raises(FormulaError) as caught:
        parse('path("a") and stores', DEFINED)
    assert (caught.value.offset, caught.value.message) == (14, f"unknown name 'stores'; {atoms} (kept, stored)")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('path("a*b*c*d")', 'path("a*b*c*d")'),  # three '*': the most a glob may have
        ('text("a*b*c*d*e*")', 'text("a*b*c*d*e*")'),  # a regex is no glob: no limit on its '*'
        ('state("k*k*k*k*", "v")', 'state("k*k*k*k*", "v")'),  # nor the key of a state
        ('target("s?", "node")', 'target("s?", "node")'),
        (' true\n', "true"),  # white space around a formula (a TOML multi-line string ends with a newline)
        ("stored or\n  kept", "(stored or kept)"),
        ('text("\\\\d \\"x\\"")', 'text("\\d "x"")'),  # the two escapes of a string
    ],
)
def test_a_formula_that_parses(text: str, shown: str) -> None:
    assert show(parse(text, DEFINED)) == shown


MAX_DEPTH = 100  # mechlint.invariants.formula.MAX_DEPTH, written out


@pytest.mark.parametrize(
    ("before", "open_", "close"),
    [
        ("", "(", ")"),
        ("", "not ", ""),
        ("", "once ", ""),
        ("(true implies true) and ", "(", ")"),  # the depth an 'implies' took is given back
        ("not true and ", "(", ")"),  # and a unary operator's
        ("(true) and ", "(", ")"),  # and a parenthesis's
        ("(" * 99 + "true" + ")" * 99 + " and ", "(", ")"),
    ],
)
def test_a_formula_nests_at_most_max_depth_levels(before: str, open_: str, close: str) -> None:
    nested = before + open_ * MAX_DEPTH + "true" + close * MAX_DEPTH
    parse(nested)
    deeper = before + open_ * (MAX_DEPTH + 1) + "true" + close * (MAX_DEPTH + 1)
    with pytest.raises(FormulaError) as caught:
        parse(deeper)
    where = len(before) + len(open_) * (MAX_DEPTH + 1)  # the token after the opener one level too deep
    assert (caught.value.offset, caught.value.message) == (where, "the formula nests deeper than 100 levels")


MAX_FORMULA_LENGTH = 10_000  # written out


def test_a_formula_is_at_most_max_formula_length_characters() -> None:
    assert parse("true" + " " * (MAX_FORMULA_LENGTH - 4)) == Node("const", values=("true",))
    with pytest.raises(FormulaError) as caught:
        parse("true" + " " * (MAX_FORMULA_LENGTH - 3))
    assert (caught.value.offset, caught.value.message) == (0, "the formula is longer than 10000 characters")


def test_a_placeholder_used_twice_binds_the_same_value() -> None:
    lit = [{"x1-1"}, {"x1-2"}, {"x12-12"}]
    steps = [StepView("t", "", frozenset(keys), frozenset()) for keys in lit]
    root = parse('active("x{n}-{n}")')
    assert evaluate(root, steps, {})[id(root)] == [True, False, True]
    assert candidate_bindings(root, ["x1-1", "x1-2", "x12-12"]) == [{"n": "1"}, {"n": "12"}]


def test_a_clause_is_shown_by_the_first_word_of_its_first_three_lists() -> None:
    values = values_of({"acts": ["compare", "look up"], "outcomes": ["match", "equal"], "keys": ["key"]})
    assert show(Node("clause", values=values)) == "clause(acts=compare, outcomes=match, keys=key, ...)"
    assert show(parse("stored", DEFINED)) == "stored"


# -- monitor.py: a clause definition's column ------------------------------------------------------------------------

COMPARES = Node("clause", values=values_of({"acts": ["compare"], "outcomes": ["match"], "keys": ["key"]}))
TEXTS = ("The keys match.", "It never compares the key.", "If the keys match, the entry is used.", "Nothing happens.")


def test_text_a_clause_cannot_judge_counts_as_it_is_told() -> None:
    steps = [step_view({"title": text}) for text in TEXTS]
    assert evaluate(COMPARES, steps, {})[id(COMPARES)] == [True, False, True, False]  # by default: it counts
    assert evaluate(COMPARES, steps, {}, undecided=True)[id(COMPARES)] == [True, False, True, False]
    assert evaluate(COMPARES, steps, {}, undecided=False)[id(COMPARES)] == [True, False, False, False]
    negated = parse("not c", {"c": COMPARES})
    assert evaluate(negated, steps, {}, undecided=False)[id(negated)] == [False, True, True, True]
