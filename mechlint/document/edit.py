"""Edits that change only string values of a JSON file and keep everything else.

A :class:`StringEdit` replaces characters ``[start, end)`` of the *decoded*
value of the string at ``pointer``; :func:`apply_edits` maps those offsets to
the file's text through the escapes of the literal, so indentation, key
order, escapes elsewhere and line endings stay as they were.
:func:`write_atomically` (from :mod:`mechlint.safety.safeio`) writes through a
temporary file and a rename, so an interrupted run never leaves a
half-written file, and never writes through a link out of the repository.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from mechlint.document import Document
from mechlint.document.jsonscan import string_offsets
from mechlint.records import Record
from mechlint.safety.safeio import write_atomically

__all__ = ["StringEdit", "apply_edits", "write_atomically"]


class StringEdit(Record):
    pointer: str
    start: int
    end: int
    replacement: str


def _encode(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def apply_edits(document: Document, edits: Iterable[StringEdit]) -> str:
    """The document's text with ``edits`` applied; edits of non-strings are skipped."""
    spans = document.scan().values
    changes: list[tuple[int, int, str]] = []
    for edit in edits:
        span = spans.get(edit.pointer)
        if span is None or document.text[span[0] : span[0] + 1] != '"':
            continue
        offsets = string_offsets(document.text, *span)
        if not 0 <= edit.start <= edit.end < len(offsets):
            continue
        changes.append((offsets[edit.start], offsets[edit.end], _encode(edit.replacement)))
    text = document.text
    for start, end, replacement in sorted(changes, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text
