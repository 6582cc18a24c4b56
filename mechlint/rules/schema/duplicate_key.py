"""Reports an object that repeats a key.

JSON parsers silently keep the last of two equal keys, so the first value is
lost without a word: an author edits one copy and the diagram keeps showing
the other. The finding points at the second occurrence.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import DUPLICATE_KEY
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

if TYPE_CHECKING:
    from mechlint.document import Document

META = RuleMeta(
    id=DUPLICATE_KEY,  # the loader (mechlint.document) makes these findings
    level=Level.ERROR,
    summary="An object repeats a key; parsers keep only the last value.",
    why=(
        "RFC 8259 leaves the meaning of repeated names open and common parsers keep the last one "
        "without warning, so one of the two values is silently ignored."
    ),
    location="the second occurrence of the key",
    stage="load",
    examples=(
        Example(
            fires=True,
            where="/targets/a0",
            json='{"id": "mechanism-a0", "kind": "node", "label": "p1 p2", "label": "p1 p2 p3 p4"}',
        ),
        Example(fires=False, where="/targets/a0", json='{"id": "mechanism-a0", "kind": "node", "label": "p1 p2"}'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    yield from (finding for finding in document.load_findings if finding.rule_id == META.id)
