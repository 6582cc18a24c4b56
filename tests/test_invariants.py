"""The invariant language: parser, monitor (against a brute-force evaluator), files and reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint import lint
from mechlint.config import load_config
from mechlint.errors import ConfigError
from mechlint.invariants.formula import FormulaError, Node, parse, show
from mechlint.invariants.loader import load_file
from mechlint.invariants.monitor import StepView, evaluate
from mechlint.report import OutputOptions, reporter

from .conftest import FIXTURES, SEED

INVARIANT_FIXTURES = FIXTURES / "rules" / "invariant" / "reuse-after-store-and-compare"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('path("a") and path("b") or path("c")', '((path("a") and path("b")) or path("c"))'),
        ('path("a") implies path("b") implies path("c")', '(path("a") implies (path("b") implies path("c")))'),
        ('not once path("a") since path("b")', '(not(once(path("a"))) since path("b"))'),
        ('previously(once(text("x \\"y\\"")))', 'previously(once(text("x "y"")))'),
        ('state("stage", "^Keep") or true', '(state("stage", "^Keep") or true)'),
    ],
)
def test_parser_precedence(text: str, shown: str) -> None:
    assert show(parse(text)) == shown


@pytest.mark.parametrize(
    ("text", "offset", "fragment"),
    [
        ('path("a") and', 13, "expected a condition"),
        ('path("a" and path("b")', 9, "expected ')'"),
        ('paths("a")', 0, "unknown name 'paths'"),
        ('path("a") path("b")', 10, "after a complete formula"),
        ('text("(")', 6, "invalid regular expression"),
        ("path(a)", 5, "string argument"),
        ('path("a") & path("b")', 10, "unexpected character '&'"),
        ('and path("a")', 0, "needs a condition on its left"),
        ('state("k")', 9, "expected ','"),
        ("(" * 200 + "true" + ")" * 200, 101, "nests deeper"),
    ],
)
def test_parser_errors_have_positions(text: str, offset: int, fragment: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(text)
    assert fragment in caught.value.message
    assert caught.value.offset == offset


# --- the monitor against a brute-force evaluator of the same semantics ---

ATOMS = [Node("active", values=("a",)), Node("path", values=("e",)), Node("text", values=("k",))]


def formulas() -> st.SearchStrategy[Node]:
    leaves = st.sampled_from([*ATOMS, Node("const", values=("true",)), Node("const", values=("false",))])
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.builds(
                lambda a, op: Node(op, (a,)), children, st.sampled_from(["not", "previously", "once", "historically"])
            ),
            st.builds(
                lambda a, b, op: Node(op, (a, b)),
                children,
                children,
                st.sampled_from(["and", "or", "implies", "since"]),
            ),
        ),
        max_leaves=12,
    )


step_views = st.lists(
    st.builds(
        lambda a, e, k: StepView("t", "k" if k else "", frozenset({"a"} if a else ()), frozenset({"e"} if e else ())),
        st.booleans(),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=12,
)


def brute(node: Node, steps: list[StepView], i: int) -> bool:
    op, args = node.op, node.args
    if op == "const":
        return node.values[0] == "true"
    if op == "active":
        return "a" in steps[i].active
    if op == "path":
        return "e" in steps[i].paths
    if op == "text":
        return "k" in steps[i].text
    if op == "not":
        return not brute(args[0], steps, i)
    if op == "and":
        return brute(args[0], steps, i) and brute(args[1], steps, i)
    if op == "or":
        return brute(args[0], steps, i) or brute(args[1], steps, i)
    if op == "implies":
        return not brute(args[0], steps, i) or brute(args[1], steps, i)
    if op == "previously":
        return i > 0 and brute(args[0], steps, i - 1)
    if op == "once":
        return any(brute(args[0], steps, j) for j in range(i + 1))
    if op == "historically":
        return all(brute(args[0], steps, j) for j in range(i + 1))
    # since: the right side held at some j <= i, and the left side at every step after j
    return any(
        brute(args[1], steps, j) and all(brute(args[0], steps, k) for k in range(j + 1, i + 1)) for j in range(i + 1)
    )


@settings(max_examples=300, deadline=None)
@given(formulas(), step_views)
def test_monitor_agrees_with_brute_force(formula: Node, steps: list[StepView]) -> None:
    column = evaluate(formula, steps, {})[id(formula)]
    assert column == [brute(formula, steps, i) for i in range(len(steps))]


def test_a_long_scenario_is_checked(tmp_path: Path) -> None:
    data = json.loads(SEED.read_text())
    steps = data["scenarios"][0]["steps"]
    data["scenarios"][0]["steps"] = steps[:3] + [steps[3]] * 100_000
    path = tmp_path / "mechanisms" / "long.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data))
    report = lint([path], load_config(start=tmp_path).with_flags(select=["invariant"]), root=tmp_path)
    assert report.results == []


# --- files ---

GOOD = """
[[invariant]]
name = "tail-after-reuse"
level = "warning"
summary = "The tail is prefilled only after the cached blocks were used again."
formula = 'active("tail") implies once(path("reuse*"))'
"""


@pytest.mark.parametrize(
    ("text", "fragment", "line"),
    [
        ("[[invariant]]\nname = 'x'\n", "missing the required key", None),
        ("[[invariant]]\nname = 'Bad Name'\nsummary = 's'\nformula = 'true'\n", "Bad Name", None),
        ("[[invariant]]\nname = 'x'\nsummary = 's'\nformula = 'true'\ncolour = 1\n", "colour", 5),
        (
            "[[invariant]]\nname = 'x'\nsummary = 's'\nformula = '''\npath(\"a\") oops\n'''\n",
            "after a complete formula",
            5,
        ),
        ("[[invariant]\n", "not valid TOML", 1),
        ("[[invariant]]\nname = 'x'\nsummary = 's'\nformula = 'nope'\n", "unknown name 'nope'", 4),
    ],
)
def test_malformed_invariant_files_are_rejected_with_a_place(
    tmp_path: Path, text: str, fragment: str, line: int | None
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_file(path)
    assert fragment in str(caught.value)
    assert caught.value.path == path
    if line is not None:
        assert caught.value.line == line


def test_user_invariants_from_configuration(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(GOOD)
    (tmp_path / "mechlint.toml").write_text(
        'invariants = ["mine.toml"]\n[rules."invariant/tail-after-reuse"]\nlevel = "error"\n'
    )
    config = load_config(start=tmp_path)
    data = json.loads(SEED.read_text())
    for step in data["scenarios"][0]["steps"]:
        step["paths"] = [p for p in step["paths"] if not p.startswith("reuse")]
    path = tmp_path / "mechanisms" / "x.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data, indent=2))
    rules = {r.rule_id: r for r in lint([path], config, root=tmp_path).results}
    assert rules["invariant/tail-after-reuse"].pointer == "/scenarios/0/steps/4"
    assert rules["invariant/tail-after-reuse"].level.label == "error"


def test_findings_carry_a_trace_into_text_and_sarif() -> None:
    path = INVARIANT_FIXTURES / "fail-reuse-before-store.json"
    report = lint(
        [path], load_config(start=FIXTURES).with_flags(select=["invariant"]), root=FIXTURES, fingerprints=True
    )
    first = report.results[0]
    assert "store" in first.message and "steps[1]" in first.message
    assert [step.pointer for step in first.trace] == [
        "/scenarios/0/steps/1",
        "/scenarios/0/steps/2",
        "/scenarios/0/steps/3",
    ]
    text = reporter("text")(report, OutputOptions())
    assert "    trace:" in text
    sarif = json.loads(reporter("sarif")(report, OutputOptions(root_uri=FIXTURES.as_uri() + "/")))
    flow = sarif["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]["locations"]
    assert len(flow) == 3
    assert all(step["location"]["message"]["text"] for step in flow)
