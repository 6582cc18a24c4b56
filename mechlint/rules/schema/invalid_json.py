"""Reports a file whose bytes are not JSON as RFC 8259 defines it.

That covers syntax errors (a trailing comma, single quotes, an unclosed
string), bytes that are not UTF-8 (including UTF-16 and UTF-32 files), a
UTF-8 byte-order mark, ``NaN`` and ``Infinity``, an empty file, and nesting
too deep to parse. The finding points at the exact line and column of the
first problem (for a trailing comma, the comma itself: deleting it is the
fix); no other rule runs on a file that does not parse, except
when the only problem is a byte-order mark.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import INVALID_JSON
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

if TYPE_CHECKING:
    from mechlint.document import Document

META = RuleMeta(
    id=INVALID_JSON,  # the loader (mechlint.document) makes these findings
    level=Level.ERROR,
    summary="The file is not valid JSON (RFC 8259).",
    why=(
        "The blog's renderer parses the file with a strict JSON parser; a file it cannot parse "
        "shows no diagram at all. Lenient parsers disagree on extensions such as NaN or a BOM, "
        "so only strict JSON behaves the same everywhere."
    ),
    location="the offending line and column",
    stage="load",
    examples=(
        Example(fires=True, json='{"version": 1, "title": "Prefix caching",}', note="a trailing comma"),
        Example(fires=True, json='{"version": 1, "scale": NaN}', note="NaN is not JSON"),
        Example(fires=False, json='{"version": 1, "title": "Prefix caching"}'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    yield from (finding for finding in document.load_findings if finding.rule_id == META.id)
