"""Mutation testing of the modules that decide verdicts: would the tests notice a wrong decision?

For each module named on the command line, every mutant (one small change to
the code, one at a time) is written into a scratch copy of the project, never
into the checkout, and the tests that exercise the module run against it
(``pytest -x -q``, with a time limit). A mutant the tests fail on is
*killed*; one they pass is a *survivor*: a decision the tests do not check,
unless the change cannot alter behaviour (an *equivalent* mutant, judged by a
person and listed in ``docs/mutation-equivalent.json`` with the reason).

The operators are the usual ones: comparisons flipped (``==``/``!=``,
``in``/``not in``, ``is``/``is not``) and moved by one at their boundary
(``<``/``<=``, ``>``/``>=``), ``and``/``or`` swapped, ``not`` removed,
``+``/``-`` and ``*``/``/`` swapped, a returned value replaced by ``None``,
integers changed by one, ``True``/``False`` swapped, and the text of a
message (an f-string's literal part, or a literal with a space) emptied.

Usage::

    python scripts/mutate.py mechlint/rules/a11y/reading_time.py
    python scripts/mutate.py --all-verdicts --markdown docs/mutation.md --json mutation.json
    python scripts/mutate.py MODULE --tests tests/test_rule_edges.py tests/test_fixtures.py

The tests for a module are those whose source names the module (its dotted
name or, for a rule, its id), plus ``TESTS_ALWAYS``; ``--tests`` replaces
them. Run it on one core (``nice``): each mutant runs its tests afresh.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = ROOT / "docs" / "mutation-equivalent.json"

#: the modules that decide verdicts, in the order they are measured
VERDICT_MODULES = (
    "mechlint/rules/*/*.py",
    "mechlint/invariants/monitor.py",
    "mechlint/invariants/formula.py",
    "mechlint/invariants/explain.py",
    "mechlint/invariants/loader.py",
    "mechlint/invariants/textsearch.py",
    "mechlint/provenance/*.py",
    "mechlint/run/changed.py",
)

#: tests run for every module of a family (besides those naming the module); missing files are left out
TESTS_ALWAYS = {
    "mechlint/rules/": (
        "tests/test_rule_edges.py",
        "tests/test_messages_exact.py",
        "tests/test_fixtures.py",
        "tests/test_rule_catalogue.py",
    ),
    "mechlint/invariants/": ("tests/test_invariant_state_atom.py", "tests/test_invariants.py"),
}

#: the provenance rules' own test files, which most of their modules need whole
_PROVENANCE_RULE_TESTS = tuple(
    f"tests/test_provenance{part}.py" for part in ("", "_advice", "_facts", "_gone", "_pairs", "_truth")
)

#: the tests for a module where naming it picks too many slow end-to-end files, or too few
MODULE_TESTS = {
    "mechlint/rules/a11y/reading_time.py": ("tests/test_prose.py",),
    "mechlint/rules/reference/unused_target.py": ("tests/test_one_mistake.py",),
    "mechlint/rules/reference/unknown_target.py": ("tests/test_one_mistake.py",),
    "mechlint/rules/provenance/stale_source.py": (
        "tests/test_provenance.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_truth.py",
    ),
    "mechlint/rules/plain/undefined_acronym.py": (
        "tests/test_acronym_names.py",
        "tests/test_prose.py",
    ),
    "mechlint/invariants/monitor.py": ("tests/test_invariant_subjects.py",),
    "mechlint/rules/reference/state_keys.py": ("tests/test_one_mistake.py",),
    "mechlint/rules/schema/violation.py": (
        "tests/test_fastschema.py",
        "tests/test_one_mistake.py",
        "tests/test_schema_numbers.py",
    ),
    "mechlint/rules/schema/duplicate_key.py": ("tests/test_document.py",),
    "mechlint/rules/schema/invalid_json.py": ("tests/test_document.py",),
    "mechlint/rules/schema/placeholder.py": ("tests/test_new.py",),
    "mechlint/rules/provenance/unpinned_source.py": (
        "tests/test_provenance.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_pairs.py",
        "tests/test_provenance_truth.py",
    ),
    "mechlint/rules/provenance/unsafe_path.py": (  # not test_hostile.py: its Ctrl-C test fails under load
        "tests/test_provenance.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_pairs.py",
    ),
    "mechlint/rules/provenance/frozen_copy_mismatch.py": (
        "tests/test_provenance.py",
        "tests/test_provenance_advice.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_gone.py",
        "tests/test_provenance_truth.py",
    ),
    "mechlint/rules/provenance/digest_mismatch.py": _PROVENANCE_RULE_TESTS,
    "mechlint/rules/provenance/frozen_resolved.py": (
        "tests/test_checkout_shapes.py",
        "tests/test_provenance_advice.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_gone.py",
        "tests/test_provenance_truth.py",
    ),
    "mechlint/rules/provenance/gone_source.py": (
        "tests/test_checkout_shapes.py",
        "tests/test_fix_pairs.py",
        "tests/test_provenance.py",
        "tests/test_provenance_advice.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_gone.py",
        "tests/test_provenance_pairs.py",
        "tests/test_provenance_truth.py",
    ),
    "mechlint/rules/provenance/missing_source.py": _PROVENANCE_RULE_TESTS,
    "mechlint/rules/provenance/history_unavailable.py": (
        "tests/test_partial_clone.py",
        "tests/test_hostile_git.py",
        "tests/test_provenance.py",
        "tests/test_provenance_advice.py",
        "tests/test_provenance_facts.py",
    ),
    "mechlint/rules/provenance/__init__.py": _PROVENANCE_RULE_TESTS,
    "mechlint/run/changed.py": (
        "tests/test_worktree_state.py",
        "tests/test_adoption.py",
        "tests/test_checkout_shapes.py",
    ),
    "mechlint/provenance/worktree.py": (
        "tests/test_worktree_state.py",
        "tests/test_attest.py",
        "tests/test_adoption.py",
        "tests/test_hostile_git.py",
        "tests/test_provenance_truth.py",
    ),
    # the clause analysis behind "compares the cache key": its table of sentences, and the tests of its survivors
    **{
        f"mechlint/invariants/{name}.py": ("tests/test_clause_analysis.py", "tests/test_mutants_clauses.py")
        for name in ("sentences", "wording", "clauses", "phrases", "vocabulary")
    },
    "mechlint/provenance/reach.py": (
        "tests/test_mutants_provenance_core.py",
        "tests/test_provenance_gone.py",
        "tests/test_provenance.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_truth.py",
        "tests/test_messages_exact.py",
    ),
    "mechlint/provenance/departure.py": (
        "tests/test_mutants_provenance_core.py",
        "tests/test_provenance_gone.py",
        "tests/test_provenance.py",
        "tests/test_provenance_truth.py",
        "tests/test_messages_exact.py",
    ),
    "mechlint/provenance/attributes.py": (
        "tests/test_mutants_provenance_core.py",
        "tests/test_line_endings.py",
        "tests/test_checkout_shapes.py",
        "tests/test_worktree_state.py",
    ),
    "mechlint/provenance/source.py": (
        "tests/test_partial_clone.py",
        "tests/test_mutants_provenance_core.py",
        "tests/test_provenance.py",
        "tests/test_provenance_gone.py",
        "tests/test_provenance_facts.py",
        "tests/test_provenance_truth.py",
        "tests/test_provenance_pairs.py",
        "tests/test_provenance_advice.py",
        "tests/test_messages_exact.py",
        "tests/test_checkout_shapes.py",
        "tests/test_fix_history.py",
    ),
    "mechlint/provenance/stored.py": (
        "tests/test_partial_clone.py",
        "tests/test_mutants_provenance_core.py",
        "tests/test_line_endings.py",
        "tests/test_worktree_state.py",
    ),
    "mechlint/provenance/paths.py": (
        "tests/test_mutants_prov_ppaths.py",
        "tests/test_mutants_provenance_core.py",
        "tests/test_provenance.py",
        "tests/test_provenance_facts.py",
        "tests/test_line_endings.py",
    ),
    "mechlint/provenance/gitdir.py": (  # git_toplevel, locate, vet, the cache key's objects state
        "tests/test_mutants_prov_pgitdir.py",
        "tests/test_hostile_git.py",
        "tests/test_provenance_early.py",
        "tests/test_cache_validity.py",
    ),
    # the git plumbing: the unit-level tests that open a History and ask it (not the CLI's end-to-end files)
    "mechlint/provenance/git.py": (
        "tests/test_mutants_prov_pgit.py",
        "tests/test_partial_clone.py",
        "tests/test_mutants_provenance_core.py",
        "tests/test_provenance.py",
        "tests/test_provenance_describe.py",
        "tests/test_provenance_early.py",
        "tests/test_provenance_truth.py",
        "tests/test_worktree_state.py",
        "tests/test_hostile_git.py",
    ),
}

#: tests never run for a mutant: slow end-to-end ones that drive a browser or an editor
TESTS_NEVER = frozenset(
    {
        "tests/test_html_report.py",
        "tests/test_lsp_neovim.py",
        "tests/test_performance.py",
        "tests/test_corpus.py",
        "tests/test_fuzz.py",
        "tests/test_ci_path_cold.py",
    }
)

_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
}
_SYMBOLS = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.And: "and",
    ast.Or: "or",
}


@dataclass
class Mutant:
    """One change: where, what, and (once run) what the tests said."""

    index: int
    line: int
    function: str
    change: str
    outcome: str = ""  # killed, survived, timeout, equivalent (a survivor judged so)
    reason: str = ""  # for an equivalent mutant: why it cannot change behaviour

    @property
    def key(self) -> str:
        """Stable across edits elsewhere in the module (no line number)."""
        return f"{self.function}: {self.change}"


@dataclass
class ModuleResult:
    module: str
    tests: list[str]
    commit: str = ""  # of the checkout the scratch copy was made from
    seconds: float = 0.0
    baseline: str = ""
    mutants: list[Mutant] = field(default_factory=list)

    def count(self, *outcomes: str) -> int:
        return sum(1 for mutant in self.mutants if mutant.outcome in outcomes)


def _snippet(node: ast.AST, limit: int = 60) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Mutator(ast.NodeTransformer):
    """Numbers every possible mutation in visiting order; applies the one numbered ``target``."""

    def __init__(self, target: int | None = None) -> None:
        self.target = target
        self.found: list[Mutant] = []
        self.spans: list[tuple[int, int]] = []  # each mutant's first and last line, for the tests covering it
        self.scope: list[str] = []
        self.applied = False
        self.in_metadata = False  # META = RuleMeta(...): its prose is documentation, its numbers are defaults

    def _offer(self, node: ast.AST, change: str) -> bool:
        """Record a possible mutation; true when it is the one to apply."""
        index = len(self.found)
        line = getattr(node, "lineno", 0)
        self.found.append(Mutant(index, line, ".".join(self.scope) or "<module>", change))
        self.spans.append((line, getattr(node, "end_lineno", None) or line))
        if index == self.target:
            self.applied = True
            return True
        return False

    # scopes, and parts never mutated (docstrings, annotations, __all__)
    def _visit_scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        self.scope.append(node.name)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for index, statement in enumerate(body, start=len(node.body) - len(body)):
            node.body[index] = self.visit(statement)
        if not isinstance(node, ast.ClassDef):
            node.args = self.visit(node.args)
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        self.scope.pop()
        return node

    visit_FunctionDef = _visit_scope
    visit_AsyncFunctionDef = _visit_scope
    visit_ClassDef = _visit_scope

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return node  # annotations

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return node
        self.in_metadata = not self.scope and any(isinstance(t, ast.Name) and t.id == "META" for t in node.targets)
        self.generic_visit(node)
        self.in_metadata = False
        return node

    def visit_Module(self, node: ast.Module) -> ast.AST:
        body = node.body
        start = 1 if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else 0
        for index in range(start, len(body)):
            statement = body[index]
            if isinstance(statement, ast.ImportFrom | ast.Import):
                continue
            if isinstance(statement, ast.If) and _snippet(statement.test) == "TYPE_CHECKING":
                continue
            body[index] = self.visit(statement)
        return node

    # the operators
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for position, op in enumerate(node.ops):
            swap = _COMPARE_SWAPS.get(type(op))
            which = f" (comparison {position + 1})" if len(node.ops) > 1 else ""  # a chain: keys stay unique
            if swap is not None and self._offer(
                node, f"`{_SYMBOLS[type(op)]}` → `{_SYMBOLS[swap]}`{which} in `{_snippet(node)}`"
            ):
                node.ops[position] = swap()
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        other = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._offer(node, f"`{_SYMBOLS[type(node.op)]}` → `{_SYMBOLS[other]}` in `{_snippet(node)}`"):
            node.op = other()
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and self._offer(node, f"`not` removed in `{_snippet(node)}`"):
            return node.operand
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        swap = _BINOP_SWAPS.get(type(node.op))
        literal = isinstance(node.left, ast.Constant | ast.JoinedStr)  # "text" + x: a message, not arithmetic
        if (
            swap is not None
            and not literal
            and self._offer(node, f"`{_SYMBOLS[type(node.op)]}` → `{_SYMBOLS[swap]}` in `{_snippet(node)}`")
        ):
            node.op = swap()
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        if node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None):
            return node
        if self._offer(node, f"`return {_snippet(node.value)}` → `return None`"):
            node.value = ast.Constant(None)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node.value = self.visit(node.value)
        if isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            if self._offer(node, f"index `{_snippet(node)}` → `[{node.slice.value + 1}]`"):
                node.slice = ast.Constant(node.slice.value + 1)
            return node
        node.slice = self.visit(node.slice)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                value.value = self.visit(value.value)
        literal = [v for v in node.values if isinstance(v, ast.Constant) and str(v.value).strip()]
        if literal and self._offer(node, f"message text {str(literal[0].value).strip()[:40]!r}… emptied"):
            node.values = [v for v in node.values if not isinstance(v, ast.Constant)]
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            if not self.in_metadata and self._offer(node, f"`{value}` → `{not value}`"):
                return ast.Constant(not value)
        elif isinstance(value, int):
            if self._offer(node, f"`{value}` → `{value + 1}`"):
                return ast.Constant(value + 1)
            if value != 0 and self._offer(node, f"`{value}` → `{value - 1}`"):
                return ast.Constant(value - 1)
        elif isinstance(value, float):
            if self._offer(node, f"`{value}` → `{value + 1}`"):
                return ast.Constant(value + 1)
        elif isinstance(value, str):
            prose = " " in value.strip() and len(value) >= 8 and not self.in_metadata
            if prose and self._offer(node, f"message text {value.strip()[:40]!r} emptied"):
                return ast.Constant("")
        return node


def mutants_of(source: str) -> list[Mutant]:
    mutator = _Mutator()
    mutator.visit(ast.parse(source))
    seen: dict[str, int] = {}
    for mutant in mutator.found:  # the same change twice in a function: number the later ones, keys stay unique
        seen[mutant.key] = seen.get(mutant.key, 0) + 1
        if seen[mutant.key] > 1:
            mutant.change += f" (#{seen[mutant.key]})"
    return mutator.found


def spans_of(source: str) -> list[tuple[int, int]]:
    """Each mutant's first and last line (the lines whose execution runs the mutated code), by index."""
    mutator = _Mutator()
    mutator.visit(ast.parse(source))
    return mutator.spans


def covering_tests(contexts: dict[int, list[str]], span: tuple[int, int]) -> list[str]:
    """The tests (pytest node ids) that ran a line of ``span``, in a stable order; none for code that only runs
    at import (the empty context) or that no traced test reached (in a subprocess, say)."""
    first, last = span
    chosen = {test for line in range(first, last + 1) for test in contexts.get(line, ()) if test}
    return sorted(chosen)


def mutated_source(source: str, index: int) -> str:
    mutator = _Mutator(index)
    tree = mutator.visit(ast.parse(source))
    if not mutator.applied:
        raise ValueError(f"no mutant {index}")
    return ast.unparse(ast.fix_missing_locations(tree))


def tests_for(module: str) -> list[str]:
    """The test files that exercise ``module``: ``MODULE_TESTS``, or those naming it; and ``TESTS_ALWAYS``."""
    chosen = [test for prefix, extra in TESTS_ALWAYS.items() if module.startswith(prefix) for test in extra]
    chosen += [t for t in (MODULE_TESTS.get(module) or sorted(_tests_naming(module))) if t not in chosen]
    if (family := mutants_tests(module)) not in chosen:
        chosen.append(family)
    return [test for test in chosen if (ROOT / test).exists()]


def mutants_tests(module: str) -> str:
    """The test file written for the survivors of a module's family: ``tests/test_mutants_<family>.py``
    (``mechlint/rules/reference/x.py`` → ``reference``, ``mechlint/provenance/x.py`` → ``provenance``)."""
    parts = Path(module).parts
    family = parts[2] if parts[:2] == ("mechlint", "rules") and len(parts) > 3 else Path(module).parent.name
    return f"tests/test_mutants_{family}.py"


def _tests_naming(module: str) -> set[str]:
    path = Path(module)
    dotted = ".".join(path.with_suffix("").parts)
    names = {dotted, dotted.rsplit(".", 1)[0] + " import " + path.stem}
    if path.parts[:2] == ("mechlint", "rules"):
        names.add(f"{path.parts[2]}/{path.stem.replace('_', '-')}")
    chosen = set()
    for test in sorted((ROOT / "tests").glob("test_*.py")):
        relative = test.relative_to(ROOT).as_posix()
        if relative in TESTS_NEVER:
            continue
        text = test.read_text(encoding="utf-8")
        if any(name in text for name in names) or re.search(rf"import .*\b{re.escape(path.stem)}\b", text):
            chosen.add(relative)
    return chosen


def _scratch_copy() -> Path:
    """A copy of the project to mutate (the checkout is never written): a shared clone, for the history the
    provenance fixtures need, with the working tree's files (edits not yet committed) copied over it."""
    scratch = Path(tempfile.mkdtemp(prefix="mechlint-mutate-")) / "project"
    subprocess.run(["git", "clone", "--quiet", "--shared", str(ROOT), str(scratch)], check=True)
    ignore = shutil.ignore_patterns(".git", ".venv*", "__pycache__", "node_modules", ".mypy_cache", ".ruff_cache")
    for name in ("mechlint", "tests", "rules", "schemas", "fixtures", "docs", "pyproject.toml", "README.md"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, scratch / name, ignore=ignore, symlinks=True, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy2(source, scratch / name)
    return scratch


def keyword_for(module: str) -> str:
    """For a rule: a ``-k`` expression that picks the tests named after it (``reading_time``, ``reading-time``)."""
    path = Path(module)
    if path.parts[:2] != ("mechlint", "rules"):
        return ""
    return f"{path.stem} or {path.stem.replace('_', '-')}"


#: imported once, before the first fork, so that each mutant's run skips them (never ``mechlint`` itself)
PRELOAD = (
    "pytest",
    "coverage",
    "hypothesis",
    "hypothesis.extra.pytestplugin",
    "jsonschema",
    "referencing",
    "typer",
    "git",
    "cryptography",
    "re2",
    "pygls",
    "lsprotocol.types",
    "yaml",
    "xmlschema",
    "html5lib",
)


def _preload() -> None:
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            continue


class _TestContexts:
    """A pytest plugin that names coverage's context after the test running (setup and teardown included)."""

    def __init__(self, coverage: object) -> None:
        self.coverage = coverage

    def pytest_runtest_protocol(self, item: object, nextitem: object) -> None:
        self.coverage.switch_context(item.nodeid)  # type: ignore[attr-defined]


def run_tests(
    scratch: Path, tests: list[str], timeout: float, keyword: str = "", trace: tuple[Path, Path] | None = None
) -> tuple[str, float]:
    """``passed``, ``failed`` or ``timeout``, and the seconds taken.

    The tests run in a forked child of this process, which has imported pytest, hypothesis and the
    dependencies already (the mutant is imported afresh by the child: nothing of ``mechlint`` is loaded here).
    ``trace``: (module, data file): record which test ran each line of the module, with coverage.py.
    """
    arguments = ["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests]
    if keyword:
        arguments += ["-k", keyword]
    pytest_no_tests = 5  # pytest.ExitCode.NO_TESTS_COLLECTED
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: its own process group, so that a timeout stops what the tests started too
        code = 3
        try:
            os.setsid()
            devnull = os.open(os.devnull, os.O_RDWR)
            for stream in (0, 1, 2):
                os.dup2(devnull, stream)
            os.chdir(scratch)
            os.environ.update(PYTHONPATH=str(scratch), PYTHONHASHSEED="0")
            sys.path.insert(0, str(scratch))
            import pytest

            if trace is None:
                code = int(pytest.main(arguments))
            else:
                import coverage

                tracer = coverage.Coverage(data_file=str(trace[1]), include=[str(trace[0])], config_file=False)
                tracer.start()
                try:
                    code = int(pytest.main(arguments, plugins=[_TestContexts(tracer)]))
                finally:
                    tracer.stop()
                    tracer.save()
        finally:
            os._exit(code)
    deadline = started + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            # with -k, pytest's 5 (no test collected) means no test is named after the module (a package's
            # __init__.py): nothing failed, so the whole selection decides
            passed = code == 0 or (keyword != "" and code == pytest_no_tests)
            return ("passed" if passed else "failed"), time.monotonic() - started
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", time.monotonic() - started
        try:
            time.sleep(0.05)
        except BaseException:  # stopped: the tests stop too
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            raise


def traced_baseline(
    scratch: Path, target: Path, tests: list[str]
) -> tuple[tuple[str, float], dict[int, list[str]]] | None:
    """The unmutated run, traced: its outcome and, per line of the module, the tests that ran it; ``None``
    without coverage.py (every mutant then meets the whole selection, as before)."""
    try:
        import coverage
    except ImportError:
        return None
    data_file = scratch.parent / "coverage.data"
    outcome = run_tests(scratch, tests, 1800, trace=(target, data_file))
    if outcome[0] != "passed" or not data_file.exists():
        return outcome, {}
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    measured = [name for name in data.measured_files() if Path(name).resolve() == target.resolve()]
    contexts = data.contexts_by_lineno(measured[0]) if measured else {}
    return outcome, {line: list(names) for line, names in contexts.items()}


def load_equivalent() -> dict[str, dict[str, str]]:
    if not EQUIVALENT_FILE.exists():
        return {}
    data = json.loads(EQUIVALENT_FILE.read_text(encoding="utf-8"))
    return {module: dict(entries) for module, entries in data.items()}


def measure(module: str, tests: list[str], only: set[int] | None = None) -> ModuleResult:
    source = (ROOT / module).read_text(encoding="utf-8")
    result = ModuleResult(module, tests)
    equivalent = load_equivalent().get(module, {})
    result.commit = _commit()
    scratch = _scratch_copy()
    target = scratch / module
    cache = target.parent / "__pycache__"
    try:
        keyword = keyword_for(module)
        traced = traced_baseline(scratch, target, tests)
        if traced is None:
            outcome, seconds = run_tests(scratch, tests, 900)
            contexts: dict[int, list[str]] = {}
        else:
            (outcome, seconds), contexts = traced
        result.baseline = f"{outcome} in {seconds:.1f} s" + (" (traced)" if traced else "")
        if outcome != "passed":
            return result
        limit = max(120.0, 5 * seconds + 30)
        started = time.monotonic()
        spans = spans_of(source)
        for mutant in mutants_of(source):
            if only is not None and mutant.index not in only:
                continue
            target.write_text(mutated_source(source, mutant.index), encoding="utf-8")
            shutil.rmtree(cache, ignore_errors=True)  # a stale .pyc of an earlier mutant of the same size
            # first the tests that ran the mutated lines, then those named after a rule, which are quick; a
            # survivor of those meets all of the files (a test may reach the code in a subprocess, untraced)
            outcome, how, took = "passed", "", 0.0
            if covering := covering_tests(contexts, spans[mutant.index]):
                outcome, took = run_tests(scratch, covering, limit)
                how = f"by the {len(covering)} tests that ran its lines"
            if outcome == "passed" and keyword:
                outcome, took = run_tests(scratch, tests, limit, keyword)
                how = "by the tests named after the rule"
            if outcome == "passed":
                outcome, took = run_tests(scratch, tests, limit)
                how = "by the whole selection"
            mutant.outcome = {"failed": "killed", "passed": "survived", "timeout": "timeout"}[outcome]
            if mutant.outcome == "survived" and mutant.key in equivalent:
                mutant.outcome, mutant.reason = "equivalent", equivalent[mutant.key]
            result.mutants.append(mutant)
            print(
                f"  {mutant.outcome:10} {module}:{mutant.line} {mutant.change}  [{how}, {took:.1f} s]",
                file=sys.stderr,
                flush=True,
            )
        result.seconds = time.monotonic() - started
    finally:
        shutil.rmtree(scratch.parent, ignore_errors=True)
    return result


def score(result: ModuleResult) -> str:
    killed = result.count("killed", "timeout")
    counted = len(result.mutants) - result.count("equivalent")
    return f"{100 * killed / counted:.0f} %" if counted else "n/a"


def markdown(results: list[ModuleResult], commits: dict[str, str]) -> Iterator[str]:
    yield "| module | commit | mutants | killed | equivalent | survived | score | test files run |"
    yield "|---|---|---:|---:|---:|---:|---:|---|"
    for r in results:
        files = sorted({Path(test.split("::")[0]).name for test in r.tests})
        yield (
            f"| `{r.module}` | `{commits.get(r.module, '')}` | {len(r.mutants)} | {r.count('killed', 'timeout')} "
            f"| {r.count('equivalent')} | {r.count('survived')} | {score(r)} | {', '.join(files)} |"
        )
    survivors = [(r.module, m) for r in results for m in r.mutants if m.outcome == "survived"]
    yield ""
    yield "Survivors not yet killed:" if survivors else "No survivor is left but the equivalent ones."
    yield ""
    yield from (f"- `{module}:{m.line}` ({m.function}): {m.change}" for module, m in survivors)


def _from_json(data: dict[str, object]) -> ModuleResult:
    fields = dict(data)
    mutants = [Mutant(**m) for m in fields.pop("mutants")]  # type: ignore[attr-defined]
    return ModuleResult(**fields, mutants=mutants)  # type: ignore[arg-type]


def _recorded(json_path: Path) -> dict[str, dict[str, object]]:
    return json.loads(json_path.read_text(encoding="utf-8")) if json_path.exists() else {}


def judge(result: ModuleResult) -> ModuleResult:
    """``result`` with its survivors that ``docs/mutation-equivalent.json`` now lists marked equivalent (a
    person's judgement, not a test run: nothing is run again)."""
    equivalent = load_equivalent().get(result.module, {})
    for mutant in result.mutants:
        if mutant.outcome == "survived" and mutant.key in equivalent:
            mutant.outcome, mutant.reason = "equivalent", equivalent[mutant.key]
    return result


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "mechlint", "tests"], cwd=ROOT, capture_output=True
        )
    except OSError:
        return "unknown"
    return out.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def write_record(
    json_path: Path | None, markdown_path: Path | None, results: list[ModuleResult], partial: bool = False
) -> None:
    """Record ``results`` in the JSON file (kept per module across runs) and rewrite the table from it.

    ``partial``: the results are of some mutants only (``--only``); they replace those mutants' outcomes.
    """
    commits = {r.module: r.commit for r in results}
    if json_path:
        recorded = json.loads(json_path.read_text(encoding="utf-8")) if json_path.exists() else {}
        for r in results:
            entry = asdict(r)
            if partial and r.module in recorded:
                by_index = {m["index"]: m for m in recorded[r.module]["mutants"]}
                by_index.update({m.index: asdict(m) for m in r.mutants})
                entry = {**recorded[r.module], "mutants": [by_index[i] for i in sorted(by_index)]}
                entry["tests"] = list(dict.fromkeys([*recorded[r.module]["tests"], *r.tests]))
                entry["commit"] = f"{recorded[r.module]['commit']}; {len(r.mutants)} re-run on {r.commit}"
            recorded[r.module] = entry
        json_path.write_text(json.dumps(recorded, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        results = [_from_json(data) for data in recorded.values()]
        commits = {module: data["commit"] for module, data in recorded.items()}
    if markdown_path:
        markdown_path.write_text("\n".join(markdown(results, commits)) + "\n", encoding="utf-8")


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # so that the scratch copy is removed


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _stop)
    _preload()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="module paths, e.g. mechlint/rules/a11y/reading_time.py")
    parser.add_argument("--all-verdicts", action="store_true", help="every module that decides verdicts")
    parser.add_argument("--tests", nargs="+", help="the test files to run (default: those naming the module)")
    parser.add_argument("--only", type=int, nargs="+", help="only these mutant numbers (see --list)")
    parser.add_argument("--list", action="store_true", help="list the mutants and their tests; run nothing")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--markdown", type=Path, help="write the score table here")
    parser.add_argument(
        "--judge", action="store_true", help="mark the recorded survivors now listed as equivalent; run nothing"
    )
    args = parser.parse_args(argv)
    if args.judge:
        if not args.json:
            parser.error("--judge needs --json (the record to update)")
        write_record(args.json, args.markdown, [judge(_from_json(data)) for data in _recorded(args.json).values()])
        return 0
    modules = list(args.modules)
    if args.all_verdicts:
        for pattern in VERDICT_MODULES:
            modules.extend(
                p.relative_to(ROOT).as_posix() for p in sorted(ROOT.glob(pattern)) if p.name != "__init__.py"
            )
    if not modules:
        parser.error("name a module, or --all-verdicts")
    results = []
    for module in modules:
        tests = args.tests or tests_for(module)
        if args.list:
            print(f"{module}: {', '.join(tests)}")
            for mutant in mutants_of((ROOT / module).read_text(encoding="utf-8")):
                print(f"  {mutant.index:4} {module}:{mutant.line} {mutant.change}")
            continue
        print(f"{module}: running {len(tests)} test files", file=sys.stderr, flush=True)
        result = measure(module, tests, set(args.only) if args.only else None)
        print(f"{module}: {score(result)} ({result.baseline})", file=sys.stderr, flush=True)
        results.append(result)
        write_record(
            args.json, args.markdown, [result], bool(args.only)
        )  # after each module: a long run stopped keeps what it measured
    if not args.json and not args.markdown and results:
        print("\n".join(markdown(results, {r.module: r.commit for r in results})))
    return 1 if any(r.count("survived") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
