"""The typography fix: apostrophes and quotes turned to the file's dominant style.

:func:`fix_typography` gives :class:`~mechlint.document.edit.StringEdit`
values, one per mark that differs from the style most of the file's marks
use (the first mark's style on a tie, as ``plain/typography-consistency``
decides); ``fixes/plain.py`` turns them into the rule's safe fix.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.edit import StringEdit
from mechlint.document.prose import passages
from mechlint.rules.plain import typography_consistency as typography

_TO_STRAIGHT = {"‘": "'", "’": "'", "“": '"', "”": '"'}


def _curly(text: str, index: int) -> str:
    char = text[index]
    before = text[index - 1] if index else " "
    opening = before.isspace() or before in "([{—–-/"
    if char == "'":
        return "‘" if opening else "’"
    return "“" if opening else "”"


def fix_typography(document: Document) -> Iterator[StringEdit]:
    found = [(p, typography.marks(p.text)) for p in passages(document.data, labels=True)]
    counts = {"straight": 0, "curly": 0}
    order = [style for _, marks in found for _, style in marks]
    for style in order:
        counts[style] += 1
    if not counts["straight"] or not counts["curly"]:
        return
    style = typography.dominant(counts, order[0])
    for passage, marks in found:
        for index, mark_style in marks:
            if mark_style == style:
                continue
            char = passage.text[index]
            new = _TO_STRAIGHT[char] if style == "straight" else _curly(passage.text, index)
            yield StringEdit(passage.pointer, index, index + 1, new)
