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

The schema means what JSON Schema means: a ``pattern`` is an ECMA-262
regular expression (2020-12, §6.3.3), so ``$`` is the end of the string and a
digest followed by a newline does not match ``^[0-9a-f]{64}$``; an integer
is an integer at any length, and ``1.0`` is the integer 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.schema.schema_errors import describe_errors

if TYPE_CHECKING:
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
    """The compiled validator, built once with an offline registry: the plain twin of :func:`fast_validator`."""
    from referencing import Registry, Resource

    from mechlint.resources import schema
    from mechlint.schema.ecmavalidator import validator_class

    contents = schema(SCHEMA_NAME)
    resource = Resource.from_contents(contents)
    registry: Registry[Any] = Registry().with_resource(contents["$id"], resource)
    found: Validator = validator_class()(contents, registry=registry)
    return found


def fast_validator() -> Callable[[Any], bool] | None:
    """The mechanism schema compiled to Python (see :mod:`mechlint.schema.fastschema`); ``None`` if it cannot be.

    Its "valid" is :func:`validator`'s "no error" (``tests/test_fastschema.py`` holds them equal); a valid
    file, the common case, is checked without importing jsonschema.
    """
    from mechlint.schema.fastschema import shipped

    return shipped(SCHEMA_NAME)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    fast = fast_validator()
    if fast is not None and fast(document.data):
        return  # valid: jsonschema, and its import, are only needed to explain errors
    yield from describe_errors(validator().iter_errors(document.data), META.id)
