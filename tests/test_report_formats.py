"""Issue 18: notes apart from problems, terminal width, --statistics, -q, and the GitLab and JUnit reports.

Through the installed command (a subprocess of the venv's ``mechlint``), on a
tree with a clean file and a file with warnings and notes.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import CLEAN, ROOT, SEED
from .gitrepo import write

MECHLINT = Path(sys.executable).parent / "mechlint"
JUNIT_XSD = ROOT / ".ci" / "data" / "junit-10.xsd"
GITLAB_SCHEMA = ROOT / "tests" / "data" / "gitlab-code-quality.schema.json"
EXCERPT = re.compile(r"^ \d+ \| |^ +\| ")


def mechlint(*args: str, cwd: Path, columns: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "NO_COLOR")}
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run([str(MECHLINT), "check", *args], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Two clean files and the seed; ``a11y/reading-time`` made a note, so the seed has warnings and notes."""
    write(tmp_path, "mechlint.toml", '[rules."a11y/reading-time"]\nlevel = "note"\n')
    write(tmp_path, "a/mechanisms/ok.json", CLEAN.read_bytes())
    write(tmp_path, "b/mechanisms/also-ok.json", CLEAN.read_bytes())
    write(tmp_path, "c/mechanisms/seed.json", SEED.read_bytes())
    return tmp_path


def json_report(tree: Path, *args: str) -> dict[str, Any]:
    mechlint("-o", "json:out.json", *args, ".", cwd=tree)
    data: dict[str, Any] = json.loads((tree / "out.json").read_text(encoding="utf-8"))
    return data


# 1. Notes apart from problems


def test_the_summary_counts_problems_and_notes_apart(tree: Path) -> None:
    data = json_report(tree)
    counts = data["summary"]
    assert counts["note"] and counts["warning"] and not counts["error"]
    done = mechlint(".", cwd=tree)
    assert done.returncode == 0  # warnings do not fail by default
    assert (
        done.stdout.splitlines()[-1] == f"Found {counts['warning']} warnings in 1 of 3 files; {counts['note']} notes."
    )


def test_only_notes_is_no_problem(tree: Path) -> None:
    done = mechlint("--select", "a11y", ".", cwd=tree)
    last = done.stdout.splitlines()[-1]
    assert last.startswith("No problems in 3 files checked; ") and last.endswith(" notes.")


def _blocks(stdout: str) -> dict[str, list[str]]:
    """Each finding (its location line and the first line of its message) → the lines under its message (excerpt,
    carets, trace), in the full layout."""
    blocks: dict[str, list[str]] = {}
    current: list[str] = []
    location = ""
    for line in stdout.splitlines():
        if re.match(r"^\S+:\d+:\d+$", line):
            location = line
        elif location and re.match(r"^(error|warning|note) ", line):
            current = blocks.setdefault(f"{location}: {line}", [])
            location = ""
        elif EXCERPT.match(line) or line.startswith(("    trace:", "      ")):
            current.append(line)
    return blocks


def test_a_note_is_one_line_unless_the_source_is_asked_for(tree: Path) -> None:
    default = _blocks(mechlint(".", cwd=tree).stdout)
    notes = {head: under for head, under in default.items() if ": note " in head}
    problems = {head: under for head, under in default.items() if ": note " not in head}
    assert notes and problems
    assert all(under == [] for under in notes.values())
    assert all(under and EXCERPT.match(under[0]) for under in problems.values())
    detailed = _blocks(mechlint("--show-source", ".", cwd=tree).stdout)
    assert all(detailed[head] and EXCERPT.match(detailed[head][0]) for head in notes)
    concise = _blocks(mechlint("--no-show-source", ".", cwd=tree).stdout)
    assert concise.keys() == default.keys()
    assert all(under == [] for under in concise.values())


@pytest.mark.parametrize("columns", ["40", "60", "100"])
def test_excerpts_fit_the_width_with_an_ellipsis(tree: Path, columns: str) -> None:
    done = mechlint("--show-source", ".", cwd=tree, columns=columns)
    excerpts = [line for line in done.stdout.splitlines() if EXCERPT.match(line)]
    assert excerpts
    assert max(len(line) for line in excerpts) <= int(columns)
    assert any("…" in line for line in excerpts)


def test_without_a_terminal_or_columns_the_width_is_a_default(tree: Path) -> None:
    done = mechlint("--show-source", ".", cwd=tree)
    excerpts = [line for line in done.stdout.splitlines() if EXCERPT.match(line)]
    assert max(len(line) for line in excerpts) <= 120
    assert any(len(line) > 100 for line in excerpts)


@pytest.mark.parametrize(
    ("line", "start", "end", "room"),
    [
        ("x" * 300, 250, 260, 40),
        ("x" * 300, 0, 300, 30),
        ("ab" * 100 + "界" * 50, 210, 230, 41),
        ("\u0301" * 5 + "界" * 100, 3, 60, 20),
        ("short", 2, 3, 80),
    ],
)
def test_fit_keeps_the_span_in_view(line: str, start: int, end: int, room: int) -> None:
    _check_fit(line, start, end, room)


@given(st.text(max_size=200), st.data(), st.integers(min_value=20, max_value=200))
def test_fit_always_fits(line: str, data: st.DataObject, room: int) -> None:
    start = data.draw(st.integers(min_value=0, max_value=len(line)))
    end = data.draw(st.integers(min_value=start + 1, max_value=len(line) + 1))
    _check_fit(line, start, end, room)


def _cells(text: str) -> int:
    import unicodedata

    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(c) in ("W", "F")
        else 1
        for c in text
    )


def _check_fit(line: str, start: int, end: int, room: int) -> None:
    from mechlint.report.text import fit

    text, offset, length = fit(line, start, end, room)
    assert _cells(text) <= room
    assert offset + length <= max(_cells(text), offset + 1)
    if _cells(line) <= room:
        assert text == line
    else:
        assert "…" in text
        # the span starts where the carets start
        shown = line[start:end][:3]
        assert shown == "" or text.replace("…", "", 1 if text.startswith("…") else 0).find(shown) >= 0


# 2. --statistics and -q


def test_statistics_count_per_rule(tree: Path) -> None:
    data = json_report(tree)
    expected = Counter(r["rule"] for r in data["results"])
    done = mechlint("--statistics", ".", cwd=tree)
    lines = done.stdout.splitlines()
    rows = [line.split(None, 3) for line in lines[: lines.index("")]]
    assert {rule: int(count) for count, rule, _, _ in rows} == expected
    assert [int(row[0]) for row in rows] == sorted(expected.values(), reverse=True)
    levels = {r["rule"]: r["level"] for r in data["results"]}
    assert all(level == levels[rule] and summary for _, rule, level, summary in rows)
    assert lines[-1].startswith("Found ")
    assert done.returncode == mechlint(".", cwd=tree).returncode


def test_statistics_need_the_text_report(tree: Path) -> None:
    done = mechlint("--statistics", "--format", "json", ".", cwd=tree)
    assert done.returncode == 2 and "--statistics" in done.stderr and not done.stdout


@pytest.mark.parametrize("fail_on", ["never", "warning"])
def test_quiet_prints_only_the_summary_and_twice_quiet_nothing(tree: Path, fail_on: str) -> None:
    full = mechlint("--fail-on", fail_on, ".", cwd=tree)
    quiet = mechlint("--fail-on", fail_on, "-q", ".", cwd=tree)
    assert quiet.stdout.splitlines() == full.stdout.splitlines()[-1:]
    for silent in (["-qq"], ["-q", "--quiet"]):
        done = mechlint("--fail-on", fail_on, *silent, "-o", "json:out.json", ".", cwd=tree)
        assert (done.stdout, done.stderr) == ("", "")
        assert done.returncode == full.returncode == quiet.returncode
        assert json.loads((tree / "out.json").read_text(encoding="utf-8"))["results"]


def test_the_fast_parser_and_typer_agree_on_the_new_options(
    tree: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from mechlint.cli import app, entry, fast_check

    monkeypatch.chdir(tree)
    for arguments in (["-qq", "."], ["-q", "--statistics", "."], ["--show-source", "."], ["--no-show-source", "."]):
        assert fast_check.parse_check(arguments) is not None
        fast = (entry.main(["check", *arguments]), capfd.readouterr())
        full = (app.main(["check", *arguments]), capfd.readouterr())
        assert fast == full


# 8. GitLab Code Quality and JUnit XML


def test_gitlab_report_is_valid_and_its_fingerprints_are_unique_and_stable(tree: Path) -> None:
    import jsonschema

    schema = json.loads(GITLAB_SCHEMA.read_text(encoding="utf-8"))
    early = json.loads(CLEAN.read_text(encoding="utf-8"))
    steps = early["scenarios"][0]["steps"]
    steps[1]["paths"], steps[3]["paths"] = steps[3]["paths"], steps[1]["paths"]  # reuse0 and reuse1 before storing
    write(tree, "d/mechanisms/early-reuse.json", json.dumps(early, indent=2).encode("utf-8"))
    done = mechlint("--format", "gitlab", "-o", "sarif:out.sarif", ".", cwd=tree)
    issues = json.loads(done.stdout)
    jsonschema.validate(issues, schema)
    assert issues
    fingerprints = [issue["fingerprint"] for issue in issues]
    assert len(set(fingerprints)) == len(fingerprints)
    places = Counter(
        (i["location"]["path"], i["location"]["positions"]["begin"]["line"], i["check_name"]) for i in issues
    )
    assert max(places.values()) > 1  # two findings of one rule at one place, told apart
    sarif = json.loads((tree / "out.sarif").read_text(encoding="utf-8"))
    assert fingerprints == [r["partialFingerprints"]["mechlint/v1"] for r in sarif["runs"][0]["results"]]

    seed = tree / "c/mechanisms/seed.json"
    seed.write_text("\n\n\n" + seed.read_text(encoding="utf-8").replace("{", '{\n  "x-moved": true,', 1))
    moved = json.loads(mechlint("-f", "gitlab", ".", cwd=tree).stdout)
    jsonschema.validate(moved, schema)
    assert sorted(fingerprints) == sorted(issue["fingerprint"] for issue in moved)
    before = {i["fingerprint"]: i["location"]["positions"]["begin"]["line"] for i in issues}
    shift = {"c/mechanisms/seed.json": 4}
    assert all(
        i["location"]["positions"]["begin"]["line"] == before[i["fingerprint"]] + shift.get(i["location"]["path"], 0)
        for i in moved
    )
    assert {i["severity"] for i in moved} == {"major", "minor", "info"}


def test_gitlab_report_through_output_option(tree: Path) -> None:
    done = mechlint("-o", "gitlab:quality.json", ".", cwd=tree)
    assert done.stdout.splitlines()[-1].startswith("Found ")
    assert json.loads((tree / "quality.json").read_text(encoding="utf-8"))


def _junit(tree: Path, *args: str) -> Any:
    import xml.etree.ElementTree as ElementTree

    done = mechlint("-o", "junit:junit.xml", *args, ".", cwd=tree)
    assert done.returncode in (0, 1), done.stderr
    return ElementTree.parse(tree / "junit.xml").getroot()


def test_junit_report_has_a_test_per_checked_file(tree: Path) -> None:
    data = json_report(tree)
    root = _junit(tree)
    cases = root.findall("./testsuite/testcase")
    assert int(root.get("tests")) == len(cases) == data["files_checked"] == 3
    names = {case.get("name") for case in cases}
    assert names == {"a/mechanisms/ok.json", "b/mechanisms/also-ok.json", "c/mechanisms/seed.json"}
    failed = [case for case in cases if case.find("failure") is not None]
    assert [case.get("name") for case in failed] == ["c/mechanisms/seed.json"]
    assert int(root.get("failures")) == 1
    text = failed[0].find("failure").text
    problems = [r for r in data["results"] if r["level"] != "note"]
    assert len(text.splitlines()) == len(problems)
    notes = failed[0].find("system-out").text
    assert len(notes.splitlines()) == len([r for r in data["results"] if r["level"] == "note"])
    # a clean run: every file a passing test
    clean = _junit(tree, "--select", "schema")
    assert clean.get("tests") == "3" and clean.get("failures") == "0"
    assert (tree / "junit.xml").read_text(encoding="utf-8") == mechlint(
        "-f", "junit", "--select", "schema", ".", cwd=tree
    ).stdout


def test_junit_report_is_valid_against_jenkins_schema(tree: Path) -> None:
    if not JUNIT_XSD.is_file():
        pytest.skip(f"{JUNIT_XSD.relative_to(ROOT)} is absent: .ci/run fetches it from pytest's source distribution")
    import xmlschema

    schema = xmlschema.XMLSchema(str(JUNIT_XSD))
    write(tree, "d/mechanisms/broken.json", b'{"version": 1, "title": "\\u0001 <&> \xff')
    _junit(tree, "--show-suppressed")
    schema.validate(str(tree / "junit.xml"))
    _junit(tree, "--select", "schema")
    schema.validate(str(tree / "junit.xml"))


def test_reporters_read_only_the_report() -> None:
    """Nothing in mechlint/report imports above the model: no engine, configuration or registry.

    The escaping helpers (``mechlint.safety.terminal``) and the record base class (``mechlint.records``) are allowed:
    like the model, they import nothing of mechlint but each other.
    """
    allowed = {"mechlint.model", "mechlint.report", "mechlint.safety.terminal", "mechlint.records"}
    leaves = [
        ROOT / "mechlint" / "model.py",
        ROOT / "mechlint" / "safety" / "terminal.py",
        ROOT / "mechlint" / "records.py",
    ]
    for leaf in leaves:
        tree = ast.parse(leaf.read_text(encoding="utf-8"))
        assert not [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("mechlint")
            and node.module not in allowed - {"mechlint.report"}
        ], f"{leaf.name} imports mechlint"
    for module in sorted((ROOT / "mechlint" / "report").glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] if node.level == 0 else ["mechlint.report"]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name == "mechlint" or name.startswith("mechlint."):
                    assert name in allowed or name.startswith("mechlint.report."), f"{module.name} imports {name}"


def test_junit_report_of_hostile_text_is_well_formed() -> None:
    import xml.etree.ElementTree as ElementTree

    from mechlint.model import FileReport, Level, Notification, Region, Report, Result
    from mechlint.report import OutputOptions
    from mechlint.report.junit import render

    hostile = 'a\x01b\x0b"<&>]]>\ud800\ufffe\n\r\tz'
    path = f"x{hostile}.json"
    results = (
        Result(path, "rule/a", Level.ERROR, hostile, "/a", Region(1, 1, 1, 2)),
        Result(path, "rule/b", Level.NOTE, hostile, "/b", Region(2, 1, 2, 2)),
        Result(path, "rule/c", Level.WARNING, hostile, "/c", Region(3, 1, 3, 2), suppressed=hostile),
    )
    report = Report(
        (FileReport(path, path, results),),
        1,
        notifications=(Notification(hostile, "rule/a", path), Notification(hostile, "rule/d", "elsewhere")),
    )
    text = render(report, OutputOptions())
    root = ElementTree.fromstring(text.encode("utf-8"))
    cases = root.findall("./testsuite/testcase")
    # every character XML cannot hold (or a log would act on) as a backslash escape: one shown name for one file
    assert [case.get("name") for case in cases] == ['xa\\x01b\\x0b"<&>]]>\\ud800\\ufffe\\n\\r\\tz.json', "elsewhere"]
    assert root.get("tests") == "2" and root.get("errors") == "2" and root.get("failures") == "0"
    if JUNIT_XSD.is_file():
        import xmlschema

        xmlschema.XMLSchema(str(JUNIT_XSD)).validate(text)


@pytest.mark.parametrize(("columns", "widest"), [("abc", 120), ("0", 120), ("-5", 120), ("٣٠", 120), ("5", 40)])
def test_a_strange_columns_value_falls_back(tree: Path, columns: str, widest: int) -> None:
    done = mechlint("--show-source", ".", cwd=tree, columns=columns)
    assert done.returncode == 0 and not done.stderr
    excerpts = [line for line in done.stdout.splitlines() if EXCERPT.match(line)]
    assert widest - 20 < max(len(line) for line in excerpts) <= widest


def test_a_huge_columns_value_cuts_nothing(tree: Path) -> None:
    done = mechlint("--show-source", ".", cwd=tree, columns="9" * 30)
    assert done.returncode == 0 and "…" not in "".join(x for x in done.stdout.splitlines() if EXCERPT.match(x))


def test_lint_keeps_clean_files_when_asked(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mechlint.config import load_config
    from mechlint.model import Keep
    from mechlint.run.engine import lint

    monkeypatch.chdir(tree)
    config = load_config(tree / "mechlint.toml")
    findings = lint(["."], config, root=tree)
    every = lint(["."], config, root=tree, keep=Keep.FILES)
    stories = lint(["."], config, root=tree, keep=Keep.STORIES)
    assert [f.path for f in findings.files] == ["c/mechanisms/seed.json"]
    assert (
        [f.path for f in every.files]
        == [f.path for f in stories.files]
        == [
            "a/mechanisms/ok.json",
            "b/mechanisms/also-ok.json",
            "c/mechanisms/seed.json",
        ]
    )
    assert all(f.story is None for f in every.files) and all(f.story is not None for f in stories.files)
    assert every.results == findings.results == stories.results


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(st.characters(blacklist_categories=())),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(st.characters(blacklist_categories=()), max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_the_fast_indented_json_is_the_standard_encoders_text(value: object) -> None:
    from mechlint.report.jsontext import dumps, dumps_plain

    assert dumps(value) == dumps_plain(value)


def test_the_fast_indented_json_leaves_unusual_values_to_the_standard_encoder() -> None:
    from mechlint.model import Level
    from mechlint.report.jsontext import dumps, dumps_plain

    for value in ({1: "a", "b": [True, None]}, {"k": {2.5: 1}}, [Level.ERROR, {"s": Level.NOTE}]):
        assert dumps(value) == dumps_plain(value)
    with pytest.raises(TypeError):
        dumps({"path": Path("x")})
