"""Running the rules over one document, and placing their findings on lines and columns.

Shared by :func:`mechlint.run.engine.lint` (files on disk) and the language
server (:mod:`mechlint.lsp`, text held by an editor).
"""

from __future__ import annotations

from collections.abc import Sequence

from mechlint.config import EnabledRule
from mechlint.document import Document
from mechlint.model import Finding, LocatedTrace, Notification, Result
from mechlint.rules.mechlint.internal_error import META as INTERNAL_ERROR_RULE
from mechlint.rules.schema.unsupported_version import unsupported

__all__ = ["EXCERPT_BEFORE", "EXCERPT_LENGTH", "INTERNAL_ERROR", "excerpt", "place", "run_rules"]

INTERNAL_ERROR = INTERNAL_ERROR_RULE.id
_STAGE_ORDER = {"load": 0, "version": 1, "document": 2}


def run_rules(document: Document, enabled: Sequence[EnabledRule]) -> tuple[list[Finding], list[Notification]]:
    """Apply each rule whose stage the document reached; a crash is a finding and a notification."""
    notifications: list[Notification] = []
    reached = 0
    if document.parsed:
        reached = 1 if unsupported(document.data) else 2
    findings: list[Finding] = []
    internal = next((e for e in enabled if e.rule.meta.id == INTERNAL_ERROR), None)
    for entry in enabled:
        meta = entry.rule.meta
        if meta.stage == "engine" or _STAGE_ORDER[meta.stage] > reached:
            continue
        try:
            found = list(entry.rule.check(document, entry.context))
        except Exception as error:  # a crashing rule must not stop the others
            message = f"the rule {meta.id} crashed on this file ({type(error).__name__}: {error}); the other rules ran"
            notifications.append(Notification(message, meta.id, document.path))
            if internal is not None:
                findings.append(Finding(INTERNAL_ERROR, message, level=internal.level))
            continue
        level = entry.level  # a finding may raise its own level above the configured one, never lower it
        if meta.reports and any(f.rule_id != meta.id for f in found):
            found = _companions(found, meta.id, meta.reports, enabled)
        findings.extend(
            f if f.level == level or f.rule_id != meta.id else f._replace(level=max(level, f.level or level))
            for f in found
        )
    return findings, notifications


def _companions(
    found: list[Finding], rule_id: str, reports: tuple[str, ...], enabled: Sequence[EnabledRule]
) -> list[Finding]:
    """A rule's findings under the ids it also reports (``RuleMeta.reports``): at that rule's level, or dropped
    when the run does not enable it."""
    levels = {entry.rule.meta.id: entry.level for entry in enabled if entry.rule.meta.id in reports}
    kept = []
    for finding in found:
        if finding.rule_id == rule_id:
            kept.append(finding)
        elif finding.rule_id in levels:
            other = levels[finding.rule_id]
            kept.append(finding._replace(level=max(other, finding.level or other)))
    return kept


def place(document: Document, finding: Finding) -> Result:
    """Attach line, column and the source line to a finding."""
    region = document.region(finding)
    lines = document.lines
    line = lines[region.start_line - 1] if region.start_line <= len(lines) else ""
    source_start, source_line = excerpt(line, region.start_column - 1)
    trace = tuple(
        LocatedTrace(
            document.region(Finding(finding.rule_id, step.message, step.pointer, underline=step.underline)),
            step.message,
            step.pointer,
        )
        for step in finding.trace
    )
    assert finding.level is not None
    return Result(
        path=document.path,
        rule_id=finding.rule_id,
        level=finding.level,
        message=finding.message,
        pointer=finding.pointer,
        region=region,
        source_line=source_line,
        trace=trace,
        source_start=source_start,
    )


#: The characters of a source line kept with a finding: a minified file is one line of megabytes,
#: and copying (or escaping, or caching) it once per finding would make a report quadratic.
EXCERPT_BEFORE, EXCERPT_LENGTH = 100, 400


def excerpt(line: str, index: int) -> tuple[int, str]:
    """The part of ``line`` around the character at ``index``, and where it starts; no ``\\r`` at its end."""
    if len(line) <= EXCERPT_LENGTH:
        return 0, line.rstrip("\r")
    start = max(min(index, len(line)) - EXCERPT_BEFORE, 0)
    return start, line[start : start + EXCERPT_LENGTH].rstrip("\r")
