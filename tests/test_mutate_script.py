"""``scripts/mutate.py``, the mutation tester: its operators, and the record of equivalent survivors."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _mutate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "scripts" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutate", module)
    spec.loader.exec_module(module)
    return module


SOURCE = '''"""A docstring is never mutated."""
__all__ = ["f"]


def f(a: int, b: bool) -> str:
    """Nor is a function's."""
    if a <= 0 and not b:
        return f"no {a} here"
    return "a longer message"
'''


def test_the_operators_and_what_they_leave_alone() -> None:
    mutate = _mutate()
    changes = [m.change for m in mutate.mutants_of(SOURCE)]
    assert changes == [
        "`0` → `1`",
        "`<=` → `<` in `a <= 0`",
        "`not` removed in `not b`",
        "`and` → `or` in `a <= 0 and (not b)`",
        "message text 'no'… emptied",
        "`return f'no {a} here'` → `return None`",
        "message text 'a longer message' emptied",
        "`return 'a longer message'` → `return None`",
    ]


def test_each_mutant_changes_the_source_in_one_place() -> None:
    mutate = _mutate()
    original = ast.dump(ast.parse(SOURCE))
    mutants = mutate.mutants_of(SOURCE)
    assert mutants
    sources = [mutate.mutated_source(SOURCE, m.index) for m in mutants]
    assert all(ast.dump(ast.parse(source)) != original for source in sources)
    assert len(set(sources)) == len(sources)
    assert "if a <= 1 and (not b):" in sources[0]
    assert "if a < 0 and (not b):" in sources[1]


def test_every_survivor_judged_equivalent_is_a_mutant_of_its_module() -> None:
    """An entry whose code changed no longer names a mutant: judge the new survivor again."""
    mutate = _mutate()
    recorded = json.loads((ROOT / "docs" / "mutation-equivalent.json").read_text(encoding="utf-8"))
    assert recorded
    for module, entries in recorded.items():
        keys = {m.key for m in mutate.mutants_of((ROOT / module).read_text(encoding="utf-8"))}
        assert set(entries) <= keys, f"{module}: {sorted(set(entries) - keys)}"
        assert all(reason.strip() for reason in entries.values())


def test_a_module_meets_the_tests_written_for_its_familys_survivors() -> None:
    mutate = _mutate()
    assert mutate.mutants_tests("mechlint/rules/reference/unknown_target.py") == "tests/test_mutants_reference.py"
    assert mutate.mutants_tests("mechlint/provenance/worktree.py") == "tests/test_mutants_provenance.py"
    assert mutate.mutants_tests("mechlint/invariants/monitor.py") == "tests/test_mutants_invariants.py"
    assert "tests/test_mutants_reference.py" in mutate.tests_for("mechlint/rules/reference/unknown_target.py")


def test_a_partial_re_run_replaces_its_mutants_and_adds_its_test_files(tmp_path: Path) -> None:
    mutate = _mutate()
    record = tmp_path / "results.json"
    first = mutate.ModuleResult("m.py", ["tests/a.py"], "c1", mutants=[mutate.Mutant(0, 1, "f", "x", "survived")])
    mutate.write_record(record, None, [first])
    again = mutate.ModuleResult("m.py", ["tests/b.py"], "c2", mutants=[mutate.Mutant(0, 1, "f", "x", "killed")])
    mutate.write_record(record, None, [again], partial=True)
    entry = json.loads(record.read_text(encoding="utf-8"))["m.py"]
    assert entry["tests"] == ["tests/a.py", "tests/b.py"]
    assert [m["outcome"] for m in entry["mutants"]] == ["killed"]
    assert entry["commit"] == "c1; 1 re-run on c2"


def test_judging_marks_only_the_recorded_survivors_listed_as_equivalent() -> None:
    mutate = _mutate()
    module = "mechlint/provenance/worktree.py"
    listed = "read_entry: `0` → `1`"
    assert listed in mutate.load_equivalent()[module]
    result = mutate.ModuleResult(
        module,
        [],
        mutants=[
            mutate.Mutant(6, 44, "read_entry", "`0` → `1`", "survived"),
            mutate.Mutant(7, 44, "read_entry", "`not` removed in `x`", "survived"),
            mutate.Mutant(8, 44, "read_entry", "`0` → `1`", "killed"),
        ],
    )
    judged = mutate.judge(result)
    assert [m.outcome for m in judged.mutants] == ["equivalent", "survived", "killed"]
    assert judged.mutants[0].reason == mutate.load_equivalent()[module][listed]


def test_each_mutant_knows_the_lines_that_run_it() -> None:
    mutate = _mutate()
    spans = mutate.spans_of(SOURCE)
    assert len(spans) == len(mutate.mutants_of(SOURCE))
    assert spans[0] == spans[1] == (7, 7)  # `0` → `1` and `<=` → `<`, both in the `if` on line 7
    assert spans[-1] == (9, 9)


def test_the_covering_tests_are_those_that_ran_a_line_of_the_mutant() -> None:
    mutate = _mutate()
    contexts = {3: ["", "t.py::a"], 4: ["t.py::b", "t.py::a"], 9: ["t.py::c"]}
    assert mutate.covering_tests(contexts, (3, 4)) == ["t.py::a", "t.py::b"]
    assert mutate.covering_tests(contexts, (5, 8)) == []
    assert mutate.covering_tests({1: [""]}, (1, 1)) == []  # run at import only: no test chosen


def test_thetraced_baseline_maps_each_line_to_the_tests_that_ran_it(tmp_path: Path) -> None:
    mutate = _mutate()
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    (project / "traced_sample_module.py").write_text(
        "def double(x):\n    return 2 * x\n\n\ndef halve(x):\n    return x / 2\n", encoding="utf-8"
    )
    (project / "tests" / "test_traced_sample.py").write_text(
        "from traced_sample_module import double, halve\n\n\n"
        "def test_double():\n    assert double(2) == 4\n\n\n"
        "def test_both():\n    assert halve(double(3)) == 3\n",
        encoding="utf-8",
    )
    traced = mutate.traced_baseline(project, project / "traced_sample_module.py", ["tests/test_traced_sample.py"])
    assert traced is not None
    (outcome, _seconds), contexts = traced
    assert outcome == "passed"
    test_file = "tests/test_traced_sample.py"
    assert mutate.covering_tests(contexts, (2, 2)) == [f"{test_file}::test_both", f"{test_file}::test_double"]
    assert mutate.covering_tests(contexts, (6, 6)) == [f"{test_file}::test_both"]
