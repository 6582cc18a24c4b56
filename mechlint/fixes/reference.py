"""Fixes of the ``reference/`` rules: ids, entries in the wrong list, typos of target keys, unused entries."""

from __future__ import annotations

import json

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import as_object, quote, scenarios, step_entries, strings, targets
from mechlint.fixes.edits import (
    Change,
    append_element,
    encode_string,
    insert_member_after,
    make_fix,
    remove_element,
    remove_member,
    replace_in_string,
)
from mechlint.model import Finding, Fix
from mechlint.rules import RuleContext

__all__ = ["id_mismatch", "kind_mismatch", "unknown_target", "unselected_active", "unused_target"]

_OTHER = {"active": "paths", "paths": "active"}


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _value_at(document: Document, pointer: str) -> object:
    value: object = document.data
    for token in pointer.split("/")[1:]:
        name = _unescape(token)
        if isinstance(value, dict) and name in value:
            value = value[name]
        elif isinstance(value, list) and name.isdigit() and int(name) < len(value):
            value = value[int(name)]
        else:
            return None
    return value


def id_mismatch(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Safe: the id becomes the prefix and the key, when the key is well-formed (no rename is needed) and the id
    does not name a target the steps use but ``targets`` lacks (then the key may be the typo)."""
    prefix = str(context.options.get("prefix", "mechanism-"))
    target_pointer = finding.pointer.rpartition("/")[0]
    key = _unescape(target_pointer.rpartition("/")[2])
    current = _value_at(document, finding.pointer)
    if not isinstance(current, str) or "no id can follow its key" in finding.message:
        return None
    named = {name for _, entries in step_entries(document) for _, name, _ in entries}
    if current.startswith(prefix) and current[len(prefix) :] in named - set(targets(document.data)):
        return None
    wanted = prefix + key
    change = replace_in_string(document, finding.pointer, 0, len(current), wanted)
    return make_fix(document, "safe", f"Set the id to {quote(wanted)}", [change])


def kind_mismatch(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Safe: the entry moves to the step's other list (``active`` ↔ ``paths``); added at its end, or as a new
    member after the list it leaves when the step has none."""
    list_pointer, _, _ = finding.pointer.rpartition("/")
    step_pointer, _, field_name = list_pointer.rpartition("/")
    key = _value_at(document, finding.pointer)
    step = as_object(_value_at(document, step_pointer))
    if field_name not in _OTHER or not isinstance(key, str) or step is None:
        return None
    other = _OTHER[field_name]
    removal = remove_element(document, finding.pointer)
    if other in step:
        if not isinstance(step[other], list):
            return None
        if key in step[other]:
            return make_fix(document, "safe", f"Remove {quote(key)} from {field_name}", [removal])
        addition = append_element(document, pointer_join(step_pointer, other), encode_string(key))
    else:
        addition = insert_member_after(document, list_pointer, other, f"[{encode_string(key)}]")
    return make_fix(document, "safe", f"Move {quote(key)} from {field_name} to {other}", [removal, addition])


def unknown_target(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: an entry naming an unknown key becomes the one close key the message suggests; a key of
    ``targets`` that is a typo of the name every step uses is renamed to that name."""
    from mechlint.rules.reference.unknown_target import mistyped_keys
    from mechlint.text.lookalike import closest

    known = targets(document.data)
    if finding.on_key:
        key = _unescape(finding.pointer.rpartition("/")[2])
        meant = mistyped_keys(document).get(key)
        span = document.scan().keys.get(finding.pointer)
        if meant is None or span is None:
            return None
        renamed = Change(span[0], span[1], encode_string(meant))
        return make_fix(document, "unsafe", f"Rename the target {quote(key)} to {quote(meant)}", [renamed])
    name = _value_at(document, finding.pointer)
    if not isinstance(name, str) or name in known:
        return None
    match = closest(name, list(known))
    if match is None or not _clearly(name, match, list(known)):
        return None
    change = replace_in_string(document, finding.pointer, 0, len(name), match)
    return make_fix(document, "unsafe", f"Change {quote(name)} to {quote(match)}", [change])


def _clearly(name: str, match: str, known: list[str]) -> bool:
    """Whether ``match`` is the one key ``name`` is a typo of: the only one equal but for case, or nearer than
    every other key (``store0`` for ``stroe0`` and ``store1`` alike is no fix)."""
    from mechlint.text.lookalike import edit_distance

    folded = [key for key in known if key.lower() == name.lower()]
    if folded:
        return folded == [match]
    best = edit_distance(name, match)
    return all(edit_distance(name, key) > best for key in known if key != match)


def unselected_active(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: a target the scenario unselects but lights in one step only leaves that step; lit in several
    steps, it leaves ``unselected`` (the steps say the scenario does select it)."""
    key = _value_at(document, finding.pointer)
    if not isinstance(key, str):
        return None
    for _, scenario, pointer in scenarios(document.data):
        if not finding.pointer.startswith(pointer + "/"):
            continue
        lit = [p for step_pointer, entries in step_entries(document) for _, name, p in entries if name == key]
        lit = [p for p in lit if p.startswith(pointer + "/")]
        if len(lit) == 1:
            return make_fix(
                document, "unsafe", f"Remove {quote(key)} from this step", [remove_element(document, lit[0])]
            )
        listed = [p for _, name, p in strings(scenario.get("unselected"), pointer_join(pointer, "unselected"))]
        listed = [p for p in listed if _value_at(document, p) == key]
        if len(listed) != 1:
            return None
        return make_fix(
            document, "unsafe", f"Remove {quote(key)} from unselected", [remove_element(document, listed[0])]
        )
    return None


def unused_target(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: a target no step lights, no scenario unselects and no state names is removed from ``targets``,
    when every name the steps and scenarios use is a key of ``targets`` (else the unused key may be the one a
    typo meant)."""
    key = _unescape(finding.pointer.rpartition("/")[2])
    known = (as_object(document.data) or {}).get("targets")
    if (
        not isinstance(known, dict)
        or key not in known
        or _named_elsewhere(document, key)
        or document.derived(_names_unknown)
    ):
        return None
    return make_fix(
        document, "unsafe", f"Remove the unused target {quote(key)}", [remove_member(document, finding.pointer)]
    )


def _names_unknown(document: Document) -> bool:
    """Whether a step or a scenario's ``unselected`` names a key that ``targets`` lacks."""
    known = targets(document.data)
    if any(name not in known for _, entries in step_entries(document) for _, name, _ in entries):
        return True
    return any(
        name not in known
        for _, scenario, pointer in scenarios(document.data)
        for _, name, _ in strings(scenario.get("unselected"), pointer + "/unselected")
    )


def _named_elsewhere(document: Document, key: str) -> bool:
    """Whether anything but its own member names ``key``: a scenario's ``unselected``, or a state."""
    for _, scenario, pointer in scenarios(document.data):
        if any(name == key for _, name, _ in strings(scenario.get("unselected"), pointer + "/unselected")):
            return True
    return f'"{key}"' in document.derived(_outside_targets)


def _outside_targets(document: Document) -> str:
    """The document but its ``targets``, as compact JSON: where a target's key may be named."""
    root = as_object(document.data) or {}
    return json.dumps({name: value for name, value in root.items() if name != "targets"}, ensure_ascii=False)
