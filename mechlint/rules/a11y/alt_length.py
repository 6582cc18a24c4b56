"""Reports an ``alt`` text longer than the limit (150 characters by default).

Screen readers read ``alt`` in one go, without a way to move inside it; long
explanations belong in ``description``, which a reader can navigate. The limit
counts characters after collapsing runs of white space.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import as_object
from mechlint.model import Finding, Level
from mechlint.rules import Example, Option, RuleContext, RuleMeta

META = RuleMeta(
    id="a11y/alt-length",
    level=Level.WARNING,
    summary="`alt` is longer than the limit; the rest belongs in `description`.",
    why=(
        "A text alternative should be short and to the point; a long one is tiring to hear and cannot be "
        "navigated (WCAG 2.2, 1.1.1, and the common 150-character guidance for alt text)."
    ),
    location="`/alt`, narrowed to the characters past the limit",
    options=(Option("max-length", "integer", 150, "the most characters `alt` may have", minimum=1),),
    examples=(
        Example(fires=True, where="/alt", json='"' + "A prefills a block. " * 9 + '"'),
        Example(fires=False, where="/alt", json='"A prefills a block and B uses it again."'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    alt = (as_object(document.data) or {}).get("alt")
    if not isinstance(alt, str):
        return
    limit: int = context.options["max-length"]
    length = len(" ".join(alt.split()))
    if length > limit:
        yield META.finding(
            "/alt",
            f"alt has {length} characters, more than {limit}; keep the gist here and move details to description",
            span=(limit, len(alt)),
        )
