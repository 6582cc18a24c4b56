"""Reports an ``alt`` text that repeats the title or caption, or announces itself as an image.

Two cases:

- ``alt`` equals ``title`` or ``caption`` after folding case, punctuation and
  white space, or nearly so (a similarity of 0.9 or more);
- ``alt`` opens with words like "image of", "picture of", "diagram of",
  "animation of" or "graphic showing": the screen reader already says it is
  an image.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from difflib import SequenceMatcher

from mechlint.document import Document
from mechlint.document.placeholder import is_placeholder
from mechlint.document.views import as_object
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="a11y/alt-redundant",
    level=Level.WARNING,
    summary='`alt` repeats `title` or `caption`, or starts with words like "image of".',
    why=(
        "A screen reader reads the title, the caption and the alternative: the same text twice wastes the "
        'listener\'s time, and "image of" repeats what the reader already announces (WCAG 2.2, 1.1.1; '
        "W3C WAI images tutorial)."
    ),
    location="`/alt`",
    examples=(
        Example(fires=True, where="/alt", json='"B uses the stored blocks again."', note="the same as the title"),
        Example(fires=True, where="/alt", json='"Diagram of a prefix cache."'),
        Example(fires=False, where="/alt", json='"A prefills a block, and B uses it again after a key check."'),
    ),
    tags=("accessibility",),
)

_SELF_REFERENCE = re.compile(
    r"^\s*(?:(?:an?|the|this)\s+)?(?:animated\s+)?"
    r"(?:image|picture|photo|photograph|diagram|animation|graphic|illustration|figure|chart|screenshot|drawing|gif)"
    r"\s+(?:of|showing|that\s+shows|which\s+shows|depicting|illustrating)\b",
    re.IGNORECASE,
)
SIMILARITY = 0.9


def fold(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]|_", " ", text.casefold()).split())


def similarity(a: str, b: str) -> float:
    """Similarity of two folded texts; bounded cost on long or very different ones."""
    if a == b:
        return 1.0
    if 2 * min(len(a), len(b)) / (len(a) + len(b)) < SIMILARITY or max(len(a), len(b)) > 2000:
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.ratio() if matcher.quick_ratio() >= SIMILARITY else 0.0


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    root = as_object(document.data) or {}
    alt = root.get("alt")
    if not isinstance(alt, str) or not alt.strip() or is_placeholder(alt):
        return  # an unwritten alt is schema/placeholder's
    opening = _SELF_REFERENCE.match(alt)
    if opening:
        words = " ".join(opening.group(0).split())
        yield META.finding(
            "/alt",
            f'alt starts with "{words}"; the screen reader already says it is an image, so start with what it shows',
            span=(opening.start(), opening.end()),
        )
    folded = fold(alt)
    for name in ("title", "caption"):
        other = root.get(name)
        if not isinstance(other, str) or not fold(other) or is_placeholder(other):
            continue
        ratio = similarity(folded, fold(other))
        if ratio >= SIMILARITY:
            how = "repeats" if ratio == 1 else "nearly repeats"
            yield META.finding(
                "/alt",
                f"alt {how} the {name}; describe what the diagram shows instead of its {name}",
            )
            return
