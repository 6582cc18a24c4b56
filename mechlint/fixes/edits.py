"""Building a :class:`~mechlint.model.Fix`: minimal replacements of a JSON file's text, at ``jsonscan`` positions.

A fixer says *what* changes in terms of the document (a string's characters,
a value, an array element, an object member); these helpers turn that into
:class:`Change` values (character offsets of the text) that touch only the
characters that must change, so indentation, key order, escapes elsewhere,
line endings and the final newline stay as they were. :func:`make_fix` turns
the changes into the byte ranges a :class:`~mechlint.model.Fix` carries.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterable

from mechlint.document import Document
from mechlint.document.jsonscan import string_offsets
from mechlint.model import Finding, Fix, FixEdit
from mechlint.records import Record
from mechlint.text.ends import common_ends

__all__ = [
    "Change",
    "append_element",
    "encode_string",
    "insert_member_after",
    "make_fix",
    "remove_element",
    "remove_member",
    "replace_in_string",
    "replace_value",
]


class Change(Record):
    """Characters ``[start, end)`` of the document's text become ``content``."""

    start: int
    end: int
    content: str


def encode_string(text: str) -> str:
    """``text`` as a JSON string literal, non-ASCII kept as it is (as the files are written)."""
    return json.dumps(text, ensure_ascii=False)


def replace_in_string(document: Document, pointer: str, start: int, end: int, replacement: str) -> Change | None:
    """Characters ``[start, end)`` of the *decoded* string at ``pointer`` become ``replacement``, escaped as JSON
    (escapes elsewhere in the literal stay); ``None`` when there is no such string or span."""
    span = document.scan().values.get(pointer)
    if span is None or document.text[span[0] : span[0] + 1] != '"':
        return None
    known = document.derived(_literal_offsets)  # once per literal: a long one may hold thousands of findings
    offsets = known.get(span[0])
    if offsets is None:
        offsets = known[span[0]] = string_offsets(document.text, *span)
    if not 0 <= start <= end < len(offsets):
        return None
    return Change(offsets[start], offsets[end], encode_string(replacement)[1:-1])


def replace_value(document: Document, pointer: str, json_text: str) -> Change | None:
    """The value at ``pointer`` becomes ``json_text`` (already JSON)."""
    span = document.scan().values.get(pointer)
    return None if span is None else Change(span[0], span[1], json_text)


def _literal_offsets(document: Document) -> dict[int, list[int]]:
    return {}


def _parent(pointer: str) -> str:
    return pointer.rpartition("/")[0]


def _children(document: Document) -> dict[str, list[tuple[int, int, tuple[int, int] | None]]]:
    """Each array's or object's children, in text order: ``(start, end, key span or None)`` of each value;
    found once per document, so that a fix of one element does not look at every value of the file."""
    spans = document.scan()
    children: dict[str, list[tuple[int, int, tuple[int, int] | None]]] = {}
    for pointer, (start, end) in spans.values.items():
        if pointer:
            children.setdefault(_parent(pointer), []).append((start, end, spans.keys.get(pointer)))
    for found in children.values():
        found.sort()
    return children


def _siblings(document: Document, pointer: str) -> list[tuple[int, int]]:
    """The spans of the elements of the array holding ``pointer``, in order."""
    return [(start, end) for start, end, _ in document.derived(_children).get(_parent(pointer), [])]


def remove_element(document: Document, pointer: str) -> Change | None:
    """The array element at ``pointer`` removed with the separator on one side: ``["a", "b"]`` → ``["a"]``."""
    token = pointer.rpartition("/")[2]
    siblings = _siblings(document, pointer)
    if not token.isdigit() or int(token) >= len(siblings):
        return None
    index = int(token)
    start, end = siblings[index]
    if len(siblings) == 1:
        array = document.scan().values[_parent(pointer)]
        return Change(array[0] + 1, array[1] - 1, "")  # the brackets stay, and nothing inside
    if index + 1 < len(siblings):
        return Change(start, siblings[index + 1][0], "")  # up to the next element: its separator goes too
    return Change(siblings[index - 1][1], end, "")  # the last: from the end of the one before


def append_element(document: Document, array_pointer: str, json_text: str) -> Change | None:
    """``json_text`` added at the end of the array at ``array_pointer``, separated as its elements are."""
    span = document.scan().values.get(array_pointer)
    if span is None or document.text[span[0]] != "[":
        return None
    text = document.text
    elements = _siblings(document, array_pointer + "/0")
    if not elements:
        inside = text[span[0] + 1 : span[1] - 1]
        return Change(span[0] + 1, span[1] - 1, json_text) if not inside.strip() else None
    if len(elements) > 1:
        separator = text[elements[-2][1] : elements[-1][0]]
    else:
        before = text[span[0] + 1 : elements[0][0]]
        separator = "," + before if "\n" in before else ", "
    return Change(elements[-1][1], elements[-1][1], separator + json_text)


def insert_member_after(document: Document, pointer: str, name: str, json_text: str) -> Change | None:
    """A member ``name: json_text`` added right after the member at ``pointer``, laid out as that member is."""
    spans = document.scan()
    value = spans.values.get(pointer)
    key = spans.keys.get(pointer)
    if value is None or key is None:
        return None
    text = document.text
    line_start = text.rfind("\n", 0, key[0]) + 1
    indent = text[line_start : key[0]]
    between = text[key[1] : value[0]]  # ": " or ":" as the file writes it
    member = f"{encode_string(name)}{between}{json_text}"
    if not indent.strip() and line_start > 0:
        newline = "\r\n" if text[line_start - 2 : line_start] == "\r\n" else "\n"  # the file's own line ends
        return Change(value[1], value[1], f",{newline}{indent}{member}")
    return Change(value[1], value[1], f", {member}")


def remove_member(document: Document, pointer: str) -> Change | None:
    """The object member at ``pointer`` removed with the separator on one side (and its line, when on its own)."""
    spans = document.scan()
    key = spans.keys.get(pointer)
    value = spans.values.get(pointer)
    parent = spans.values.get(_parent(pointer))
    members = document.derived(_children).get(_parent(pointer), [])
    if key is None or value is None or parent is None:
        return None
    place = bisect_left(members, (value[0],))
    if place >= len(members) or members[place][0] != value[0]:
        return None
    text = document.text
    if len(members) == 1:
        return Change(parent[0] + 1, parent[1] - 1, "")
    if place + 1 < len(members):
        next_key = members[place + 1][2]
        if next_key is None:
            return None
        line_start = text.rfind("\n", 0, key[0]) + 1
        if not text[line_start : key[0]].strip():  # on its own line: from that line's start to the next's
            next_start = text.rfind("\n", 0, next_key[0]) + 1
            if not text[next_start : next_key[0]].strip() and next_start > line_start:
                return Change(line_start, next_start, "")
        return Change(key[0], next_key[0], "")
    return Change(members[place - 1][1], value[1], "")


def _narrowed(text: str, change: Change) -> Change:
    """``change`` without the characters it would write back unchanged at either end: the minimal edit."""
    old, new = text[change.start : change.end], change.content
    head, tail = common_ends(old, new)
    return Change(change.start + head, change.end - tail, new[head : len(new) - tail])


#: Characters between two known byte offsets: a fix's offset is found from the nearest, not from the start.
_CHUNK = 4096


def _byte_marks(document: Document) -> list[int] | None:
    """The byte offset of every ``_CHUNK``-th character; ``None`` for an ASCII text (characters are bytes)."""
    text = document.text
    if text.isascii():
        return None
    marks = [0]
    for start in range(0, len(text), _CHUNK):
        marks.append(marks[-1] + len(text[start : start + _CHUNK].encode("utf-8", "surrogatepass")))
    return marks


def _byte_offset(document: Document, index: int) -> int:
    """The byte offset in the file of the character at ``index``: linear in ``_CHUNK``, not in the file."""
    marks = document.derived(_byte_marks)
    if marks is None:
        return index
    chunk = index // _CHUNK
    return marks[chunk] + len(document.text[chunk * _CHUNK : index].encode("utf-8", "surrogatepass"))


def make_fix(document: Document, applicability: str, title: str, changes: Iterable[Change | None]) -> Fix | None:
    """The fix of ``changes`` (``None`` when one could not be made, or none changes anything)."""
    kept: list[Change] = []
    for change in changes:
        if change is None:
            return None
        if document.text[change.start : change.end] != change.content:
            kept.append(_narrowed(document.text, change))
    if not kept:
        return None
    text = document.text
    edits = []
    for change in sorted(kept):
        start = _byte_offset(document, change.start)
        end = start + len(text[change.start : change.end].encode("utf-8", "surrogatepass"))
        region = document.region(Finding("", "", offset=(change.start, change.end)))
        edits.append(FixEdit(start, end, change.content, region))
    return Fix(applicability, title, tuple(edits))
