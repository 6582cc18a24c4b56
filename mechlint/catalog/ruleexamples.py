"""The rule documentation's examples as whole files: the base document, each example applied to it, and its diff.

A rule's :class:`~mechlint.rules.Example` replaces one value of :data:`BASE`
(a small, clean mechanism; ``docs/rules/base.json`` is its generated copy) or
is a whole file. :func:`example_document` is the file an example stands for:
what the rule pages show (:mod:`mechlint.catalog.docs`, as a diff against the base
file) and what ``tests/test_rule_catalogue.py`` runs the rule on, so the two
cannot differ.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from mechlint.rules import Example
from mechlint.text.ends import common_ends

__all__ = ["BASE", "base_text", "example_diff", "example_document"]

#: The clean base document every example changes one value of.
BASE: dict[str, Any] = {
    "version": 1,
    "language": "en",
    "title": "B uses the stored blocks again",
    "description": "Request A prefills one block. Request B uses the stored block again.",
    "caption": "The diagram is an example of prefix caching.",
    "alt": "A prefills a block, the cache keeps it, and B uses it again after a key check.",
    "sources": [],
    "limitations": ["Playback time is not measured runtime."],
    "targets": {
        "a0": {"id": "mechanism-a0", "kind": "node", "label": "A block 0"},
        "a1": {"id": "mechanism-a1", "kind": "node", "label": "A block 1"},
        "cache0": {"id": "mechanism-cache0", "kind": "node", "label": "Cache entry 0"},
        "b0": {"id": "mechanism-b0", "kind": "node", "label": "B block 0"},
        "store0": {"id": "mechanism-store0", "kind": "edge", "label": "store0"},
        "reuse0": {"id": "mechanism-reuse0", "kind": "edge", "label": "reuse0"},
    },
    "stateLabels": {"stage": "Stage", "artifact": "Artifact"},
    "scenarios": [
        {
            "id": "compatible-hit",
            "title": "B uses the block again",
            "description": "B has the same key.",
            "initial": {"stage": "Ready", "artifact": "None"},
            "unselected": [],
            "steps": [
                {
                    "title": "A prefills",
                    "description": "A prefills two blocks.",
                    "duration": 4000,
                    "active": ["a0", "a1"],
                    "paths": [],
                    "state": {"stage": "Prefill", "artifact": "Two blocks"},
                },
                {
                    "title": "Keep the block",
                    "description": "The cache keeps block 0.",
                    "duration": 4000,
                    "active": ["cache0"],
                    "paths": ["store0"],
                    "state": {"stage": "Store", "artifact": "One cache entry"},
                },
                {
                    "title": "Compare the key",
                    "description": "B and the cache entry have the same key.",
                    "duration": 4000,
                    "active": ["b0"],
                    "paths": [],
                    "state": {"stage": "Compare", "artifact": "Same key"},
                },
                {
                    "title": "Use the block again",
                    "description": "B uses the cached block again.",
                    "duration": 4000,
                    "active": ["b0"],
                    "paths": ["reuse0"],
                    "state": {"stage": "Reuse", "artifact": "No new prefill"},
                },
            ],
        },
        {
            "id": "key-miss",
            "title": "The keys differ",
            "description": "B has another key.",
            "initial": {"stage": "Ready", "artifact": "None"},
            "unselected": ["reuse0"],
            "steps": [
                {
                    "title": "Compare the key",
                    "description": "The keys differ, so B prefills its own block.",
                    "duration": 4000,
                    "active": ["b0"],
                    "paths": [],
                    "state": {"stage": "Compare", "artifact": "Different key"},
                }
            ],
        },
    ],
}

#: An example's value is shown on its own lines, indented, when it is longer than this on one line.
_INLINE = 60


@cache
def base_text() -> str:
    """The base document as ``docs/rules/base.json`` holds it: indented by two, one key a line."""
    return json.dumps(BASE, indent=2, ensure_ascii=False) + "\n"


@cache
def _spans() -> dict[str, tuple[int, int]]:
    """Where each value of the base text is, by JSON pointer."""
    from mechlint.document.jsonscan import scan

    return scan(base_text()).values


def _strict(text: str) -> Any:
    """The JSON value of ``text`` when writing it again means the same (no duplicate key, no NaN); else None."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({key for key, _ in items}) != len(items):
            raise ValueError("duplicate key")
        return dict(items)

    def constant(name: str) -> Any:
        raise ValueError(name)

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except ValueError:
        return None


def _shown_value(example: Example, indent: str) -> str:
    """The example's value as written into the file: as given, or indented on its own lines when long."""
    value = _strict(example.json)
    if len(example.json) <= _INLINE or not isinstance(value, (list, dict)) or not value:
        return example.json
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)


def _indent(text: str, offset: int) -> str:
    """The indentation of the line that holds ``offset``."""
    line = text[text.rfind("\n", 0, offset) + 1 :]
    return line[: len(line) - len(line.lstrip(" "))]


def example_document(example: Example) -> str:
    """The whole file the example stands for: the base text with its value in place, or the example itself.

    A value the base has is replaced where it stands; a member or an item it
    lacks is added last in its object or array. Only the example's value
    differs from the base text, so the diff shows it and nothing else.
    """
    if example.where is None:
        return example.json
    text, spans = base_text(), _spans()
    if example.where in spans:
        start, end = spans[example.where]
        return text[:start] + _shown_value(example, _indent(text, start)) + text[end:]
    parent, _, token = example.where.rpartition("/")
    start, end = spans[parent]  # a KeyError here is a mistake in a rule's example, found by the example tests
    closing = end - 1
    last = len(text[:closing].rstrip())  # the end of the last member or item
    inner = _indent(text, closing) + "  "
    key = token.replace("~1", "/").replace("~0", "~")
    name = "" if text[start] == "[" else json.dumps(key, ensure_ascii=False) + ": "
    comma = "" if text[last - 1] in "[{" else ","
    return text[:last] + f"{comma}\n{inner}{name}{_shown_value(example, inner)}" + text[last:]


def example_diff(example: Example, context: int = 2) -> list[str]:
    """The example as a unified diff against the base file (``base.json``), ``context`` lines around the change.

    The example changes one place, so the diff is one hunk: the lines between
    the common beginning and the common end of the two texts.
    """
    old, new = base_text().splitlines(), example_document(example).splitlines()
    if old == new:
        return []
    head, tail = common_ends(old, new)
    first = max(head - context, 0)
    old_end, new_end = len(old) - tail, len(new) - tail
    after = min(tail, context)
    before = old[first:head]
    lines = [
        "--- base.json",
        "+++ example.json",
        f"@@ -{_range(first, old_end + after - first)} +{_range(first, new_end + after - first)} @@",
        *(f" {line}" for line in before),
        *(f"-{line}" for line in old[head:old_end]),
        *(f"+{line}" for line in new[head:new_end]),
        *(f" {line}" for line in old[old_end : old_end + after]),
    ]
    return lines


def _range(start: int, count: int) -> str:
    """A hunk's range as unified diffs write it: 1-based start, count (the line before, for no lines)."""
    return f"{start + 1},{count}" if count else f"{start},0"
