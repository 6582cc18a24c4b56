"""A JSON Schema subset compiled into Python source, for the common case: a valid file.

``compile_schema(schema)`` returns a function ``instance -> bool`` that says
whether the instance is valid, with the same semantics as jsonschema's
Draft 2020-12 validator for the keywords it supports (types as jsonschema
sees them, ``pattern`` as ECMA-262 means it, translated by
:mod:`mechlint.schema.ecmaregex`; a pattern it cannot translate, such as one with
``\\p{…}``, makes the schema unsupported). Each subschema becomes
one small Python function, generated once per run and executed by the
interpreter like hand-written code. A schema that uses any other keyword
raises :class:`Unsupported`, and the caller then always uses jsonschema.
Only a *valid* answer is ever trusted on its own: when the function says
"invalid", jsonschema runs to say why. The callers, where the plain twin
(jsonschema) sits beside it: :func:`mechlint.rules.schema.violation.fast_validator`
and :func:`mechlint.schema.datafile.check_schema`. ``tests/test_fastschema.py`` holds the
two equal on generated documents, for every shipped schema;
``benchmarks/fast_paths.py`` measures what it saves (per file and at start-up).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cache
from typing import Any

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset(
    {"title", "description", "markdownDescription", "$comment", "examples", "default", "$schema", "$id", "$defs"}
)
_TYPES = {
    "object": "isinstance(v, dict)",
    "array": "isinstance(v, list)",
    "string": "isinstance(v, str)",
    "boolean": "isinstance(v, bool)",
    "null": "v is None",
    "number": "(isinstance(v, (int, float)) and not isinstance(v, bool))",
    "integer": "((isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()))",
}
_BOUNDS = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<=", "exclusiveMaximum": ">="}
_SIZES = {
    "minItems": ("list", "<"),
    "maxItems": ("list", ">"),
    "minLength": ("str", "<"),
    "maxLength": ("str", ">"),
}


class Unsupported(Exception):
    """The schema uses a keyword this compiler does not know."""


def _equal(a: Any, b: Any) -> bool:
    """JSON equality as jsonschema sees it: booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) in (type(b), int, float) and type(b) in (type(a), int, float)


class _Generator:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.source: list[str] = []
        #: name → value: a JSON value, a frozenset of strings, a compiled pattern, or (a table) a dict of function names
        self.constants: dict[str, Any] = {}
        self.refs: dict[str, str] = {}
        self.tables: list[str] = []
        self.count = 0

    def constant(self, value: Any) -> str:
        name = f"c{len(self.constants) + 1}"
        self.constants[name] = value
        return name

    def ref(self, target: str) -> str:
        prefix = "#/$defs/"
        if not target.startswith(prefix) or "/" in target[len(prefix) :]:
            raise Unsupported(f"$ref {target!r}")
        if target not in self.refs:
            definitions = self.root.get("$defs", {})
            if target[len(prefix) :] not in definitions:
                raise Unsupported(f"$ref to a missing definition {target!r}")
            self.refs[target] = f"s{self.count}"  # reserved before compiling, so recursion works
            self.compile(definitions[target[len(prefix) :]], self.refs[target])
        return self.refs[target]

    def compile(self, schema: Any, name: str | None = None) -> str:
        if name is None:
            name = f"s{self.count}"
        self.count += 1
        body: list[str] = []
        if schema is False:
            body.append("return False")
        elif schema is not True:
            if not isinstance(schema, dict):
                raise Unsupported("a schema that is not an object or a boolean")
            for keyword, value in schema.items():
                if keyword in ANNOTATIONS or keyword.startswith("x-"):
                    continue
                if keyword not in ("properties", "patternProperties", "additionalProperties"):
                    body += self.keyword(keyword, value)
            if any(k in schema for k in ("properties", "patternProperties", "additionalProperties")):
                body += self.members(schema)
        body.append("return True")
        self.source.append(f"def {name}(v):\n" + "".join(f"    {line}\n" for line in body))
        return name

    def keyword(self, keyword: str, value: Any) -> list[str]:
        if keyword == "$ref":
            return [f"if not {self.ref(value)}(v): return False"]
        if keyword == "type":
            names = value if isinstance(value, list) else [value]
            if not all(isinstance(n, str) and n in _TYPES for n in names):
                raise Unsupported(f"type {value!r}")
            return [f"if not ({' or '.join(_TYPES[n] for n in names)}): return False"]
        if keyword == "enum":
            return [f"if not any(_equal(v, o) for o in {self.constant(list(value))}): return False"]
        if keyword == "const":
            return [f"if not _equal(v, {self.constant(value)}): return False"]
        if keyword == "required":
            return [f"if isinstance(v, dict) and not {self.constant(frozenset(value))}.issubset(v): return False"]
        if keyword in _SIZES:
            kind, op = _SIZES[keyword]
            return [f"if isinstance(v, {kind}) and len(v) {op} {int(value)}: return False"]
        if keyword == "pattern":
            return [f"if isinstance(v, str) and {self.constant(_regex(value))}.search(v) is None: return False"]
        if keyword in _BOUNDS:
            number = self.constant(value)
            return [
                "if isinstance(v, (int, float)) and not isinstance(v, bool) "
                f"and v {_BOUNDS[keyword]} {number}: return False"
            ]
        if keyword == "items":
            item = self.compile(value)
            return ["if isinstance(v, list):", "    for i in v:", f"        if not {item}(i): return False"]
        if keyword == "propertyNames":
            check = self.compile(value)
            return ["if isinstance(v, dict):", "    for k in v:", f"        if not {check}(k): return False"]
        raise Unsupported(f"keyword {keyword!r}")

    def members(self, schema: dict[str, Any]) -> list[str]:
        properties = {key: self.compile(sub) for key, sub in schema.get("properties", {}).items()}
        patterns = [(_regex(p), self.compile(sub)) for p, sub in schema.get("patternProperties", {}).items()]
        extra = self.compile(schema["additionalProperties"]) if "additionalProperties" in schema else None
        table = self.constant(properties)
        self.tables.append(table)
        lines = ["if isinstance(v, dict):", "    for k, i in v.items():", f"        p = {table}.get(k)"]
        lines.append("        if p is not None and not p(i): return False")
        lines.append("        m = False")
        for regex, check in patterns:
            lines.append(f"        if {self.constant(regex)}.search(k):")
            lines.append("            m = True")
            lines.append(f"            if not {check}(i): return False")
        if extra is not None:
            lines.append(f"        if p is None and not m and not {extra}(i): return False")
        return lines


def _regex(pattern: Any) -> re.Pattern[str]:
    """An ECMA-262 ``pattern`` compiled with its meaning; :class:`Unsupported` when it cannot be."""
    from mechlint.schema.ecmaregex import UnsupportedPattern, translate

    if not isinstance(pattern, str):
        raise Unsupported(f"the pattern {pattern!r}")
    try:
        return re.compile(translate(pattern))
    except (UnsupportedPattern, re.error) as error:
        raise Unsupported(str(error)) from None


def _literal(value: Any) -> str:
    """Python source for a constant: a JSON value, a frozenset of strings or a compiled pattern."""
    if isinstance(value, re.Pattern):
        return f"re.compile({value.pattern!r})"
    if isinstance(value, frozenset):
        return f"frozenset({sorted(value)!r})"
    if isinstance(value, float) and not math.isfinite(value):
        raise Unsupported(f"the number {value!r}")
    if isinstance(value, list):
        return "[" + ", ".join(map(_literal, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_literal(item)}" for key, item in value.items()) + "}"
    return repr(value)


def module_source(schema: dict[str, Any]) -> str:
    """The source of a module whose ``check`` is the function for ``schema``; :class:`Unsupported` as below.

    :func:`compile_schema` runs this text; ``python -m mechlint.authoring.prebuild``
    ships the text of the mechanism schema as a module, so a run imports it
    (bytecode cached) instead (``tests/test_prebuild.py`` holds the two equal).
    """
    generator = _Generator(schema)
    entry = generator.compile(schema)
    lines = ["import re", "", "from mechlint.schema.fastschema import _equal", ""]
    tables = set(generator.tables)
    lines += [f"{name} = {_literal(value)}" for name, value in generator.constants.items() if name not in tables]
    lines += ["", "", *generator.source]
    for table in generator.tables:  # property names → the functions, once they exist
        pairs = ", ".join(f"{key!r}: {function}" for key, function in generator.constants[table].items())
        lines.append(f"{table} = {{{pairs}}}")
    lines.append(f"check = {entry}")
    return "\n".join(lines) + "\n"


def compile_schema(schema: dict[str, Any]) -> Check:
    """The function for ``schema``; :class:`Unsupported` if it uses keywords this module does not know."""
    namespace: dict[str, Any] = {}
    exec(compile(module_source(schema), "<mechlint schema>", "exec"), namespace)
    check: Check = namespace["check"]
    return check


@cache
def shipped(schema_name: str) -> Check | None:
    """A shipped schema (``schemas/``) compiled once; ``None`` when it uses keywords this module does not know.

    The mechanism schema comes prebuilt (:mod:`mechlint.prebuilt`) while the
    shipped file still has the bytes it was built from.
    """
    from mechlint.prebuilt import prebuilt_schema
    from mechlint.resources import schema

    found = prebuilt_schema(schema_name)
    if found is not None:
        return found
    try:
        return compile_schema(schema(schema_name))
    except Unsupported:
        return None
