"""``mechlint/invalid-config`` as a finding: a run stopped by its configuration still writes every report asked for.

The exit code stays 2 and the error lines on standard error stay as they were; each report (SARIF, JSON,
JUnit, GitHub, HTML, GitLab, a text file) holds each mistake at its file and line, so that a CI workflow
that uploads the SARIF log does not break on a missing file.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest

from mechlint.cli import main
from mechlint.errors import ConfigError
from mechlint.run.configfindings import invalid_config_report

from .conftest import CLEAN, ROOT
from .gitrepo import init, write

SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
BROKEN = '[project]\nname = "blog"\n\n[tool.mechlint]\nfail-on = "warnin"\n\n[tool.mechlint.rules."plain/readabilty"]\n'
RAW = ("\x1b", "\x07", "\x9b")


@pytest.fixture
def blog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = init(tmp_path / "blog")
    write(repo, "content/post/mechanisms/m.json", CLEAN.read_text(encoding="utf-8"))
    write(repo, "pyproject.toml", BROKEN)
    monkeypatch.chdir(repo)
    return repo


def _places(results: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(r["path"], r["line"], r["rule"]) for r in results]


def test_every_report_asked_for_holds_the_mistakes_at_their_lines(
    blog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = ["sarif:out/m.sarif", "junit:out/m.xml", "text:out/m.txt", "html:out/m.html", "gitlab:out/gl.json"]
    assert main(["check", "-f", "json", *(f"-o{o}" for o in outputs), "content"]) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    expected = [("pyproject.toml", 5, "mechlint/invalid-config"), ("pyproject.toml", 7, "mechlint/invalid-config")]
    assert _places(report["results"]) == expected
    assert report["files_checked"] == 0 and report["summary"]["error"] == 2
    assert 'did you mean "warning"' in report["results"][0]["message"]
    assert captured.err.count("[mechlint/invalid-config]") == 2, "the error lines are still printed"

    sarif = json.loads((blog / "out/m.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    run = sarif["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == ["mechlint/invalid-config"]
    located = [r["locations"][0]["physicalLocation"] for r in run["results"]]
    assert [(p["artifactLocation"]["uri"], p["region"]["startLine"]) for p in located] == [
        ("pyproject.toml", 5),
        ("pyproject.toml", 7),
    ]
    assert all(r["partialFingerprints"]["primaryLocationLineHash"] for r in run["results"])
    assert run["invocations"][0]["executionSuccessful"] is False

    cases = ElementTree.parse(blog / "out/m.xml").getroot().iter("testcase")
    assert [case.get("name") for case in cases] == ["pyproject.toml"]
    text = (blog / "out/m.txt").read_text(encoding="utf-8")
    assert "pyproject.toml:5:1\nerror mechlint/invalid-config: " in text and 'fail-on = "warnin"' in text
    assert text.rstrip().splitlines()[-1].startswith("Stopped before checking any file: the configuration")
    assert "mechlint/invalid-config" in (blog / "out/m.html").read_text(encoding="utf-8")
    gitlab = json.loads((blog / "out/gl.json").read_text(encoding="utf-8"))
    assert [(issue["location"]["path"], issue["location"]["positions"]["begin"]["line"]) for issue in gitlab] == [
        ("pyproject.toml", 5),
        ("pyproject.toml", 7),
    ]


def test_the_text_report_on_standard_output_is_the_error_lines_as_before(
    blog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "content"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"mechlint: {blog / 'pyproject.toml'}:5: tool.mechlint.fail-on: expected one of error, warning, note, "
        "never; got 'warnin' (did you mean \"warning\"?) [mechlint/invalid-config]",
        f'mechlint: {blog / "pyproject.toml"}:7: tool.mechlint.rules."plain/readabilty": unknown rule id '
        '(did you mean "plain/readability"?); `mechlint rules` lists them [mechlint/invalid-config]',
    ]


def test_github_annotations_point_at_the_configuration(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "-f", "github", "-qq", "-o", "sarif:m.sarif", "content"]) == 2
    assert capsys.readouterr().out == "", "-qq: nothing on standard output"
    assert main(["check", "-f", "github", "content"]) == 2
    assert "::error file=pyproject.toml,line=5," in capsys.readouterr().out
    assert (blog / "m.sarif").is_file()


def test_a_mistake_in_a_rule_file_is_found_in_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = init(tmp_path / "blog")
    write(repo, "mechlint.toml", 'word-lists = ["lists/words.toml"]\ninvariants = ["inv.toml"]\n')
    write(repo, "lists/words.toml", "[[word]]\nword = 'utilize'\n\nthis is = = not toml\n")
    write(repo, "inv.toml", "not toml either = \n")
    monkeypatch.chdir(repo)
    assert main(["check", "-o", "json:r.json", "."]) == 2
    report = json.loads((repo / "r.json").read_text(encoding="utf-8"))
    assert sorted((r["path"], r["line"]) for r in report["results"]) == [("inv.toml", 1), ("lists/words.toml", 4)]
    assert {r["rule"] for r in report["results"]} == {"mechlint/invalid-config"}


def test_a_broken_baseline_is_a_finding_in_the_baseline(blog: Path) -> None:
    write(blog, "pyproject.toml", '[project]\nname = "blog"\n')
    write(blog, "baseline.json", "{not json")
    assert main(["check", "--baseline", "baseline.json", "-o", "sarif:m.sarif", "content"]) == 2
    sarif = json.loads((blog / "m.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    [result] = sarif["runs"][0]["results"]
    where = result["locations"][0]["physicalLocation"]
    assert (where["artifactLocation"]["uri"], where["region"]["startLine"]) == ("baseline.json", 1)


def test_a_mistake_of_the_command_line_alone_writes_no_report(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(blog, "pyproject.toml", '[project]\nname = "blog"\n')
    assert main(["check", "--select", "refrence", "-o", "sarif:m.sarif", "-f", "json", "content"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "[mechlint/invalid-config]" in captured.err
    assert not (blog / "m.sarif").exists(), "no file to point at: a usage error, as a misspelt --format is"


def test_the_report_of_a_stopped_run_is_built_from_the_errors_alone(tmp_path: Path) -> None:
    config = write(tmp_path, "sub/mechlint.toml", "a = 1\nb = 2\n")
    from mechlint.config import ConfigErrors

    problem = ConfigErrors(
        [ConfigError("b is wrong", config, 2), ConfigError("a is wrong", config, 1), ConfigError("flag", None)]
    )
    report = invalid_config_report(problem, tmp_path, cwd=tmp_path)
    assert report is not None and report.stopped and report.files_checked == 0
    [file] = report.files
    assert (file.path, file.uri, file.checked) == ("sub/mechlint.toml", "sub/mechlint.toml", False)
    assert [(r.region.start_line, r.message, r.source_line) for r in file.results] == [
        (1, "a is wrong", "a = 1"),
        (2, "b is wrong", "b = 2"),
    ]
    assert invalid_config_report(ConfigError("only a flag"), tmp_path) is None


def test_hostile_rule_file_names_and_fifos_are_reported_inert_and_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = init(tmp_path / "blog")
    os.mkfifo(repo / "pipe.toml")
    write(repo, "mechlint.toml", 'word-lists = ["pipe.toml", "bad\\u001b[2J\\u0007.toml"]\n')
    write(repo, "bad\x1b[2J\x07.toml", "= broken\n")
    monkeypatch.chdir(repo)
    outputs = ["sarif:m.sarif", "text:m.txt", "junit:m.xml", "github:m.gh", "json:m.json"]
    assert main(["check", *(f"-o{o}" for o in outputs), "."]) == 2
    for name in ("m.sarif", "m.txt", "m.xml", "m.gh", "m.json"):
        text = (repo / name).read_text(encoding="utf-8")
        assert not any(char in text for char in RAW), name
        assert "pipe.toml" in text, name
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(json.loads((repo / "m.sarif").read_text(encoding="utf-8")))


def test_new_prints_each_mistake_of_the_configuration_on_its_own_line(
    blog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "content/other/mechanisms/n.json"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.endswith("[mechlint/invalid-config]") for line in lines), lines
    assert not (blog / "content/other/mechanisms/n.json").exists()
