"""The rule documentation's examples as whole files: the base document, each example applied to it, and its diff.

A rule's :class:`~mechlint.rules.Example` replaces one value of :data:`BASE`
(a small, clean mechanism; ``docs/rules/base.json`` is its generated copy) or
is a whole file. :func:`example_document` is the file an example stands for:
what the rule pages show (:mod:`mechlint.docs`, as a diff against the base
file) and what ``tests/test_rule_catalogue.py`` runs the rule on, so the two
cannot differ.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from mechlint.rules import Example

__all__ = ["BASE", "PLACEHOLDER", "base_text", "example_diff", "example_document"]

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

#: Stands for the example's value while the base is written out.
PLACEHOLDER = "__mechlint_example__"
#: An example's value is shown on its own lines, indented, when it is longer than this on one line.
_INLINE = 60


def base_text() -> str:
    """The base document as ``docs/rules/base.json`` holds it: indented by two, one key a line."""
    return json.dumps(BASE, indent=2, ensure_ascii=False) + "\n"


def _set(data: Any, pointer: str, value: Any) -> None:
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    for token in tokens[:-1]:
        data = data[int(token)] if isinstance(data, list) else data[token]
    last = tokens[-1]
    if isinstance(data, list):
        index = int(last)
        if index == len(data):
            data.append(value)
        else:
            data[index] = value
    else:
        data[last] = value


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


def example_document(example: Example) -> str:
    """The whole file the example stands for: the base with its value in place, or the example itself."""
    if example.where is None:
        return example.json
    data = json.loads(json.dumps(BASE))
    _set(data, example.where, PLACEHOLDER)
    lines = json.dumps(data, indent=2, ensure_ascii=False).split("\n")
    marker = json.dumps(PLACEHOLDER)
    for number, line in enumerate(lines):
        if marker in line:
            indent = line[: len(line) - len(line.lstrip())]
            lines[number] = line.replace(marker, _shown_value(example, indent))
    return "\n".join(lines) + "\n"


def example_diff(example: Example, context: int = 2) -> list[str]:
    """The example as a unified diff against the base file (``base.json``), ``context`` lines around each change."""
    diff = difflib.unified_diff(
        base_text().splitlines(),
        example_document(example).splitlines(),
        "base.json",
        "example.json",
        n=context,
        lineterm="",
    )
    return list(diff)
