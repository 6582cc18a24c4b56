"""Reports straight and curly apostrophes or quotes mixed in one file.

Straight marks are ``'`` and ``"``; curly ones are ``‘ ’ “ ”``. Code spans
are skipped, and labels count. When a file has both, every string that uses
the less common style is reported, at its first such mark, and the message
says which style dominates (on a tie, the style used first).
``mechlint fix`` converts the marks to the dominant style.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from mechlint.document import Document, prose
from mechlint.document.prose import CACHE_SIZE, code_spans, in_code
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="plain/typography-consistency",
    level=Level.WARNING,
    summary="A file mixes straight and curly apostrophes or quotes.",
    why=(
        'Mixed marks look careless, and they break search: a reader searching for "B\'s" does not find '
        '"B’s". Screen readers may also read the two differently.'
    ),
    location="each string that uses the less common style, narrowed to its first such mark",
    examples=(
        Example(fires=True, where="/caption", json='"B\'s key matches. Then B’s tail runs."'),
        Example(fires=False, where="/caption", json='"B’s key matches. Then B’s tail runs."'),
    ),
    tags=("plain-language", "consistency"),
)

STRAIGHT = "'\""
CURLY = "‘’“”"
MARKS = STRAIGHT + CURLY
_MARK = re.compile(f"[{MARKS}]")


@lru_cache(maxsize=CACHE_SIZE)
def marks(text: str) -> tuple[tuple[int, str], ...]:
    """``(offset, style)`` of each apostrophe or quote outside code spans."""
    if _MARK.search(text) is None:
        return ()
    code = code_spans(text) if "`" in text else []
    return tuple(
        (match.start(), "straight" if match.group() in STRAIGHT else "curly")
        for match in _MARK.finditer(text)
        if not in_code(code, match.start())
    )


def dominant(counts: dict[str, int], first: str) -> str:
    if counts["straight"] == counts["curly"]:
        return first
    return max(counts, key=lambda style: counts[style])


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    found = [(p, marks(p.text)) for p in prose.of(document, labels=True)]
    counts = {"straight": 0, "curly": 0}
    order: list[str] = []
    for _, passage_marks in found:
        for _, style in passage_marks:
            counts[style] += 1
            order.append(style)
    if not counts["straight"] or not counts["curly"]:
        return
    style = dominant(counts, order[0])
    other = "curly" if style == "straight" else "straight"
    for passage, passage_marks in found:
        offsets = [offset for offset, mark_style in passage_marks if mark_style == other]
        if offsets:
            yield META.finding(
                passage.pointer,
                f"{other} apostrophe or quote in a file that mostly uses {style} ones "
                f"({counts[style]} {style}, {counts[other]} {other}); use {style} ones (mechlint fix does it)",
                span=(offsets[0], offsets[0] + 1),
            )
