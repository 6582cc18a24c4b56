"""Reports each way the document breaks the mechanism JSON Schema.

The schema is ``schemas/mechanism.schema.json`` (draft 2020-12). Each distinct
problem is one finding, phrased for a person: a missing key, an unknown key
(extensions must start with ``x-``), a value of the wrong type or shape. The
finding points at the value that is wrong, at the unknown key, or at the
object that lacks a key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from mechlint.document import Document
from mechlint.jsonscan import escape_token, pointer_join
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import quote, readable_path

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
    seen: set[tuple[str, str]] = set()
    for error in validator().iter_errors(document.data):
        for finding in describe_error(error):
            key = (finding.pointer, finding.message)
            if key not in seen:
                seen.add(key)
                yield finding


def describe_error(error: ValidationError) -> Iterator[Finding]:
    """One validator error as findings phrased for a person."""
    pointer = _pointer(error.absolute_path)
    where = readable_path(pointer)
    schema = error.schema if isinstance(error.schema, dict) else {}
    expect = schema.get("x-expect")
    kind = error.validator
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        key_pointer = pointer_join(pointer, error.instance)
        yield META.finding(
            key_pointer,
            f"the key {quote(error.instance)} in {where} must be {expect or 'a valid key'}",
            on_key=True,
        )
    elif kind == "required" and isinstance(error.instance, dict) and isinstance(error.validator_value, list):
        for name in error.validator_value:
            if name not in error.instance:
                yield META.finding(pointer, f"{where} is missing the required key {quote(name)}")
    elif kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        for name in error.instance:
            if name in allowed or any(re.search(pattern, name) for pattern in patterns):
                continue
            hint = f"; allowed keys are {', '.join(allowed)}" if allowed else ""
            yield META.finding(
                pointer_join(pointer, name),
                f'{where} has an unknown key {quote(name)}{hint} (extension keys must start with "x-")',
                on_key=True,
            )
    elif expect:
        yield META.finding(pointer, f"{where} must be {expect}; got {quote(error.instance)}")
    else:
        yield META.finding(pointer, f"{where} does not satisfy the schema keyword {quote(str(kind))}")
