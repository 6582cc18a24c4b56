"""GitHub Actions workflow commands: annotations, grouped per file, within GitHub's limits.

``::error file=PATH,line=L,col=C,endLine=…,endColumn=…,title=RULE::message``;
notes become ``::notice``. Values are escaped as the runner expects, so a
message can never start a command of its own. GitHub shows at most 10
error, 10 warning and 10 notice annotations per step: the findings past
those limits are printed as plain log lines in their file's group, and a
closing line says how many were left out, so nothing disappears silently.
Suppressed findings are never annotated.

Text from input is escaped for the runner and for the log viewer: GitHub's own
escapes (``%25``, ``%0D``, ``%0A``, and ``%3A``, ``%2C`` in properties), then
every other character that is not printable as a backslash escape
(:mod:`mechlint.report.escape`: ``\\x1b``, ``\\u202e``, ``\\xff`` for a byte
that is not UTF-8). In the log a file name is shown as
:func:`~mechlint.report.escape.visible_name` does it. The ``file`` property is
the exact name, which GitHub matches with the repository's paths; a name that
needs escaping has none (its escaped form is not the name on disk, and could be
another file's): the escaped name and place start the message, and GitHub lists
the annotation in the run's summary. The plain log lines of findings past the
limits are wrapped in ``::stop-commands::`` (with a token made from their own
text, which they cannot contain), so no file name or message can start a
command of its own there.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from mechlint.model import Level, Report, Result
from mechlint.report.escape import report_path, visible, visible_name
from mechlint.report.options import OutputOptions

_COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}
#: Annotations of one kind GitHub shows for one step.
ANNOTATIONS_PER_LEVEL = 10


def escape_data(text: str) -> str:
    """GitHub's escaping of a command's message, then every other character that is not printable made visible."""
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(result: Result, exact: str, shown: str) -> str:
    """``::error file=…,line=…::message``; a file whose name must be escaped is named in the message instead.

    GitHub matches ``file`` with the repository's paths: an escaped name is
    not the name on disk and could be another file's, so such an annotation
    carries no file (GitHub lists it in the run's summary).
    """
    region = result.region
    message = result.message
    properties = [f"title={escape_property(result.rule_id)}"]
    if exact.isprintable():
        properties[:0] = [
            f"file={escape_property(exact)}",
            f"line={region.start_line}",
            f"col={region.start_column}",
            f"endLine={region.end_line}",
            f"endColumn={region.end_column}",
        ]
    else:
        message = f"{shown}:{region.start_line}:{region.start_column}: {message}"
    return f"::{_COMMANDS[result.level]} {','.join(properties)}::{escape_data(message)}"


def _inert(plain: list[str]) -> list[str]:
    """Log lines the runner reads as text only: between ``::stop-commands::TOKEN`` and ``::TOKEN::``.

    The token is a digest of the lines themselves, so they cannot hold it, and
    the same report is always written the same way.
    """
    if not plain:
        return []
    token = "mechlint-" + hashlib.sha256("\n".join(plain).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return [f"::stop-commands::{token}", *plain, f"::{token}::"]


def render(report: Report, options: OutputOptions) -> str:
    lines = []
    used: Counter[Level] = Counter()
    left_out = 0
    for file_report in report.files:
        results = [r for r in file_report.results if r.suppressed is None]
        if not results:
            continue
        exact = report_path(file_report.uri)
        path = visible_name(exact)
        lines.append(f"::group::{escape_data(path)} ({len(results)} finding{'s' if len(results) != 1 else ''})")
        plain = []
        for result in results:
            region = result.region
            if used[result.level] < ANNOTATIONS_PER_LEVEL:
                used[result.level] += 1
                lines.append(_annotation(result, exact, path))
            else:
                left_out += 1
                where = f"{path}:{region.start_line}:{region.start_column}"
                plain.append(f"{where}: {result.level.label} {visible(result.rule_id)} {visible(result.message)}")
        lines.extend(_inert(plain))
        lines.append("::endgroup::")
    if left_out:
        lines.append(
            f"mechlint: {left_out} more finding{'s' if left_out != 1 else ''} {'are' if left_out != 1 else 'is'} "
            f"in the log above but not annotated: GitHub shows at most {ANNOTATIONS_PER_LEVEL} errors, "
            f"{ANNOTATIONS_PER_LEVEL} warnings and {ANNOTATIONS_PER_LEVEL} notices per step. "
            "Upload SARIF (--output sarif:FILE) to see them all in code scanning."
        )
    return "".join(line + "\n" for line in lines)
