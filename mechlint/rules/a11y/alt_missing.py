"""Reports an ``alt`` text that is empty or only white space.

``alt`` is the text alternative of the whole diagram: a screen reader reads it
instead of the animation. A missing key is reported by ``schema/violation``;
this rule catches the empty string that passes the schema but says nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import as_object
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="a11y/alt-missing",
    level=Level.ERROR,
    summary="`alt` is empty or only white space.",
    why=(
        "A person using a screen reader gets the diagram only through its text alternative "
        "(WCAG 2.2, success criterion 1.1.1 Non-text Content)."
    ),
    location="`/alt`",
    examples=(
        Example(fires=True, where="/alt", json='"   "'),
        Example(fires=False, where="/alt", json='"A prefills a block and B uses it again."'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    alt = (as_object(document.data) or {}).get("alt")
    if isinstance(alt, str) and not alt.strip():
        yield META.finding("/alt", "alt is empty; write one or two sentences that say what the diagram shows")
