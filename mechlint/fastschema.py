"""A JSON Schema subset compiled into plain Python closures, for the common case: a valid file.

``compile_schema(schema)`` returns a function ``instance -> bool`` that says
whether the instance is valid, with the same semantics as jsonschema's
Draft 2020-12 validator for the keywords it supports (types as jsonschema
sees them, ``pattern`` with Python's ``re.search``). A schema that uses any
other keyword raises :class:`Unsupported`, and the caller then always uses
jsonschema. Only a *valid* answer is ever trusted on its own: when the
closure says "invalid", jsonschema runs to say why.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "$schema", "$id", "$defs"})


class Unsupported(Exception):
    """The schema uses a keyword this compiler does not know."""


def _type_check(name: str) -> Check:
    checks: dict[str, Check] = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "integer": lambda v: (
            (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
        ),
    }
    if name not in checks:
        raise Unsupported(f"type {name!r}")
    return checks[name]


class _Compiler:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def ref(self, target: str) -> Check:
        if not target.startswith("#/$defs/") or "/" in target[len("#/$defs/") :]:
            raise Unsupported(f"$ref {target!r}")
        if target not in self.refs:
            name = target[len("#/$defs/") :]
            definitions = self.root.get("$defs", {})
            if name not in definitions:
                raise Unsupported(f"$ref to a missing definition {target!r}")
            holder: list[Check] = []
            self.refs[target] = lambda v: holder[0](v)
            holder.append(self.compile(definitions[name]))
        return self.refs[target]

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise Unsupported("a schema that is not an object or a boolean")
        checks: list[Check] = []
        for keyword, value in schema.items():
            if keyword in ANNOTATIONS or keyword.startswith("x-"):
                continue
            if keyword in ("properties", "patternProperties", "additionalProperties"):
                continue  # compiled together below
            checks.append(self.keyword(keyword, value, schema))
        if any(k in schema for k in ("properties", "patternProperties", "additionalProperties")):
            checks.append(self.object_members(schema))
        if not checks:
            return lambda v: True
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(check(v) for check in checks)

    def keyword(self, keyword: str, value: Any, schema: dict[str, Any]) -> Check:
        if keyword == "$ref":
            return self.ref(value)
        if keyword == "type":
            names = value if isinstance(value, list) else [value]
            types = [_type_check(name) for name in names]
            return lambda v: any(t(v) for t in types)
        if keyword == "enum":
            return lambda v: any(_equal(v, option) for option in value)
        if keyword == "const":
            return lambda v: _equal(v, value)
        if keyword == "required":
            names = list(value)
            return lambda v: not isinstance(v, dict) or all(name in v for name in names)
        if keyword == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= value
        if keyword == "maxItems":
            return lambda v: not isinstance(v, list) or len(v) <= value
        if keyword == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= value
        if keyword == "maxLength":
            return lambda v: not isinstance(v, str) or len(v) <= value
        if keyword == "pattern":
            regex = re.compile(value)
            return lambda v: not isinstance(v, str) or regex.search(v) is not None
        if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            return _bound(keyword, value)
        if keyword == "items":
            item = self.compile(value)
            return lambda v: not isinstance(v, list) or all(item(i) for i in v)
        if keyword == "propertyNames":
            name_check = self.compile(value)
            return lambda v: not isinstance(v, dict) or all(name_check(k) for k in v)
        raise Unsupported(f"keyword {keyword!r}")

    def object_members(self, schema: dict[str, Any]) -> Check:
        properties = {name: self.compile(sub) for name, sub in schema.get("properties", {}).items()}
        patterns = [(re.compile(p), self.compile(sub)) for p, sub in schema.get("patternProperties", {}).items()]
        extra = self.compile(schema["additionalProperties"]) if "additionalProperties" in schema else None

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            for name, item in v.items():
                known = name in properties
                if known and not properties[name](item):
                    return False
                matched = False
                for regex, sub in patterns:
                    if regex.search(name):
                        matched = True
                        if not sub(item):
                            return False
                if not known and not matched and extra is not None and not extra(item):
                    return False
            return True

        return check


def _bound(keyword: str, limit: Any) -> Check:
    def numeric(v: Any) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if keyword == "minimum":
        return lambda v: not numeric(v) or v >= limit
    if keyword == "maximum":
        return lambda v: not numeric(v) or v <= limit
    if keyword == "exclusiveMinimum":
        return lambda v: not numeric(v) or v > limit
    return lambda v: not numeric(v) or v < limit


def _equal(a: Any, b: Any) -> bool:
    """JSON equality as jsonschema sees it: booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) in (type(b), int, float) and type(b) in (type(a), int, float)


def compile_schema(schema: dict[str, Any]) -> Check:
    """The closure for ``schema``; :class:`Unsupported` if it uses keywords this module does not know."""
    return _Compiler(schema).compile(schema)
