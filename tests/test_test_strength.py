"""No test can pass having checked nothing.

A test checks something when it has an ``assert``, a ``pytest.raises`` (or
``warns``), a mock's ``assert_*`` call, or a call to a helper of the tests
that does one of these. That check must be reached on every run: a test whose
checks all sit inside a ``for`` or ``while`` loop passes when the loop runs
zero times (an empty glob, a filter that matches nothing), unless the loop
goes over a literal that is not empty.

A smoke test (one whose point is that the code runs without raising) says
so in ``SMOKE_TESTS``, with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: tests whose point is that the code runs without raising: ``"file.py::test"`` → why that is enough
SMOKE_TESTS: dict[str, str] = {
    "test_hostile.py::test_lone_surrogates_in_strings_do_not_break_any_report": (
        "every reporter runs over text with lone surrogates; raising is the failure"
    ),
    "test_html_report.py::test_story_survives_malformed_documents": (
        "the storyboard is built from malformed documents; raising is the failure"
    ),
    "test_lsp_units.py::test_author_help_never_raises_on_any_text": (
        "a property test over any text: the editor help must not raise"
    ),
}

_RAISES = {"raises", "warns", "deprecated_call"}
#: calls that raise when what they look at is wrong: a schema's ``validate``, ``pytest.fail``
_RAISING_CALLS = {"validate", "fail"}

Function = ast.FunctionDef | ast.AsyncFunctionDef
Loop = ast.For | ast.AsyncFor | ast.While | ast.comprehension


def _called_name(call: ast.Call) -> str:
    func = call.func.value if isinstance(call.func, ast.Subscript) else call.func  # TABLE[key](...)
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _is_direct_check(node: ast.AST) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Raise) and node.exc is not None:
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(raised, ast.Name) and raised.id == "AssertionError"
    if isinstance(node, ast.With | ast.AsyncWith):
        return any(
            isinstance(item.context_expr, ast.Call) and _called_name(item.context_expr) in _RAISES
            for item in node.items
        )
    return isinstance(node, ast.Call) and (
        _called_name(node).startswith("assert_") or _called_name(node) in _RAISING_CALLS
    )


def _functions(tree: ast.AST) -> Iterator[Function]:
    yield from (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(TESTS.rglob("*.py"))}


def _checking_helpers(trees: dict[Path, ast.Module]) -> set[str]:
    """Names of the tests' helper functions that check something, directly or through another helper."""
    calls: dict[str, set[str]] = {}
    checking: set[str] = set()
    for tree in trees.values():
        for function in _functions(tree):
            nodes = list(ast.walk(function))
            if any(_is_direct_check(node) for node in nodes):
                checking.add(function.name)
            calls.setdefault(function.name, set()).update(
                _called_name(node) for node in nodes if isinstance(node, ast.Call)
            )
    changed = True
    while changed:
        grown = {name for name, called in calls.items() if called & checking}
        changed = not grown <= checking
        checking |= grown
    for tree in trees.values():  # CHECKS = {"json": _check_json, ...}: CHECKS[name](...) checks
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
                values = node.value.values
                if values and all(isinstance(v, ast.Name) and v.id in checking for v in values):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    checking.update(t.id for t in targets if isinstance(t, ast.Name))
    return checking


def _nonempty_literal(iterable: ast.expr) -> bool:
    if isinstance(iterable, ast.List | ast.Tuple | ast.Set):
        return bool(iterable.elts)
    if isinstance(iterable, ast.Dict):
        return bool(iterable.keys)
    if isinstance(iterable, ast.Constant):
        return bool(iterable.value)
    if isinstance(iterable, ast.Call) and _called_name(iterable) == "range" and len(iterable.args) == 1:
        bound = iterable.args[0]
        return isinstance(bound, ast.Constant) and isinstance(bound.value, int) and bound.value > 0
    return False


def _checks(function: Function, helpers: set[str]) -> Iterator[tuple[ast.AST, list[Loop]]]:
    """Each check in ``function`` (not in functions nested in it), with the loops around it that may run zero times."""

    literals = {  # names bound once, in the test, to a literal that is not empty: ``leaves = {...}``
        target.id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and _nonempty_literal(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }

    def nonempty(iterable: ast.expr) -> bool:
        return _nonempty_literal(iterable) or (isinstance(iterable, ast.Name) and iterable.id in literals)

    def visit(node: ast.AST, loops: list[Loop]) -> Iterator[tuple[ast.AST, list[Loop]]]:
        if _is_direct_check(node) or (isinstance(node, ast.Call) and _called_name(node) in helpers):
            yield node, loops
        if isinstance(node, ast.For | ast.AsyncFor):
            yield from visit(node.iter, loops)
            inner = loops if nonempty(node.iter) else [*loops, node]
            for child in node.body:
                yield from visit(child, inner)
            for child in node.orelse:
                yield from visit(child, loops)
            return
        if isinstance(node, ast.While):
            yield from visit(node.test, loops)
            for child in node.body:
                yield from visit(child, [*loops, node])
            return
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            generators = [g for g in node.generators if not nonempty(g.iter)]
            for child in ast.iter_child_nodes(node):
                yield from visit(child, [*loops, *generators])
            return
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                yield from visit(child, loops)

    for statement in function.body:
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield from visit(statement, [])


def _tests(trees: dict[Path, ast.Module]) -> Iterator[tuple[str, Function]]:
    for path, tree in trees.items():
        if not path.name.startswith("test_"):
            continue
        nodes = [*tree.body, *(n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body)]
        for node in nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                yield f"{path.relative_to(TESTS).as_posix()}::{node.name}", node


def weak_tests() -> dict[str, str]:
    """``{test: what is wrong and how to fix it}`` for every test that can pass having checked nothing."""
    trees = _trees()
    helpers = _checking_helpers(trees)
    found = {}
    for name, function in _tests(trees):
        if name in SMOKE_TESTS:
            continue
        checks = list(_checks(function, helpers))
        if not checks:
            found[name] = (
                "checks nothing (no assert, pytest.raises or checking helper): assert on what it computes, "
                "or, if it is a smoke test, add it to SMOKE_TESTS in tests/test_test_strength.py with the reason"
            )
        elif all(loops for _, loops in checks):
            loop = checks[0][1][0]
            over = loop.iter if isinstance(loop, ast.For | ast.AsyncFor | ast.comprehension) else loop.test
            found[name] = (
                f"asserts only inside the loop over `{ast.unparse(over)}` (line {getattr(loop, 'lineno', '?')}), "
                "which may run zero times: assert that the collection is not empty first, "
                "or assert on the whole collection (assert [...] == [...], assert all(...) after assert xs)"
            )
    return found


def test_no_test_can_pass_having_checked_nothing() -> None:
    found = weak_tests()
    assert found == {}, "\n".join(f"{name} {why}" for name, why in sorted(found.items()))


def test_the_smoke_tests_exist() -> None:
    known = {name for name, _ in _tests(_trees())}
    assert set(SMOKE_TESTS) <= known


CASES = """
import pytest

def helper(x):
    assert x

def test_nothing():
    compute()

def test_in_a_loop(items):
    for item in items:
        assert item

def test_in_a_comprehension(items):
    [helper(item) for item in items]

def test_in_a_literal_loop():
    for item in (1, 2):
        assert item

def test_guarded(items):
    assert items
    for item in items:
        assert item

def test_raises():
    with pytest.raises(ValueError):
        int("x")

def test_by_helper():
    helper(1)

def test_mock(mock):
    mock.assert_called_once_with(1)

def test_nested_function_only():
    def inner():
        assert False

def test_named_literal():
    leaves = {"a", "b"}
    for leaf in leaves:
        assert leaf

def test_raise_assertion_error(graph):
    if graph:
        raise AssertionError("cycle")

def test_validates(validator, data):
    validator.validate(data)
"""


def test_the_check_tells_weak_tests_from_strong_ones(tmp_path: Path) -> None:
    tree = ast.parse(CASES)
    helpers = _checking_helpers({tmp_path / "helpers.py": tree})
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name.startswith("test")}
    verdicts = {}
    for name, function in functions.items():
        checks = list(_checks(function, helpers))
        verdicts[name] = "none" if not checks else "loop" if all(loops for _, loops in checks) else "ok"
    assert verdicts == {
        "test_nothing": "none",
        "test_in_a_loop": "loop",
        "test_in_a_comprehension": "loop",
        "test_in_a_literal_loop": "ok",
        "test_guarded": "ok",
        "test_raises": "ok",
        "test_by_helper": "ok",
        "test_mock": "ok",
        "test_nested_function_only": "none",
        "test_named_literal": "ok",
        "test_raise_assertion_error": "ok",
        "test_validates": "ok",
    }
