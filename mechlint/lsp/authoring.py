"""Author help: where the cursor is in the JSON, and what to complete, show or find there.

:func:`place_at` reads the text up to the cursor only and forgives what
comes after it (an unclosed string, a missing bracket), so completion works
while a file is being typed. Spans for hover, definition and references
come from the strict scanner (:mod:`mechlint.document.jsonscan`) on text that parses.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from mechlint.document.jsonscan import JsonSyntaxError, ScanResult, pointer_join, scan
from mechlint.document.views import all_steps, as_object, lit_entries, scenarios, strings, target_kind, targets
from mechlint.lsp.positions import TextIndex

Token = str | int


@dataclass
class Place:
    """The cursor's place: the path of the value (or member name) it is in, and the string around it."""

    path: tuple[Token, ...]
    in_key: bool
    in_string: bool = False
    #: Offsets of the string's content (inside the quotes) when ``in_string``; else both the cursor.
    start: int = 0
    end: int = 0


@dataclass
class _Frame:
    token: Token | None
    is_object: bool
    expect: str = "key"  # key, colon, value or comma
    key: str | None = None
    index: int = 0

    def child(self) -> Token | None:
        return (self.key if self.expect == "value" else None) if self.is_object else self.index


#: The body of a string literal up to its closing quote, or up to the end of the line when it is not closed.
_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\.)*')


def _string_end(text: str, pos: int) -> int:
    """The offset of the closing quote of the string opened at ``pos`` (or the end of the line or text)."""
    found = _STRING_BODY.match(text, pos + 1)
    return found.end() if found else pos + 1


def _decode(literal: str) -> str:
    try:
        value = json.loads(f'"{literal}"')
    except ValueError:
        return literal
    return value if isinstance(value, str) else literal


def place_at(text: str, offset: int) -> Place:
    """Where ``offset`` is, reading ``text`` leniently from the start up to it."""
    offset = max(0, min(offset, len(text)))
    stack: list[_Frame] = []
    pos = 0
    while pos < offset:
        char = text[pos]
        top = stack[-1] if stack else None
        if char in " \t\r\n":
            pos += 1
        elif char in "{[":
            stack.append(_Frame(top.child() if top else None, char == "{", "key" if char == "{" else "value"))
            pos += 1
        elif char in "}]":
            if stack:
                stack.pop()
            if stack:
                stack[-1].expect = "comma"
            pos += 1
        elif char == ",":
            if top is not None:
                if top.is_object:
                    top.expect, top.key = "key", None
                else:
                    top.expect, top.index = "value", top.index + 1
            pos += 1
        elif char == ":":
            if top is not None and top.is_object:
                top.expect = "value"
            pos += 1
        elif char == '"':
            end = _string_end(text, pos)
            if offset <= end:  # the cursor is inside this string (or right before its closing quote)
                return _at(stack, pos + 1, end, in_string=True)
            if top is not None and top.is_object and top.expect == "key":
                top.key, top.expect = _decode(text[pos + 1 : end]), "colon"
            elif top is not None:
                top.expect = "comma"
            pos = end + 1
        else:
            while pos < offset and text[pos] not in ' \t\r\n{}[],:"':
                pos += 1
            if top is not None and top.expect == "value":
                top.expect = "comma"
    return _at(stack, offset, offset, in_string=False)


def _at(stack: list[_Frame], start: int, end: int, *, in_string: bool) -> Place:
    path = tuple(frame.token for frame in stack[1:] if frame.token is not None)
    if len(path) != len(stack) - 1:  # a container whose place could not be told: nothing to say
        return Place((), False, in_string, start, end)
    top = stack[-1] if stack else None
    if top is None:
        return Place((), False, in_string, start, end)
    if top.is_object and top.expect == "key":
        return Place(path, True, in_string, start, end)
    child = top.child()
    return Place((*path, child) if child is not None else path, False, in_string, start, end)


# What the places mean in a mechanism file.

FIELDS = {"active": "node", "paths": "edge", "unselected": None}


def target_field(place: Place) -> str | None:
    """``active``, ``paths`` or ``unselected`` when the place is an entry of one; else ``None``."""
    path = place.path
    if place.in_key:
        return None
    if len(path) == 6 and path[0] == "scenarios" and path[2] == "steps" and path[4] in ("active", "paths"):
        return str(path[4]) if isinstance(path[5], int) else None
    if len(path) == 4 and path[0] == "scenarios" and path[2] == "unselected" and isinstance(path[3], int):
        return "unselected"
    return None


def state_object(place: Place) -> bool:
    """Whether the place is a member name of a step's ``state`` or a scenario's ``initial``."""
    path = place.path
    if not place.in_key:
        return False
    step_state = len(path) == 5 and path[0] == "scenarios" and path[2] == "steps" and path[4] == "state"
    return step_state or (len(path) == 3 and path[0] == "scenarios" and path[2] == "initial")


def completions(text: str, index: TextIndex, offset: int, data: Any) -> list[types.CompletionItem]:
    place = place_at(text, offset)
    found: list[tuple[str, str, types.CompletionItemKind]] = []
    name = target_field(place)
    if name is not None:
        kind = FIELDS[name]
        for key, target in targets(data).items():
            if kind is None or target_kind(target) == kind:
                label = target.get("label")
                detail = f"{target_kind(target) or 'target'}: {label}" if isinstance(label, str) else None
                found.append((key, detail or "target", types.CompletionItemKind.EnumMember))
    elif state_object(place):
        labels = as_object((as_object(data) or {}).get("stateLabels")) or {}
        for key, label in labels.items():
            found.append(
                (key, f"state: {label}" if isinstance(label, str) else "state", types.CompletionItemKind.Field)
            )
    items = []
    for key, detail, item_kind in found:
        if place.in_string:
            edit = types.TextEdit(index.range_of(place.start, place.end), json.dumps(key, ensure_ascii=False)[1:-1])
            items.append(types.CompletionItem(key, kind=item_kind, detail=detail, text_edit=edit, filter_text=key))
        else:
            items.append(
                types.CompletionItem(
                    key, kind=item_kind, detail=detail, insert_text=json.dumps(key, ensure_ascii=False)
                )
            )
    return items


@dataclass(frozen=True)
class TargetAt:
    """A target key under the cursor: in a step (or ``unselected``), or as a member name of ``targets``."""

    key: str
    start: int
    end: int


def target_at(text: str, offset: int) -> TargetAt | None:
    place = place_at(text, offset)
    if not place.in_string:
        return None
    end = place.end
    if target_field(place) is not None or (place.in_key and place.path == ("targets",)):
        return TargetAt(_decode(text[place.start : end]), place.start - 1, min(end + 1, len(text)))
    return None


def hover(text: str, index: TextIndex, offset: int, data: Any) -> types.Hover | None:
    found = target_at(text, offset)
    if found is None:
        return None
    target = targets(data).get(found.key)
    if target is None:
        return None
    label = target.get("label")
    kind = target_kind(target) or "target of no known kind"
    shown = json.dumps(label, ensure_ascii=False) if isinstance(label, str) else "no label"
    value = f"**{found.key}**: {kind}, label {shown}"
    content = types.MarkupContent(types.MarkupKind.Markdown, value)
    return types.Hover(content, index.range_of(found.start, found.end))


def _spans(text: str) -> ScanResult | None:
    try:
        return scan(text)
    except JsonSyntaxError:
        return None


def definition(text: str, index: TextIndex, offset: int, uri: str) -> types.Location | None:
    found = target_at(text, offset)
    spans = _spans(text) if found is not None else None
    if found is None or spans is None:
        return None
    span = spans.keys.get(pointer_join("/targets", found.key))
    return types.Location(uri, index.range_of(*span)) if span is not None else None


def references(
    text: str, index: TextIndex, offset: int, uri: str, data: Any, declaration: bool
) -> list[types.Location]:
    """Every step (and ``unselected`` list) that names the target under the cursor."""
    found = target_at(text, offset)
    spans = _spans(text) if found is not None else None
    if found is None or spans is None:
        return []
    pointers = [p for *_, step, sp in all_steps(data) for _, key, p in lit_entries(step, sp) if key == found.key]
    for _, scenario, pointer in scenarios(data):
        pointers += [
            p for _, key, p in strings(scenario.get("unselected"), pointer + "/unselected") if key == found.key
        ]
    if declaration:
        pointers.insert(0, pointer_join("/targets", found.key))
    locations = []
    for pointer in pointers:
        span = spans.keys.get(pointer) if pointer.startswith("/targets/") else spans.values.get(pointer)
        if span is not None:
            locations.append(types.Location(uri, index.range_of(*span)))
    return sorted(locations, key=lambda loc: (loc.range.start.line, loc.range.start.character))
