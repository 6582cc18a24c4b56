"""A stable JSON report for scripts (documented in ``docs/json-format.md``)."""

from __future__ import annotations

from typing import Any

from mechlint.model import Fix, Level, Region, Report
from mechlint.report.jsontext import dumps_inert
from mechlint.report.options import OutputOptions

FORMAT_VERSION = 1


def _region(region: Region) -> dict[str, int]:
    return {
        "line": region.start_line,
        "column": region.start_column,
        "end_line": region.end_line,
        "end_column": region.end_column,
    }


def _fix(fix: Fix | None) -> dict[str, Any] | None:
    """A result's fix: what it does, whether ``--fix`` applies it, and its edits of the file's bytes."""
    if fix is None:
        return None
    return {
        "applicability": fix.applicability,
        "message": fix.title,
        "edits": [
            {
                "content": edit.content,
                "byte_offset": edit.start,
                "byte_length": edit.end - edit.start,
                **_region(edit.region),
            }
            for edit in fix.edits
        ],
    }


def to_data(report: Report, options: OutputOptions) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "tool": {"name": "mechlint", "version": options.tool_version},
        "files_checked": report.files_checked,
        "summary": {
            **{level.label: report.count(level) for level in (Level.ERROR, Level.WARNING, Level.NOTE)},
            "suppressed": report.suppressed,
        },
        "results": [
            {
                "path": result.path,
                "rule": result.rule_id,
                "level": result.level.label,
                "message": result.message,
                "pointer": result.pointer,
                "suppressed": result.suppressed,
                **_region(result.region),
                "trace": [
                    {"message": step.message, "pointer": step.pointer, **_region(step.region)} for step in result.trace
                ],
                "fix": _fix(result.fix),
            }
            for result in report.shown
        ],
        "notifications": [
            {"rule": notice.rule_id, "path": notice.path, "message": notice.message} for notice in report.notifications
        ],
    }


def render(report: Report, options: OutputOptions) -> str:
    return dumps_inert(to_data(report, options)) + "\n"
