"""JUnit XML, as GitLab, Jenkins and Azure Pipelines read test reports.

One ``<testsuite name="mechlint">`` with one ``<testcase>`` per checked file,
clean files included, so the test count is the number of files checked (the
report keeps clean files when asked: ``lint(keep=Keep.FILES)``). The test's
``name`` is the file's path relative to the repository root and its
``classname`` is ``mechlint``: Jenkins builds its tree from the class name and
would split a path at its dots; GitLab and Azure list ``classname`` and
``name`` side by side.

A file with problems (errors or warnings) fails: one ``<failure>`` whose
``message`` counts them and whose text lists them, one a line, as the text
report's first lines do. Notes and suppressed findings do not fail a test: they
are listed in ``<system-out>``. A rule that crashed on the file is an
``<error>``. The findings about the configuration file (unused suppressions)
are one more test case. The output is valid against Jenkins' ``junit-10.xsd``.

XML 1.0 cannot hold most control characters, lone surrogates or U+FFFE and
U+FFFF at all, even as character references, and a control character that it
can hold would still act in a CI log: text from input is written as
:mod:`mechlint.report.escape` shows it, a file name (the test's ``name``) as
:func:`~mechlint.report.escape.visible_name` does (``bad\\x1b.json``, one name
for one file), everything else as :func:`~mechlint.report.escape.visible` does.
"""

from __future__ import annotations

import re
from collections import Counter
from xml.sax.saxutils import escape, quoteattr

from mechlint.model import Level, Notification, Report, Result
from mechlint.report.escape import report_path, visible, visible_name
from mechlint.report.options import OutputOptions

CLASSNAME = "mechlint"
_PROBLEMS = (Level.ERROR, Level.WARNING)
#: Characters XML 1.0 cannot hold at all, even escaped (controls, lone surrogates, U+FFFE and U+FFFF).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", text))


def _attribute(text: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", text), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _line(path: str, result: Result) -> str:
    """One finding as a line of text, everything from input already made visible (``path`` included)."""
    region = result.region
    suppressed = f" (suppressed: {visible(result.suppressed)})" if result.suppressed is not None else ""
    where = f"{path}:{region.start_line}:{region.start_column}"
    return f"{where}: {result.level.label} {visible(result.rule_id)} {visible(result.message)}{suppressed}"


def _testcase(name: str, results: tuple[Result, ...], crashes: list[Notification]) -> tuple[str, bool, bool]:
    """The ``<testcase>`` element of one file, whether it failed, and whether it has an error."""
    path = visible_name(name)
    problems: list[Result] = []
    others: list[Result] = []  # one pass: a test of membership in ``problems`` made this quadratic (issue 30)
    for result in results:
        (problems if result.suppressed is None and result.level >= Level.WARNING else others).append(result)
    parts = []
    for crash in crashes:
        message = f"internal error in {crash.rule_id}: {crash.message}"
        parts.append(f"<error type={_attribute(visible(crash.rule_id))} message={_attribute(visible(message))}/>")
    if problems:
        counts = Counter(r.level for r in problems)
        message = " and ".join(
            _plural(counts[level], level.label) for level in (Level.ERROR, Level.WARNING) if counts[level]
        )
        worst = max(r.level for r in problems)
        body = "\n".join(_line(path, r) for r in problems)
        parts.append(f"<failure type={_attribute(worst.label)} message={_attribute(message)}>{_text(body)}</failure>")
    if others:
        parts.append(f"<system-out>{_text(chr(10).join(_line(path, r) for r in others))}</system-out>")
    head = f'<testcase name={_attribute(path)} classname={_attribute(CLASSNAME)} time="0"'
    case = (
        f"    {head}/>" if not parts else f"    {head}>\n" + "".join(f"      {p}\n" for p in parts) + "    </testcase>"
    )
    return case, bool(problems), bool(crashes)


def _cases(report: Report) -> list[tuple[str, bool, bool]]:
    crashes: dict[str, list[Notification]] = {}
    for notice in report.notifications:
        crashes.setdefault(notice.path, []).append(notice)
    cases = []
    for file_report in report.files:
        cases.append(_testcase(report_path(file_report.uri), file_report.results, crashes.pop(file_report.path, [])))
    for path, notices in crashes.items():  # a file whose report was left out (a report built by hand)
        cases.append(_testcase(path, (), notices))
    return cases


def render(report: Report, options: OutputOptions) -> str:
    cases = _cases(report)
    tests = len(cases)
    failures = sum(1 for _, failed, errored in cases if failed and not errored)
    errors = sum(1 for _, _, errored in cases if errored)
    counts = f'tests="{tests}" failures="{failures}" errors="{errors}"'
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="mechlint" {counts} time="0">',
        f'  <testsuite name="mechlint" {counts} skipped="0" time="0">',
        *(case for case, _, _ in cases),
        "  </testsuite>",
        "</testsuites>",
    ]
    return "\n".join(lines) + "\n"
