"""JSON Schema errors phrased for a person: one finding per mistake, under the rule id given.

Used by ``schema/violation`` for mechanism files and by
:func:`mechlint.schema.datafile.check_schema` for configuration and rule files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

from mechlint.document.jsonscan import escape_token, pointer_join
from mechlint.document.views import is_key, quote, readable_path
from mechlint.model import Finding
from mechlint.text.lookalike import closest, explain, odd_characters, skeleton

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

__all__ = ["describe_error", "describe_errors"]


def _finding(rule_id: str, pointer: str, message: str, **extra: Any) -> Finding:
    return Finding(rule_id, message, pointer=pointer, **extra)


def _pointer(path: Any) -> str:
    return "".join("/" + escape_token(str(token)) for token in path)


def describe_errors(errors: Iterable[ValidationError], rule_id: str) -> Iterator[Finding]:
    """All the validator's errors as findings phrased for a person, one per mistake.

    The missing and the unknown keys of one object are judged together: an
    unknown key that is a misspelling of a missing one is one finding, at
    the unknown key; the missing keys left are one finding, at the object;
    an object that has none of its keys is one finding that lists them.
    """
    seen: set[tuple[str, str]] = set()
    members: dict[str, list[ValidationError]] = {}
    rest: list[ValidationError] = []
    for error in errors:
        if (
            error.validator in ("required", "additionalProperties")
            and isinstance(error.instance, dict)
            and "propertyNames" not in error.relative_schema_path
        ):
            members.setdefault(_pointer(error.absolute_path), []).append(error)
        else:
            rest.append(error)
    found = chain(
        chain.from_iterable(_describe_members(pointer, group, rule_id) for pointer, group in members.items()),
        chain.from_iterable(describe_error(error, rule_id) for error in rest),
    )
    for finding in found:
        key = (finding.pointer, finding.message)
        if key not in seen:
            seen.add(key)
            yield finding


def _describe_members(pointer: str, errors: list[ValidationError], rule_id: str) -> Iterator[Finding]:
    """The missing and unknown keys of the object at ``pointer``, as few findings as the mistakes."""
    instance = errors[0].instance
    assert isinstance(instance, dict)
    schema = errors[0].schema if isinstance(errors[0].schema, dict) else {}
    where = readable_path(pointer)
    allowed = sorted(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    required = [name for e in errors if e.validator == "required" for name in _listed(e.validator_value)]
    missing = list(dict.fromkeys(name for name in required if isinstance(name, str) and name not in instance))
    unknown: list[str] = []
    if any(e.validator == "additionalProperties" for e in errors):
        unknown = [name for name in instance if name not in allowed and not any(re.search(p, name) for p in patterns)]
    what = schema.get("x-name", "object")
    # "$schema" only tells editors which schema to use: alone, it does not make an object a mechanism
    content = [name for name in allowed if not name.startswith("$")]
    if missing and not any(name in instance for name in content) and len(missing) > 1:
        extra = f"; it has only {_names(unknown)}, which a {what} does not take" if unknown else ""
        yield _finding(
            rule_id,
            pointer,
            f"{where} is not a {what}: it has none of the required keys {_names(missing)}{extra}",
        )
        return
    for name in unknown:
        meant = closest(name, missing)
        if meant is not None:
            missing.remove(meant)
            alike = explain(name, meant)
            yield _finding(
                rule_id,
                pointer_join(pointer, name),
                f"{where} has an unknown key {quote(name)}; "
                + (f"{alike}, and {quote(meant)} is missing" if alike else f"did you mean {quote(meant)}?"),
                on_key=True,
            )
            continue
        absent = [key for key in allowed if key not in instance]
        near = closest(name, absent)
        if near is not None:
            hint = f"; did you mean {quote(near)}?" + (f" ({alike})" if (alike := explain(name, near)) else "")
        else:
            hint = f"; allowed keys are {', '.join(allowed)}" if allowed else ""
        yield _finding(
            rule_id,
            pointer_join(pointer, name),
            f'{where} has an unknown key {quote(name)}{hint} (extension keys must start with "x-")',
            on_key=True,
        )
    if len(missing) == 1:
        yield _finding(rule_id, pointer, f"{where} is missing the required key {quote(missing[0])}")
    elif missing:
        yield _finding(rule_id, pointer, f"{where} is missing the required keys {_names(missing)}")


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _names(names: list[str], limit: int = 12) -> str:
    """``"a", "b" and "c"``; past ``limit`` names, the first ones and how many more."""
    quoted = [quote(name) for name in names[:limit]]
    if len(names) > limit:
        return f"{', '.join(quoted)} and {len(names) - limit} more"
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def describe_error(error: ValidationError, rule_id: str) -> Iterator[Finding]:
    """One validator error as findings phrased for a person (see :func:`describe_errors` for a whole list)."""
    pointer = _pointer(error.absolute_path)
    where = readable_path(pointer)
    schema = error.schema if isinstance(error.schema, dict) else {}
    expect = schema.get("x-expect")
    kind = error.validator
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        key_pointer = pointer_join(pointer, error.instance)
        odd = odd_characters(error.instance)
        fixed = skeleton(error.instance).lower()
        hint = f"; did you mean {quote(fixed)}?" if fixed != error.instance and is_key(fixed) else ""
        yield _finding(
            rule_id,
            key_pointer,
            f"the key {quote(error.instance)} in {where} must be {expect or 'a valid key'}"
            + (f"; it has {', '.join(odd[:3])}" if odd else "")
            + hint,
            on_key=True,
        )
    elif kind in ("required", "additionalProperties") and isinstance(error.instance, dict):
        yield from _describe_members(pointer, [error], rule_id)
    elif expect:
        odd = odd_characters(error.instance) if kind == "pattern" and isinstance(error.instance, str) else []
        yield _finding(
            rule_id,
            pointer,
            f"{where} must be {expect}; got {quote(error.instance)}"
            + (f", which has {', '.join(odd[:3])}" if odd else ""),
        )
    else:
        yield _finding(rule_id, pointer, f"{where} does not satisfy the schema keyword {quote(str(kind))}")
