"""Reporters: SARIF that GitHub ingests, GitHub's fingerprints, text, JSON and annotations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mechlint import __version__, lint
from mechlint.config import Config
from mechlint.model import Report
from mechlint.report import OutputOptions, reporter
from mechlint.report.fingerprint import line_fingerprints
from mechlint.report.github import escape_data

from .conftest import FIXTURES, ROOT

SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())


# Expected values published with GitHub's upload action (src/fingerprints.test.ts).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ["c129715d7a2bc9a3:1"]),
        (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"]),
        (
            " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
            [
                "8b7cf3e952e7aeb2:1",
                "b1ae1287ec4718d9:1",
                "bff680108adb0fcc:1",
                "c6805c5e1288b612:1",
                "b86d3392aea1be30:1",
                "e6ceba753e1a442:1",
            ],
        ),
        *[
            (
                text,
                [
                    "e9496ae3ebfced30:1",
                    "fb7c023a8b9ccb3f:1",
                    "ce8ba1a563dcdaca:1",
                    "e20e36e16fcb0cc8:1",
                    "b3edc88f2938467e:1",
                    "c8e28b0b4002a3a0:1",
                    "c129715d7a2bc9a3:1",
                ],
            )
            for text in (
                " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
                " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
                " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
                " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
            )
        ],
        (
            "Lorem ipsum dolor sit amet.\n" * 10,
            [f"a7f2ff13bc495cf2:{n}" for n in range(1, 7)]
            + [
                "a7f2ff1481e87703:1",
                "a9cf91f7bbf1862b:1",
                "55ec222b86bcae53:1",
                "cc97dc7b1d7d8f7b:1",
                "c129715d7a2bc9a3:1",
            ],
        ),
    ],
)
def test_fingerprints_match_github(text: str, expected: list[str]) -> None:
    assert list(line_fingerprints(text).values()) == expected


def _rolling_reference(text: str) -> dict[int, str]:
    """A direct transcription of the rolling loop, to check the prefix-sum version on any text."""
    window, numbers = [0] * 100, [-1] * 100
    value, first_mod, index, line, line_start, previous_cr = 0, pow(37, 100, 1 << 64), 0, 0, True, False
    counts: dict[str, int] = {}
    out: dict[int, str] = {}

    def emit() -> None:
        digest = format(value, "x")
        counts[digest] = counts.get(digest, 0) + 1
        out[numbers[index]] = f"{digest}:{counts[digest]}"
        numbers[index] = -1

    def update(current: int) -> None:
        nonlocal value, index
        begin = window[index]
        window[index] = current
        value = (37 * value + current - first_mod * begin) % (1 << 64)
        index = (index + 1) % 100

    units = [*list(memoryview(text.encode("utf-16-le")).cast("H")), 65535]
    for current in units:
        if current in (32, 9) or (previous_cr and current == 10):
            previous_cr = False
            continue
        previous_cr = current == 13
        current = 10 if previous_cr else current
        if numbers[index] != -1:
            emit()
        if line_start:
            line_start, line = False, line + 1
            numbers[index] = line
        line_start = line_start or current == 10
        update(current)
    for _ in range(100):
        if numbers[index] != -1:
            emit()
        update(0)
    return out


def test_fingerprints_agree_with_the_rolling_hash_on_a_real_file() -> None:
    paths = sorted((FIXTURES / "rules").rglob("*.json"))
    assert paths
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        if len(text) < 50_000:
            assert line_fingerprints(text) == _rolling_reference(text), path


@pytest.fixture(scope="module")
def defect_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, Path]:
    root = tmp_path_factory.mktemp("repo")
    (root / ".git").mkdir()
    content = root / "content" / "my post" / "mechanisms"
    content.mkdir(parents=True)
    for name in ("fail-typo-active.json", "fail-edge-in-active.json"):
        family = "unknown-target" if "typo" in name else "kind-mismatch"
        shutil.copy(FIXTURES / "rules" / "reference" / family / name, content / name)
    (content / "broken.json").write_text('{"version": 1,}')
    return lint([root], Config(root=root), root=root, fingerprints=True), root


def _sarif(report: Report, root: Path) -> dict[str, Any]:
    options = OutputOptions(root_uri=root.as_uri() + "/", tool_version=__version__)
    data: dict[str, Any] = json.loads(reporter("sarif")(report, options))
    return data


def test_sarif_validates_against_the_schema(defect_report: tuple[Report, Path]) -> None:
    data = _sarif(*defect_report)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(data)


def test_sarif_follows_github_ingestion_rules(defect_report: tuple[Report, Path]) -> None:
    report, root = defect_report
    data = _sarif(report, root)
    assert len(data["runs"]) == 1
    run = data["runs"][0]
    assert run["automationDetails"]["id"] == "mechlint/"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    assert run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert {"name", "version", "semanticVersion", "informationUri", "rules"} <= set(driver)
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert rule["properties"]["tags"]
    assert run["results"]
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        assert not uri.startswith("/") and "\\" not in uri and " " not in uri
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
        source = (root / uri.replace("%20", " ")).read_text()
        expected = line_fingerprints(source)[location["region"]["startLine"]]
        assert result["partialFingerprints"]["primaryLocationLineHash"] == expected
    assert "content/my%20post/mechanisms/broken.json" in {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }


def test_sarif_of_a_clean_run_is_valid_and_empty(tmp_path: Path) -> None:
    report = lint([FIXTURES / "clean"], Config(root=FIXTURES), root=FIXTURES, fingerprints=True)
    data = _sarif(report, FIXTURES)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(data)
    assert data["runs"][0]["results"] == []


def test_outputs_are_deterministic(defect_report: tuple[Report, Path]) -> None:
    report, root = defect_report
    again = lint([root], Config(root=root), root=root, fingerprints=True)
    for name in ("text", "json", "github", "sarif"):
        options = OutputOptions(root_uri=root.as_uri() + "/", tool_version="1")
        assert reporter(name)(report, options) == reporter(name)(again, options)


def test_json_report_shape(defect_report: tuple[Report, Path]) -> None:
    data = json.loads(reporter("json")(defect_report[0], OutputOptions(tool_version="1")))
    assert data["format_version"] == 1
    assert data["summary"]["error"] == len([r for r in data["results"] if r["level"] == "error"])
    first = data["results"][0]
    assert {"path", "rule", "level", "message", "pointer", "line", "column", "end_line", "end_column"} <= set(first)


def test_github_annotations_use_repository_paths(defect_report: tuple[Report, Path]) -> None:
    text = reporter("github")(defect_report[0], OutputOptions())
    lines = [line for line in text.splitlines() if not line.startswith(("::group::", "::endgroup::"))]
    assert lines and all(
        line.startswith(("::error file=content/my post/", "::warning file=content/my post/")) for line in lines
    )
    assert any("title=reference/kind-mismatch::" in line for line in lines)
    assert text.startswith("::group::content/my post/") and text.endswith("::endgroup::\n")


def test_github_annotations_stay_within_limits_and_say_what_was_left_out() -> None:
    from mechlint.model import FileReport, Level, Region, Result
    from mechlint.report.github import ANNOTATIONS_PER_LEVEL

    def result(n: int, level: Level) -> Result:
        return Result("a.json", "plain/word-choice", level, f"finding {n}", "/x", Region(n, 1, n, 2))

    results = [result(n, Level.WARNING) for n in range(1, 15)] + [result(n, Level.ERROR) for n in range(20, 23)]
    report = Report(files=(FileReport("a.json", "a.json", tuple(results)),), files_checked=1)
    lines = reporter("github")(report, OutputOptions()).splitlines()
    assert sum(line.startswith("::warning ") for line in lines) == ANNOTATIONS_PER_LEVEL
    assert sum(line.startswith("::error ") for line in lines) == 3
    assert sum(line.startswith("a.json:") for line in lines) == 14 - ANNOTATIONS_PER_LEVEL
    assert "4 more findings are in the log above but not annotated" in lines[-1]


def test_github_escaping_cannot_start_a_new_command() -> None:
    assert escape_data("a\n::set-env name=x::y%") == "a%0A::set-env name=x::y%25"


def test_text_report_has_location_caret_and_summary(defect_report: tuple[Report, Path]) -> None:
    text = reporter("text")(defect_report[0], OutputOptions())
    assert "fail-typo-active.json:" in text and "error reference/unknown-target" in text
    assert "^" in text
    assert text.rstrip().splitlines()[-1].startswith("Found ")
    assert "\033[" not in text


def test_text_report_cannot_drive_the_terminal() -> None:
    from mechlint.model import FileReport, Level, Region, Result

    hostile = "\x1b]0;pwned\x07\x1b[2J"
    result = Result(
        f"m{hostile}.json", "r/x", Level.ERROR, f"bad {hostile}", "", Region(1, 1, 1, 2), source_line=hostile
    )
    report = Report(files=(FileReport("m.json", "m.json", (result,)),), files_checked=1)
    text = reporter("text")(report, OutputOptions())
    assert "\x1b" not in text and "\x07" not in text
