"""Defensive views over a parsed mechanism document.

Rules run even when the schema found problems, so they must never assume a
type. These helpers yield only the parts that have the expected shape,
together with the JSON pointer of each; anything else is the schema's to
report.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from mechlint.document.jsonscan import digit_count, pointer_join

if TYPE_CHECKING:
    from mechlint.document import Document


def as_object(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def members(value: Any, pointer: str) -> Iterator[tuple[str, Any, str]]:
    """``(key, value, pointer)`` of each member of an object."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item, pointer_join(pointer, key)


def items(value: Any, pointer: str) -> Iterator[tuple[int, Any, str]]:
    """``(index, value, pointer)`` of each element of an array."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield index, item, pointer_join(pointer, index)


def strings(value: Any, pointer: str) -> Iterator[tuple[int, str, str]]:
    """``(index, string, pointer)`` of each string element of an array."""
    for index, item, item_pointer in items(value, pointer):
        if isinstance(item, str):
            yield index, item, item_pointer


def targets(data: Any) -> dict[str, dict[str, Any]]:
    """The targets that are objects, by key; empty when ``targets`` is malformed."""
    root = as_object(data) or {}
    found = as_object(root.get("targets")) or {}
    return {key: value for key, value in found.items() if isinstance(value, dict)}


def target_kind(target: dict[str, Any]) -> str | None:
    kind = target.get("kind")
    return kind if isinstance(kind, str) else None


def scenarios(data: Any) -> Iterator[tuple[int, dict[str, Any], str]]:
    root = as_object(data) or {}
    for index, scenario, pointer in items(root.get("scenarios"), "/scenarios"):
        if isinstance(scenario, dict):
            yield index, scenario, pointer


def steps(scenario: dict[str, Any], pointer: str) -> Iterator[tuple[int, dict[str, Any], str]]:
    for index, step, step_pointer in items(scenario.get("steps"), pointer_join(pointer, "steps")):
        if isinstance(step, dict):
            yield index, step, step_pointer


def all_steps(data: Any) -> Iterator[tuple[int, int, dict[str, Any], str]]:
    """``(scenario index, step index, step, pointer)`` of every step."""
    for scenario_index, scenario, pointer in scenarios(data):
        for step_index, step, step_pointer in steps(scenario, pointer):
            yield scenario_index, step_index, step, step_pointer


def lit_entries(step: dict[str, Any], pointer: str) -> Iterator[tuple[str, str, str]]:
    """``(field, key, pointer)`` for each string in a step's ``active`` and ``paths``."""
    for field_name in ("active", "paths"):
        for _, key, item_pointer in strings(step.get(field_name), pointer_join(pointer, field_name)):
            yield field_name, key, item_pointer


def step_entries(document: Document) -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    """For every step of every scenario: its pointer and its ``lit_entries``; computed once a document."""
    return document.derived(_step_entries)


def _step_entries(document: Document) -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    return tuple((pointer, tuple(lit_entries(step, pointer))) for *_, step, pointer in all_steps(document.data))


def quote(value: Any, limit: int = 60) -> str:
    """A user's value, safe to put in a message: escaped, quoted and shortened."""
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 1] + "…"
        if text.isprintable():
            return f'"{text}"'
        escaped = "".join(
            char if char.isprintable() or char == " " else char.encode("unicode_escape").decode("ascii")
            for char in text
        )
        return f'"{escaped}"'
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, int):
        if value.bit_length() > 4 * limit:  # str() of a huge integer is slow, and refused past 4,300 digits
            return f"a {digit_count(value)}-digit number"
        text = str(value)
        return text if len(text) <= limit else f"a {len(text)}-digit number"
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "a number too large to represent"
    if isinstance(value, list):
        return f"an array of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def readable_path(pointer: str) -> str:
    """``/scenarios/0/steps/2/duration`` as ``scenarios[0].steps[2].duration``."""
    if not pointer:
        return "the document"
    out = ""
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if token.isdigit():
            out += f"[{token}]"
        elif token.replace("_", "a").replace("-", "a").isalnum() and token.isascii():
            out += f".{token}" if out else token
        else:
            out += f"[{quote(token)}]"
    return out


def is_key(name: str) -> bool:
    """Whether ``name`` is a well-formed target or state key (the schema's ``key``: ``a0``, ``store-1``)."""
    return name[:1].isascii() and name[:1].islower() and all(c in _KEY_CHARACTERS for c in name[1:])


_KEY_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def steps_are_whole(data: Any) -> bool:
    """Whether every scenario has a list of steps, and every step lists its targets as arrays of strings.

    When not, the schema reports the broken part, and a verdict about which
    targets the steps use would be a guess.
    """
    root = as_object(data) or {}
    all_scenarios = root.get("scenarios")
    if not isinstance(all_scenarios, list) or not all_scenarios:
        return False
    for scenario in all_scenarios:
        step_list = scenario.get("steps") if isinstance(scenario, dict) else None
        if not isinstance(step_list, list) or not step_list:
            return False
        for step in step_list:
            if not isinstance(step, dict):
                return False
            for field_name in ("active", "paths"):
                value = step.get(field_name, [])
                if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                    return False
    return True
