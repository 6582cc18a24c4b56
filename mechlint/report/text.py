"""The default report, for people: one finding a line, the source, a caret.

``path:line:col: level rule-id message``, then the offending source line with
carets under the span, then the trace of the finding if it has one, and a
closing summary of counts. Colour only when asked (on a terminal).
"""

from __future__ import annotations

from mechlint.model import Level, Report, Result
from mechlint.report import OutputOptions
from mechlint.terminal import printable

_COLORS = {Level.ERROR: "\033[31m", Level.WARNING: "\033[33m", Level.NOTE: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color else text


def _snippet(result: Result, color: bool) -> list[str]:
    if not result.source_line:
        return []
    line = result.source_line
    region = result.region
    start = max(region.start_column - 1 - result.source_start, 0)
    end = region.end_column - 1 - result.source_start if region.end_line == region.start_line else start + 1
    end = max(min(end, len(line)), start + 1)
    left = max(start - 60, 0) if len(line) > 200 else 0  # keep long lines readable around the span
    line = line[left : left + 200] if len(line) > 200 else line
    start, end = start - left, max(min(end - left, len(line)), start - left + 1)
    if left or result.source_start:
        line, start, end = "…" + line, start + 1, end + 1
    line = printable(line)  # after cutting: escaping is proportional to what is shown
    number = str(region.start_line)
    gutter = " " * len(number)
    indent = "".join(char if char == "\t" else " " for char in line[:start])
    carets = _paint("^" * (end - start), _COLORS[result.level], color)
    return [f" {number} | {line}", f" {gutter} | {indent}{carets}"]


def format_result(result: Result, color: bool = False) -> list[str]:
    region = result.region
    head = f"{printable(result.path)}:{region.start_line}:{region.start_column}:"
    level = _paint(result.level.label, _BOLD + _COLORS[result.level], color)
    rule = _paint(printable(result.rule_id), _DIM, color)
    note = f" (suppressed: {printable(result.suppressed)})" if result.suppressed is not None else ""
    lines = [f"{_paint(head, _BOLD, color)} {level} {rule} {printable(result.message)}{note}"]
    lines.extend(_snippet(result, color))
    if result.trace:
        lines.append("    trace:")
        lines.extend(
            f"      {step.region.start_line}:{step.region.start_column} {printable(step.message)}"
            for step in result.trace
        )
    return lines


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(report: Report) -> str:
    text = _counts(report)
    if report.suppressed:
        text = text[:-1] + f"; {report.suppressed} suppressed." if text.endswith(".") else text
    return text


def _counts(report: Report) -> str:
    results = report.results
    files = _plural(report.files_checked, "file")
    if not report.files_checked:
        return (
            "No mechanism files found: folders are searched for the include patterns "
            "(by default **/mechanisms/*.json and **/*.mechanism.json); name a file to check it anyway."
        )
    if not results:
        return f"All checks passed: {files} checked, no problems."
    levels = (Level.ERROR, Level.WARNING, Level.NOTE)
    parts = [_plural(report.count(level), level.label) for level in levels if report.count(level)]
    with_findings = [f for f in report.files if any(r.suppressed is None for r in f.results)]
    checked = sum(1 for f in with_findings if f.checked)
    config = " and in the configuration" if any(not f.checked for f in with_findings) else ""
    return f"Found {_plural(len(results), 'problem')} ({', '.join(parts)}) in {checked} of {files}{config}."


def render(report: Report, options: OutputOptions) -> str:
    lines: list[str] = []
    for file_report in report.files:
        for result in file_report.results:
            lines.extend(format_result(result, options.color))
            lines.append("")
    for notice in report.notifications:
        lines.append(
            f"mechlint: internal error in {printable(notice.rule_id)} on {printable(notice.path)}; please report it"
        )
    lines.append(summary(report))
    return "\n".join(lines) + "\n"
