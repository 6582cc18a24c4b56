"""GitLab Code Quality: the subset of the Code Climate issue format GitLab reads.

A JSON array with one object per finding: ``description`` (the message),
``check_name`` (the rule id), ``fingerprint`` (mechlint's ``mechlint/v1``
fingerprint, the one SARIF carries, so GitLab tells a new finding from a
moved one and two findings at one place apart), ``severity`` (an error is
``major``, a warning ``minor``, a note ``info``), and ``location``: the path
relative to the repository root and ``positions`` (begin and end, line and
column). Suppressed findings are left out (GitLab has no notion of them).
"""

from __future__ import annotations

from typing import Any

from mechlint.model import Level, Region, Report
from mechlint.report.escape import report_path
from mechlint.report.fingerprint import result_fingerprints
from mechlint.report.jsontext import dumps_inert
from mechlint.report.options import OutputOptions

SEVERITIES = {Level.ERROR: "major", Level.WARNING: "minor", Level.NOTE: "info"}


def _positions(region: Region) -> dict[str, dict[str, int]]:
    return {
        "begin": {"line": region.start_line, "column": region.start_column},
        "end": {"line": region.end_line, "column": region.end_column},
    }


def to_data(report: Report, options: OutputOptions) -> list[dict[str, Any]]:
    issues = []
    for file_report in report.files:
        path = report_path(file_report.uri)
        for result, fingerprint in zip(file_report.results, result_fingerprints(file_report), strict=True):
            if result.suppressed is not None:
                continue
            issues.append(
                {
                    "description": f"{result.rule_id}: {result.message}",
                    "check_name": result.rule_id,
                    "fingerprint": fingerprint,
                    "severity": SEVERITIES[result.level],
                    "location": {"path": path, "positions": _positions(result.region)},
                }
            )
    return issues


def render(report: Report, options: OutputOptions) -> str:
    return dumps_inert(to_data(report, options)) + "\n"
