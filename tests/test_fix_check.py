"""``mechlint check --fix``, ``--unsafe-fixes``, ``--diff`` and ``--show-fixes``, and the fixes in the text,
JSON and SARIF reports (issue 28)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mechlint.cli import main
from mechlint.cli.fast_check import parse_check

from .conftest import FIXTURES, ROOT

RULE_FIXTURES = FIXTURES / "rules"
SAFE = RULE_FIXTURES / "reference" / "id-mismatch" / "fail-wrong-id.json"  # one safe fix
UNSAFE = RULE_FIXTURES / "plain" / "word-choice" / "fail-utilizes.json"  # one unsafe fix
SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    folder = tmp_path / "content" / "mechanisms"
    folder.mkdir(parents=True)
    shutil.copy(SAFE, folder / "safe.json")
    shutil.copy(UNSAFE, folder / "unsafe.json")
    monkeypatch.chdir(tmp_path)
    return folder


def _fixed(path: Path) -> bytes:
    return Path(str(path) + ".fixed").read_bytes()


def test_the_fast_parser_reads_the_fix_flags() -> None:
    options = parse_check(["--fix", "--unsafe-fixes", "--diff", "--show-fixes", "x"])
    assert options is not None
    assert (options.fix, options.unsafe_fixes, options.diff, options.show_fixes) == (True, True, True, True)
    plain = parse_check(["x"])
    assert plain is not None and (plain.fix, plain.unsafe_fixes, plain.diff, plain.show_fixes) == (False,) * 4


def test_the_text_report_marks_fixable_findings_and_counts_them(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--no-show-source", "-f", "concise", "."]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(" error reference/id-mismatch [*] the target " in line for line in lines)
    assert any(' warning plain/word-choice "utilizes"' in line for line in lines)  # unsafe: no mark
    assert lines[-2:] == [
        "[*] 1 fixable with --fix (1 more with --unsafe-fixes).",
        "Found 1 error and 1 warning in 2 of 2 files.",
    ]
    assert main(["check", "--no-show-source", "-f", "concise", "--unsafe-fixes", "."]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(' warning plain/word-choice [*] "utilizes"' in line for line in lines)
    assert lines[-2] == "[*] 2 fixable with --fix --unsafe-fixes."


def test_diff_shows_the_change_writes_nothing_and_exits_1(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = {p.name: p.read_bytes() for p in project.iterdir()}
    assert main(["check", "--diff", "."]) == 1
    captured = capsys.readouterr()
    assert "--- a/content/mechanisms/safe.json\n+++ b/content/mechanisms/safe.json\n" in captured.out
    assert '-      "id": "mechanism-cache-1",\n+      "id": "mechanism-cache1",\n' in captured.out
    assert "unsafe.json" not in captured.out  # its fix is unsafe
    assert captured.err == "Would fix 1 problem in 1 file.\n"
    assert {p.name: p.read_bytes() for p in project.iterdir()} == before
    assert main(["check", "--diff", "--unsafe-fixes", "--show-fixes", "."]) == 1
    captured = capsys.readouterr()
    assert '+  "caption": "B uses the cached blocks' in captured.out
    assert captured.err == (
        "Would fix 2 problems in 2 files.\nWould fix 2 problems:\n- content/mechanisms/safe.json:\n"
        "    1 × reference/id-mismatch\n- content/mechanisms/unsafe.json:\n    1 × plain/word-choice\n"
    )
    assert {p.name: p.read_bytes() for p in project.iterdir()} == before


def test_fix_writes_the_safe_fixes_and_reports_what_is_left(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--fix", "--show-fixes", "--no-show-source", "."]) == 0  # a warning is left
    captured = capsys.readouterr()
    assert (project / "safe.json").read_bytes() == _fixed(SAFE)
    assert (project / "unsafe.json").read_bytes() == UNSAFE.read_bytes()
    assert captured.err == (
        "Fixed 1 problem in 1 file.\nFixed 1 problem:\n- content/mechanisms/safe.json:\n    1 × reference/id-mismatch\n"
    )
    assert "reference/id-mismatch" not in captured.out and "plain/word-choice" in captured.out
    assert captured.out.splitlines()[-2:] == [
        "No fixes available with --fix (1 with --unsafe-fixes).",
        "Found 1 warning in 1 of 2 files.",
    ]
    assert main(["check", "--diff", "."]) == 0
    assert capsys.readouterr().err == "No fixes available.\n"
    assert main(["check", "--fix", "--unsafe-fixes", "."]) == 0
    assert (project / "unsafe.json").read_bytes() == _fixed(UNSAFE)
    assert capsys.readouterr().out.splitlines()[-1] == "All checks passed: 2 files checked, no problems."


def test_the_short_form_fixes_as_check_fix_does(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fix", "--diff", "."]) == 1
    assert (project / "safe.json").read_bytes() == SAFE.read_bytes()
    assert main(["fix", "--unsafe-fixes", "."]) == 0
    assert capsys.readouterr().err.endswith("Fixed 2 problems in 2 files.\n")
    assert [(project / n).read_bytes() for n in ("safe.json", "unsafe.json")] == [_fixed(SAFE), _fixed(UNSAFE)]


def test_fix_and_diff_refuse_standard_input_and_a_baseline_update(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--fix", "--stdin-filename", "content/mechanisms/safe.json", "-"]) == 2
    assert "a buffer on standard input" in capsys.readouterr().err
    assert main(["check", "--fix", "--baseline", "b.json", "--update-baseline", "."]) == 2
    assert "run --fix first, then --update-baseline" in capsys.readouterr().err


def _apply(raw: bytes, edits: list[tuple[int, int, str]]) -> bytes:
    out = bytearray(raw)
    for start, length, content in sorted(edits, reverse=True):
        out[start : start + length] = content.encode("utf-8")
    return bytes(out)


def test_json_gives_each_result_its_fix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "-f", "json", "."])
    results = {r["rule"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    fix: dict[str, Any] = results["reference/id-mismatch"]["fix"]
    assert fix["applicability"] == "safe" and fix["message"] == 'Set the id to "mechanism-cache1"'
    [edit] = fix["edits"]
    raw = SAFE.read_bytes()
    assert raw[edit["byte_offset"] : edit["byte_offset"] + edit["byte_length"]] == b"-"
    assert (edit["content"], edit["line"], edit["end_line"], edit["end_column"] - edit["column"]) == ("", 44, 44, 1)
    assert _apply(raw, [(edit["byte_offset"], edit["byte_length"], edit["content"])]) == _fixed(SAFE)
    assert results["plain/word-choice"]["fix"]["applicability"] == "unsafe"


def test_sarif_fixes_validate_and_their_replacements_give_the_fixed_bytes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["check", "-f", "sarif", "."])
    log = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    fixed = [r for r in log["runs"][0]["results"] if "fixes" in r]
    assert sorted(r["ruleId"] for r in fixed) == ["plain/word-choice", "reference/id-mismatch"]
    for result in fixed:
        [fix] = result["fixes"]
        [change] = fix["artifactChanges"]
        name = change["artifactLocation"]["uri"].rsplit("/", 1)[-1]
        assert (
            change["artifactLocation"]["uri"] == result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        )
        raw = (project / name).read_bytes()
        edits = [
            (r["deletedRegion"]["byteOffset"], r["deletedRegion"]["byteLength"], r["insertedContent"]["text"])
            for r in change["replacements"]
        ]
        assert _apply(raw, edits) == _fixed(SAFE if name == "safe.json" else UNSAFE)
        assert fix["description"]["text"].endswith(".")
        region = change["replacements"][0]["deletedRegion"]
        line = raw.decode().split("\n")[region["startLine"] - 1]
        text = line[region["startColumn"] - 1 : region["endColumn"] - 1].encode()
        assert text == raw[region["byteOffset"] : region["byteOffset"] + region["byteLength"]]


def test_a_cached_result_keeps_its_fix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "-f", "json", "--cache", "."])
    first = capsys.readouterr().out
    main(["check", "-f", "json", "--cache", "."])  # every result from the cache now
    assert capsys.readouterr().out == first
    assert sum(1 for r in json.loads(first)["results"] if r["fix"] is not None) == 2
