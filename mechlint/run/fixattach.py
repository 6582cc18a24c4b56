"""Attaching each finding's fix to its result: what the engine and the language server call after the rules."""

from __future__ import annotations

from collections.abc import Sequence

from mechlint.config import EnabledRule
from mechlint.document import Document
from mechlint.fixes import FIXABLE, fixer_of
from mechlint.model import Finding, Fix, Result
from mechlint.rules import RuleContext
from mechlint.run.checking import place

__all__ = ["fixes_of", "placed_with_fixes"]


def fixes_of(document: Document, findings: Sequence[Finding], enabled: Sequence[EnabledRule]) -> list[Fix | None]:
    """The fix of each finding (``None``: it has none), in the order of ``findings``.

    A fixer that fails gives no fix: a finding is still reported as it is.
    """
    if not document.parsed or not any(finding.rule_id in FIXABLE for finding in findings):
        return [None] * len(findings)
    contexts = {entry.rule.meta.id: entry.context for entry in enabled}
    fixes: list[Fix | None] = []
    for finding in findings:
        fixer = fixer_of(finding.rule_id)
        fix = None
        if fixer is not None:
            try:
                fix = fixer(document, finding, contexts.get(finding.rule_id, RuleContext()))
            except Exception:  # a fixer's mistake must not hide the finding or stop the run
                fix = None
        fixes.append(fix)
    return fixes


def placed_with_fixes(document: Document, findings: Sequence[Finding], enabled: Sequence[EnabledRule]) -> list[Result]:
    """Each finding placed on its lines (:func:`~mechlint.run.checking.place`), with its fix."""
    fixes = fixes_of(document, findings, enabled)
    return [
        place(document, finding) if fix is None else place(document, finding)._replace(fix=fix)
        for finding, fix in zip(findings, fixes, strict=True)
    ]
