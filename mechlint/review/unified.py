"""A unified diff between two versions of a source, as ``diff -u`` and ``git diff`` write it, with the changed parts.

The text is compared by line (only ``\\n`` ends a line; a ``\\r`` before it
is part of the line, so a change of line endings is a change). Within a
changed line that pairs with a line of the other side, the parts that differ
are marked: for prose (Markdown) by sentence, so that a reviewer sees which
sentence of a paragraph changed; for other text (code, SVG, JSON) by word.
Bytes that are not text (not UTF-8, or binary as ``git diff`` guesses it: a
NUL in the first 8,000 bytes) are not diffed: the caller shows sizes and
digests. Control characters do not make a file binary (as for ``git diff``):
they are shown escaped.
"""

from __future__ import annotations

import difflib
import re

from mechlint.document.prose import trimmed_span
from mechlint.records import Record

__all__ = ["BINARY_PEEK", "CONTEXT", "PROSE_SUFFIXES", "Hunk", "Line", "as_text", "hunks", "is_prose"]

CONTEXT = 3
#: ``git diff`` calls a file binary when a NUL is among its first this many bytes (``buffer_is_binary``).
BINARY_PEEK = 8000
#: Sources compared sentence by sentence: the text of an article.
PROSE_SUFFIXES = (".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc")
#: Where a sentence ends: after ``.``, ``!``, ``?`` or ``…`` (and closing quotes or brackets) before a space.
_CLOSE = "[\"'”’)\\]*_]"
_SENTENCE_END = re.compile(rf"(?<=[.!?…])(?=\s)|(?<=[.!?…]{_CLOSE})(?=\s)|(?<=[.!?…]{_CLOSE}{_CLOSE})(?=\s)")
_WORD = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


class Line(Record):
    """One line of a hunk: ``op`` is ``" "`` (both sides), ``"-"`` (pinned only) or ``"+"`` (current only)."""

    op: str
    #: The line without its ``\n``.
    text: str
    #: Whether the line ends with ``\n`` (the last line of a file may not).
    eol: bool = True
    #: The parts of ``text`` that differ from the line it pairs with, as ``(start, end)`` character offsets.
    changed: tuple[tuple[int, int], ...] = ()


class Hunk(Record):
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: tuple[Line, ...]

    @property
    def header(self) -> str:
        """``@@ -1,3 +1,4 @@``: a range of one line is its number alone, an empty one the line before it."""
        return f"@@ -{_range(self.old_start, self.old_lines)} +{_range(self.new_start, self.new_lines)} @@"


def _range(start: int, count: int) -> str:
    return str(start) if count == 1 else f"{start},{count}"


def as_text(data: bytes | None) -> str | None:
    """``data`` as text, or ``None`` when it is not: missing, binary by ``git diff``'s guess, or not UTF-8."""
    if data is None or b"\0" in data[:BINARY_PEEK]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def is_prose(path: str) -> bool:
    return path.lower().endswith(PROSE_SUFFIXES)


def _lines(text: str) -> list[str]:
    """The lines of ``text``, each with its ``\\n`` (the last may lack it); only ``\\n`` ends a line."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _line(op: str, raw: str, changed: tuple[tuple[int, int], ...] = ()) -> Line:
    eol = raw.endswith("\n")
    return Line(op, raw[:-1] if eol else raw, eol, changed)


def hunks(old: str, new: str, *, prose: bool = False, context: int = CONTEXT) -> list[Hunk]:
    """The hunks of the unified diff from ``old`` to ``new`` (none when they are equal)."""
    before, after = _lines(old), _lines(new)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    found: list[Hunk] = []
    for group in matcher.get_grouped_opcodes(context):
        lines: list[Line] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(_line(" ", raw) for raw in before[i1:i2])
                continue
            removed, added = before[i1:i2], after[j1:j2]
            old_marks, new_marks = _block_marks(removed, added, prose)
            lines.extend(_line("-", raw, marks) for raw, marks in zip(removed, old_marks, strict=True))
            lines.extend(_line("+", raw, marks) for raw, marks in zip(added, new_marks, strict=True))
        first, last = group[0], group[-1]
        old_count, new_count = last[2] - first[1], last[4] - first[3]
        old_start = first[1] + 1 if old_count else first[1]
        new_start = first[3] + 1 if new_count else first[3]
        found.append(Hunk(old_start, old_count, new_start, new_count, tuple(lines)))
    return found


def _units(text: str, prose: bool) -> list[str]:
    """``text`` cut into the units compared: sentences for prose (across line breaks), else words, spaces, signs."""
    if prose:
        return [part for part in _SENTENCE_END.split(text) if part]
    return _WORD.findall(text)


Spans = tuple[tuple[int, int], ...]


def _block_marks(removed: list[str], added: list[str], prose: bool) -> tuple[list[Spans], list[Spans]]:
    """The changed parts of each removed and each added line of one changed block, compared as a whole.

    The block is compared unit by unit (sentences for prose, else words),
    with runs of spaces and line breaks counted alike: a paragraph wrapped
    anew marks only the sentence whose words changed.
    """
    old, new = "".join(removed), "".join(added)
    a, b = _units(old, prose), _units(new, prose)
    matcher = difflib.SequenceMatcher(None, [_key(u) for u in a], [_key(u) for u in b], autojunk=False)
    if not removed or not added or (not prose and matcher.ratio() < 0.2):
        return [() for _ in removed], [() for _ in added]  # all new, all gone, or unrelated: marking says nothing
    old_spans: list[tuple[int, int]] = []
    new_spans: list[tuple[int, int]] = []
    starts_a, starts_b = _starts(a), _starts(b)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            old_spans.append((starts_a[i1], starts_a[i2]))
            new_spans.append((starts_b[j1], starts_b[j2]))
    return _per_line(removed, old_spans), _per_line(added, new_spans)


def _key(unit: str) -> str:
    """What a unit is compared by: its words, whatever spaces and line breaks are between them."""
    return " ".join(unit.split())


def _per_line(lines: list[str], spans: list[tuple[int, int]]) -> list[Spans]:
    """Spans of the block's text cut at line ends, as offsets in each line (spaces at their ends left out)."""
    found: list[Spans] = []
    at = 0
    for raw in lines:
        text = raw.removesuffix("\n")
        local = (
            trimmed_span(text, max(s, at) - at, min(e, at + len(text)) - at)
            for s, e in spans
            if s < at + len(text) and e > at
        )
        found.append(tuple(span for span in local if span[1] > span[0]))
        at += len(raw)
    return found


def _starts(units: list[str]) -> list[int]:
    offsets = [0]
    for unit in units:
        offsets.append(offsets[-1] + len(unit))
    return offsets
