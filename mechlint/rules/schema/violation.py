"""Reports each way the document breaks the mechanism JSON Schema.

The schema is ``schemas/mechanism.schema.json`` (draft 2020-12). Each distinct
mistake is one finding, phrased for a person: a value of the wrong type or
shape, an unknown key (extensions must start with ``x-``), the keys an object
lacks. A misspelt key (``duraton``) is one finding at that key ("did you mean
duration?"), not also a missing ``duration``; a key that only looks like a
real one (a Cyrillic ``с``, a zero-width space) is named by code point; the
keys one object lacks are one finding; and a document that is not a mechanism
at all (``{"a": 1}``) is one finding that lists what it lacks. The finding
points at the value that is wrong, at the unknown key, or at the object that
lacks a key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from mechlint.document import Document
from mechlint.jsonscan import escape_token, pointer_join
from mechlint.lookalike import closest, explain, odd_characters, skeleton
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import is_key, quote, readable_path

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

SCHEMA_NAME = "mechanism.schema.json"

META = RuleMeta(
    id="schema/violation",
    level=Level.ERROR,
    summary="The document breaks the mechanism JSON Schema.",
    why=(
        "The renderer trusts the shape of the file: a missing key, a string where a number "
        "belongs or a misspelt key that is silently ignored all break the diagram or hide text."
    ),
    location="the failing value, the unknown key, or the object that lacks a key",
    examples=(
        Example(
            fires=True,
            where="/scenarios/0/steps/0/duration",
            json="-5",
            note="a duration must be a positive whole number of milliseconds",
        ),
        Example(fires=True, where="/targets/a0/colour", json='"red"', note="an unknown key"),
        Example(fires=False, where="/targets/a0/x-colour", json='"red"', note="extensions start with x-"),
    ),
)


@cache
def validator() -> Validator:
    """The compiled validator, built once with an offline registry."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    from mechlint.resources import schema

    contents = schema(SCHEMA_NAME)
    resource = Resource.from_contents(contents)
    registry: Registry[Any] = Registry().with_resource(contents["$id"], resource)
    return Draft202012Validator(contents, registry=registry)


def _pointer(path: Any) -> str:
    return "".join("/" + escape_token(str(token)) for token in path)


def fast_validator() -> Callable[[Any], bool] | None:
    """The mechanism schema compiled to Python (see :mod:`mechlint.fastschema`); ``None`` if it cannot be."""
    from mechlint.fastschema import shipped

    return shipped(SCHEMA_NAME)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    fast = fast_validator()
    if fast is not None and fast(document.data):
        return  # valid: jsonschema, and its import, are only needed to explain errors
    yield from describe_errors(validator().iter_errors(document.data))


def describe_errors(errors: Iterable[ValidationError]) -> Iterator[Finding]:
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
        chain.from_iterable(_describe_members(pointer, group) for pointer, group in members.items()),
        chain.from_iterable(map(describe_error, rest)),
    )
    for finding in found:
        key = (finding.pointer, finding.message)
        if key not in seen:
            seen.add(key)
            yield finding


def _describe_members(pointer: str, errors: list[ValidationError]) -> Iterator[Finding]:
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
        yield META.finding(
            pointer,
            f"{where} is not a {what}: it has none of the required keys {_names(missing)}{extra}",
        )
        return
    for name in unknown:
        meant = closest(name, missing)
        if meant is not None:
            missing.remove(meant)
            alike = explain(name, meant)
            yield META.finding(
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
        yield META.finding(
            pointer_join(pointer, name),
            f'{where} has an unknown key {quote(name)}{hint} (extension keys must start with "x-")',
            on_key=True,
        )
    if len(missing) == 1:
        yield META.finding(pointer, f"{where} is missing the required key {quote(missing[0])}")
    elif missing:
        yield META.finding(pointer, f"{where} is missing the required keys {_names(missing)}")


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _names(names: list[str], limit: int = 12) -> str:
    """``"a", "b" and "c"``; past ``limit`` names, the first ones and how many more."""
    quoted = [quote(name) for name in names[:limit]]
    if len(names) > limit:
        return f"{', '.join(quoted)} and {len(names) - limit} more"
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def describe_error(error: ValidationError) -> Iterator[Finding]:
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
        yield META.finding(
            key_pointer,
            f"the key {quote(error.instance)} in {where} must be {expect or 'a valid key'}"
            + (f"; it has {', '.join(odd[:3])}" if odd else "")
            + hint,
            on_key=True,
        )
    elif kind in ("required", "additionalProperties") and isinstance(error.instance, dict):
        yield from _describe_members(pointer, [error])
    elif expect:
        odd = odd_characters(error.instance) if kind == "pattern" and isinstance(error.instance, str) else []
        yield META.finding(
            pointer,
            f"{where} must be {expect}; got {quote(error.instance)}"
            + (f", which has {', '.join(odd[:3])}" if odd else ""),
        )
    else:
        yield META.finding(pointer, f"{where} does not satisfy the schema keyword {quote(str(kind))}")
