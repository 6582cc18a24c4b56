"""Reports text that is still a placeholder, and says what to write there.

``mechlint new`` writes a mechanism with placeholders (``"TODO: the title,
one line"``) for the author to fill in. A string value anywhere in the file
(except ``$schema`` and ``x-`` extensions) that holds the word ``TODO``,
``FIXME`` or ``TBD`` in capitals is a placeholder. The message names the
place and what belongs there, from the description of that key in the
mechanism schema. Other rules leave a placeholder alone: prose rules do not
read it and provenance rules do not resolve a placeholder source path, so
an unwritten string is one finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.placeholder import content_member, is_placeholder
from mechlint.document.views import quote, readable_path
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="schema/placeholder",
    level=Level.ERROR,
    summary="Text is still a placeholder (`TODO: …`) that the author has to write.",
    why=(
        "A placeholder that reaches readers is a visible mistake, and a screen reader reads it aloud. "
        "`mechlint new` writes one wherever the author has something to write, and this rule lists what is left."
    ),
    location="the placeholder string",
    examples=(
        Example(fires=True, where="/title", json='"TODO: the title, one line"', note="written by mechlint new"),
        Example(fires=True, where="/alt", json='"Two blocks are kept. FIXME say how"'),
        Example(fires=False, where="/title", json='"Keep the two full blocks"'),
        Example(fires=False, where="/description", json='"The scheduler reads its todo list."'),
    ),
)


#: A marker, or a ``\\u`` escape that could spell one: only then are the strings walked.
_MARKER_BYTES = (b"TODO", b"FIXME", b"TBD", b"\\u")


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    raw = document.raw
    if not any(marker in raw for marker in _MARKER_BYTES):
        return  # no marker in the file, not even written with escapes: no string to walk
    for pointer, text in _strings(document.data, ""):
        if is_placeholder(text):
            what = describe(pointer)
            yield META.finding(
                pointer,
                f"{readable_path(pointer)} is still a placeholder ({quote(text)}); write {_name(pointer)}"
                + (f": {lower_first(what)}" if what else ""),
            )


def _name(pointer: str) -> str:
    """What a person calls the string at ``pointer``: "the description", "the value of the state stage"."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]] or [""]
    last, parent = tokens[-1], (tokens[-2] if len(tokens) > 1 else "")
    if last.isdigit():
        return "the limitation" if parent == "limitations" else "it"
    if parent == "stateLabels":
        return f"the label of the state {quote(last)}"
    if parent in ("initial", "state"):
        return f"the {'first ' if parent == 'initial' else ''}value of the state {quote(last)}"
    return f"the {last}" if last else "it"


def lower_first(text: str) -> str:
    """``The title.`` → ``the title.``, ``A slug`` → ``a slug``; an acronym (``BCP 47``) keeps its capitals."""
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def _strings(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, pointer_join(pointer, index))
    elif isinstance(value, dict):
        for name, item in value.items():
            if isinstance(name, str) and content_member(name):
                yield from _strings(item, pointer_join(pointer, name))


def describe(pointer: str) -> str:
    """What belongs at ``pointer``: the description of the deepest schema node that has one."""
    return _describe(tuple(pointer.split("/")[1:]))


@cache
def _describe(tokens: tuple[str, ...]) -> str:
    from mechlint.resources import schema
    from mechlint.rules.schema.violation import SCHEMA_NAME

    root = schema(SCHEMA_NAME)
    node: Any = root
    found = str(root.get("description", ""))
    for token in tokens:
        node = _resolve(root, node)
        if not isinstance(node, dict):
            break
        if token in node.get("properties", {}):
            node = node["properties"][token]
        elif "items" in node and token.isdigit():
            node = node["items"]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            break
        described = _resolve(root, node)
        for candidate in (node, described):
            if isinstance(candidate, dict) and isinstance(candidate.get("description"), str):
                found = candidate["description"]
                break
    return found


def _resolve(root: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
        node = root.get("$defs", {}).get(node["$ref"][len("#/$defs/") :])
    return node
