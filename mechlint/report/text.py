"""The default report, for people; and its concise form, one line a finding, for scripts and editors.

The full layout (``--format text``, the default), as ruff's full output: the
location ``path:line:col``; then the level, the rule id and the message,
wrapped at word boundaries to ``OutputOptions.width`` columns (continuation
lines indented by two); under an error or a warning, the offending source line
with carets under the span, then the trace of the finding if it has one. A
blank line separates findings. A note has no excerpt, unless
``OutputOptions.show_source`` asks for every excerpt (``False``: none).

The concise layout (``--format concise``): ``path:line:col: level rule-id
message``, one line a finding whatever its length, no excerpt: what editors'
error formats and scripts parse.

The source line is cut to ``OutputOptions.width`` columns around the span,
with ``…`` where it was cut. A closing summary counts errors and warnings (the
problems) and notes apart; above it, a line counts the findings ``check --fix`` fixes (marked ``[*]``; unsafe
fixes only with ``OutputOptions.unsafe_fixes``). ``OutputOptions.statistics`` lists one line per rule
instead of the findings; ``quiet`` 1 keeps only the summary, 2 nothing.
Colour only when asked (on a terminal).

Text from input cannot act on the terminal: a file name is shown as
:func:`~mechlint.report.escape.visible_name` does it (``bad\\x1b[2J.json``,
backslashes doubled, so it names one file), messages, rule ids and reasons as
:func:`~mechlint.report.escape.visible` does; the source excerpt has every
character that is not printable replaced by U+FFFD one for one
(:func:`mechlint.safety.terminal.printable`), so the carets stay under the span.
"""

from __future__ import annotations

from collections import Counter

from mechlint.model import Level, Report, Result
from mechlint.report.escape import visible, visible_name
from mechlint.report.options import OutputOptions
from mechlint.report.wrap import cells as _cells
from mechlint.report.wrap import split_words, wrap_words
from mechlint.report.wrap import text_width as _width
from mechlint.safety.terminal import printable

_COLORS = {Level.ERROR: "\033[31m", Level.WARNING: "\033[33m", Level.NOTE: "\033[36m"}
#: The levels counted as problems; notes are counted apart.
_PROBLEMS = (Level.ERROR, Level.WARNING)
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color else text


def fit(line: str, start: int, end: int, room: int) -> tuple[str, int, int]:
    """``line`` cut to ``room`` columns around characters ``[start, end)``, with … where it was cut.

    Returns the text, the column where the span starts in it and how many
    columns of the span are shown (at least one, for a caret).
    """
    if _width(line) <= room:
        return line, _width(line[:start]), max(_width(line[start:end]), 1)
    budget = max(room - 2, 1)  # an ellipsis on each side at most
    span = max(_width(line[start:end]), 1)
    if span >= budget:
        first, last, taken = start, start, 0
        while last < len(line) and taken + _cells(line[last]) <= budget:
            taken += _cells(line[last])
            last += 1
    else:
        spare = budget - span
        before, after = _width(line[:start]), _width(line[end:])
        right = min(after, spare - min(before, spare // 2))
        left = min(before, spare - right)
        first, taken = start, 0
        while first > 0 and taken + _cells(line[first - 1]) <= left:
            first -= 1
            taken += _cells(line[first])
        last, taken = end, 0
        while last < len(line) and taken + _cells(line[last]) <= right:
            taken += _cells(line[last])
            last += 1
    head = "…" if first > 0 else ""
    text = head + line[first:last] + ("…" if last < len(line) else "")
    shown = max(_width(line[max(start, first) : min(end, last)]), 1)
    return text, len(head) + _width(line[first:start]), shown


def _snippet(result: Result, options: OutputOptions) -> list[str]:
    if not result.source_line:
        return []
    line = result.source_line
    region = result.region
    start = max(region.start_column - 1 - result.source_start, 0)
    end = region.end_column - 1 - result.source_start if region.end_line == region.start_line else start + 1
    start = min(start, len(line))
    end = max(min(end, len(line)), start + 1)
    # the excerpt is at most a few hundred characters around the span (see Result.source_line): fit() cuts it to
    # the width; "…" says where the excerpt itself begins inside a longer line
    if result.source_start:
        line, start, end = "…" + line, start + 1, end + 1
    # tabs become four spaces, so that the width is known and the carets stay under the span
    tabs_before, tabs_within = line[:start].count("\t"), line[start:end].count("\t")
    line = line.replace("\t", "    ")
    start, end = start + 3 * tabs_before, end + 3 * (tabs_before + tabs_within)
    line = printable(line)  # after cutting: escaping is proportional to what is shown (one for one)
    number = str(region.start_line)
    gutter = " " * len(number)
    text, offset, length = fit(line, start, end, max(options.width - len(number) - 4, 20))
    carets = _paint("^" * length, _COLORS[result.level], options.color)
    return [f" {number} | {text}", f" {gutter} | {' ' * offset}{carets}"]


def _shows_source(result: Result, options: OutputOptions) -> bool:
    return options.show_source if options.show_source is not None else result.level >= Level.WARNING


def format_result(result: Result, options: OutputOptions | None = None) -> list[str]:
    """The lines of one finding: its location, its rule and message; then, when shown, its source excerpt and trace.

    In the concise layout, one line: ``path:line:col: level rule-id message``.
    """
    options = options or OutputOptions()
    color = options.color
    region = result.region
    location = f"{visible_name(result.path)}:{region.start_line}:{region.start_column}"
    label = result.level.label
    level = _paint(label, _BOLD + _COLORS[result.level], color)
    rule_id = visible(result.rule_id)
    note = f" (suppressed: {visible(result.suppressed)})" if result.suppressed is not None else ""
    message = visible(result.message) + note
    if fixable(result, options):
        message = "[*] " + message
    if options.concise:
        return [f"{_paint(location + ':', _BOLD, color)} {level} {_paint(rule_id, _DIM, color)} {message}"]
    words = [(label, level), (f"{rule_id}:", _paint(rule_id, _BOLD, color) + ":"), *split_words(message)]
    lines = [_paint(location, _BOLD, color), *wrap_words(words, options.width, indent="  ")]
    if not _shows_source(result, options):
        return lines
    lines.extend(_snippet(result, options))
    if result.trace:
        lines.append("    trace:")
        for step in result.trace:
            where = f"{step.region.start_line}:{step.region.start_column}"
            wrapped = wrap_words(split_words(f"{where} {visible(step.message)}"), options.width - 6, indent="  ")
            lines.extend(f"      {line}" for line in wrapped)
    return lines


def statistics(report: Report) -> list[str]:
    """One line per rule: how many findings, their level, the rule's summary; most findings first."""
    counts = Counter(r.rule_id for r in report.results)
    levels: dict[str, set[Level]] = {}
    for result in report.results:
        levels.setdefault(result.rule_id, set()).add(result.level)
    summaries = {rule.id: rule.summary for rule in report.rules}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if not rows:
        return []
    count_width = len(str(rows[0][1]))
    rule_width = max(len(visible(rule_id)) for rule_id, _ in rows)
    lines = []
    for rule_id, count in rows:
        level = "/".join(level.label for level in sorted(levels[rule_id], reverse=True))
        summary = visible(summaries.get(rule_id, ""))
        lines.append(f"{count:>{count_width}}  {visible(rule_id):<{rule_width}}  {level:<7}  {summary}".rstrip())
    return lines


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(report: Report) -> str:
    text = _counts(report)
    if report.suppressed:
        text = text[:-1] + f"; {report.suppressed} suppressed." if text.endswith(".") else text
    return text


def fixable(result: Result, options: OutputOptions) -> bool:
    """Whether ``check --fix`` (with ``--unsafe-fixes`` when the run has it) fixes ``result``: marked ``[*]``."""
    fix = result.fix
    return fix is not None and result.suppressed is None and (fix.safe or options.unsafe_fixes)


def fixes_summary(report: Report, options: OutputOptions) -> str:
    """``[*] 2 fixable with --fix (1 more with --unsafe-fixes).`` (ruff's words), or "" when nothing is fixable."""
    shown = [r for r in report.results if r.fix is not None and r.suppressed is None]
    safe = sum(1 for r in shown if r.fix is not None and r.fix.safe)
    unsafe = len(shown) - safe
    if options.unsafe_fixes:
        return f"[*] {len(shown)} fixable with --fix --unsafe-fixes." if shown else ""
    if not shown:
        return ""
    more = f" ({unsafe} more with --unsafe-fixes)" if unsafe else ""
    if not safe:
        return f"No fixes available with --fix ({unsafe} with --unsafe-fixes)."
    return f"[*] {safe} fixable with --fix{more}."


def _counts(report: Report) -> str:
    """Errors and warnings are the problems; notes are counted apart."""
    files = _plural(report.files_checked, "file")
    if report.stopped:
        return f"Stopped before checking any file: {visible(report.stopped)}."
    if not report.files_checked:
        return (
            "No mechanism files found: folders are searched for the include patterns "
            "(by default **/mechanisms/*.json and **/*.mechanism.json); name a file to check it anyway."
        )
    notes = report.count(Level.NOTE)
    also = f"; {_plural(notes, 'note')}" if notes else ""
    problems = [
        _plural(report.count(level), level.label) for level in (Level.ERROR, Level.WARNING) if report.count(level)
    ]
    if not problems:
        return (
            f"No problems in {files} checked{also}." if notes else f"All checks passed: {files} checked, no problems."
        )
    with_problems = [
        f for f in report.files if any(r.suppressed is None and r.level >= Level.WARNING for r in f.results)
    ]
    checked = sum(1 for f in with_problems if f.checked)
    config = " and in the configuration" if any(not f.checked for f in with_problems) else ""
    return f"Found {' and '.join(problems)} in {checked} of {files}{config}{also}."


def _findings(report: Report, options: OutputOptions) -> list[str]:
    """Every finding; a blank line around each one shown with its source, none between one-line findings."""
    lines: list[str] = []
    previous = 0
    for file_report in report.files:
        for result in file_report.results:
            block = format_result(result, options)
            if lines and (len(block) > 1 or previous > 1):
                lines.append("")
            lines.extend(block)
            previous = len(block)
    return lines


def render(report: Report, options: OutputOptions) -> str:
    if options.quiet >= 2:
        return ""
    lines: list[str] = []
    if options.statistics:
        lines = statistics(report)
    elif not options.quiet:
        lines = _findings(report, options)
    if lines:
        lines.append("")
    for notice in report.notifications:
        lines.append(
            f"mechlint: internal error in {visible(notice.rule_id)} on {visible_name(notice.path)}; please report it"
        )
    fixes = fixes_summary(report, options) if not options.quiet else ""
    if fixes:
        lines.append(fixes)  # before the summary, which stays the last line
    lines.append(summary(report))  # one line, in both layouts: scripts read it
    return "\n".join(lines) + "\n"


def render_concise(report: Report, options: OutputOptions) -> str:
    """The concise layout: one line a finding (``--format concise``)."""
    return render(report, options._replace(concise=True))
