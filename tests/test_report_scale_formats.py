"""Issue 30, point 6: every format writes a report of 100,000 findings in one file, each finding once.

Not timed (``benchmarks/report_scale.py`` measures the seconds, docs/benchmarks.md
has the figures): a reporter that does work quadratic in the findings of a file
would make this a test of hours, and one that crashes or drops findings fails on
the counts. A regression guard: the reporters were made linear before it.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mechlint.model import Level, Report
from mechlint.report import REPORTERS, OutputOptions, reporter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from report_scale import one_file_report

COUNT = 100_000
PATH = "content/mechanisms/big.json"
OPTIONS = OutputOptions(root_uri="file:///repo/", tool_version="0", width=100)


@pytest.fixture(scope="module")
def report() -> Report:
    return one_file_report(COUNT)


def _levels(report: Report) -> tuple[int, int, int, int]:
    """Errors, warnings and notes not suppressed, and the suppressed findings."""
    suppressed = sum(1 for r in report.files[0].results if r.suppressed is not None)
    return report.count(Level.ERROR), report.count(Level.WARNING), report.count(Level.NOTE), suppressed


def _lines_starting(text: str, start: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith(start))


def check_text(text: str, report: Report) -> None:
    errors, warnings, notes, _ = _levels(report)
    assert _lines_starting(text, f"{PATH}:") == COUNT
    assert text.endswith(f"Found {errors} errors and {warnings} warnings in 1 of 1 file; {notes} notes.\n")


def check_json(text: str, report: Report) -> None:
    errors, warnings, notes, suppressed = _levels(report)
    assert text.count('"rule": "plain/long-sentence"') == COUNT
    assert text.count('"suppressed": "an old finding"') == suppressed
    assert f'"error": {errors},\n    "warning": {warnings},\n    "note": {notes},' in text


def check_github(text: str, report: Report) -> None:
    shown = sum(_levels(report)[:3])
    assert [text.count(f"::{kind} ") for kind in ("error", "warning", "notice")] == [10, 10, 10]
    assert _lines_starting(text, f"{PATH}:") == shown - 30
    assert f"mechlint: {shown - 30} more findings are in the log above" in text


def check_sarif(text: str, report: Report) -> None:
    suppressed = _levels(report)[3]
    assert text.count('"ruleId": "plain/long-sentence"') == COUNT
    assert text.count('"kind": "external"') == suppressed
    assert text.count('"mechlint/v1": ') == COUNT


def check_html(text: str, report: Report) -> None:
    assert text.count('<li class="finding ') == COUNT
    assert text.endswith("</html>\n")


def check_gitlab(text: str, report: Report) -> None:
    errors, warnings, notes, _ = _levels(report)
    assert text.count('"check_name": "plain/long-sentence"') == errors + warnings + notes
    assert text.count('"severity": "major"') == errors


def check_junit(text: str, report: Report) -> None:
    errors, warnings, _, _ = _levels(report)
    assert text.count(f"{PATH}:") == COUNT
    assert f'message="{errors} errors and {warnings} warnings"' in text


CHECKS: dict[str, Callable[[str, Report], None]] = {
    "text": check_text,
    "concise": check_text,
    "json": check_json,
    "github": check_github,
    "sarif": check_sarif,
    "html": check_html,
    "gitlab": check_gitlab,
    "junit": check_junit,
}


def test_every_format_is_checked() -> None:
    assert set(CHECKS) == set(REPORTERS)


@pytest.mark.parametrize("name", REPORTERS)
def test_every_format_writes_100000_findings_in_one_file(name: str, report: Report) -> None:
    CHECKS[name](reporter(name)(report, OPTIONS), report)


def test_the_sarif_log_written_in_pieces_holds_100000_findings(report: Report) -> None:
    """The command line writes SARIF with ``render_chunks``, one finding at a time."""
    from mechlint.report.sarif import render_chunks

    check_sarif("".join(render_chunks(report, OPTIONS)), report)


def test_a_reporter_runs_with_the_cycle_collector_paused_and_restores_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full collections walked every finding again and again (docs/benchmarks.md); the collector's state is kept."""
    import mechlint.report.json

    seen: list[bool] = []

    def render(report: Report, options: OutputOptions) -> str:
        seen.append(gc.isenabled())
        return "{}\n"

    monkeypatch.setattr(mechlint.report.json, "render", render)
    small = one_file_report(3)
    assert gc.isenabled()
    assert reporter("json")(small, OPTIONS) == "{}\n"
    assert gc.isenabled()
    gc.disable()
    try:
        reporter("json")(small, OPTIONS)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False, False]
