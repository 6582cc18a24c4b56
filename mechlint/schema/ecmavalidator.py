"""The plain (jsonschema) Draft 2020-12 validator, with ``pattern`` meaning what JSON Schema says.

jsonschema matches ``pattern``, ``patternProperties`` and the patterns that
``additionalProperties`` skips with Python's ``re.search``: a digest
followed by a newline passes ``^[0-9a-f]{64}$``, and a ``\\p{Letter}`` in
a schema raises. :func:`validator_class` is jsonschema's validator with
those three keywords matched by :func:`mechlint.schema.ecmaregex.compile_ecma`
(ECMA-262 semantics, Unicode properties included). A pattern that cannot be
translated is reported as an error of that value naming the pattern, never
as a crash.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from mechlint.schema.ecmaregex import UnsupportedPattern, compile_ecma


def _search(pattern: str, text: str) -> bool:
    return compile_ecma(pattern).search(text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    try:
        matched = _search(pattern, instance)
    except UnsupportedPattern as error:
        yield ValidationError(f"the schema's pattern cannot be checked: {error}")
        return
    if not matched:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _matches_any(patterns: Any, name: str) -> bool:
    return any(_search(pattern, name) for pattern in patterns)


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extras = [key for key in instance if key not in properties and not _matches_any(patterns, key)]
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif not extra and extras:
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            listed = ", ".join(repr(each) for each in sorted(patterns))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {listed}")
        else:
            names = ", ".join(repr(each) for each in sorted(extras, key=str))
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(f"Additional properties are not allowed ({names} {verb} unexpected)")


@cache
def validator_class() -> Any:
    """jsonschema's Draft 2020-12 validator with ECMA-262 patterns."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator,
        {
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
        },
    )
