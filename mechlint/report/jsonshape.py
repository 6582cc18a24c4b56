"""The inert indented JSON text of a record, from a template made once for the record's shape.

A report of many findings is a long array of records of a few shapes (a SARIF
result with or without a suppression, a trace of one step or two): the same
keys in the same order, with values of the same kinds. :func:`record_text`
writes such a record as :func:`mechlint.report.jsontext.dumps_inert` would,
at a given indent, from a function compiled for its shape: the keys, braces,
new lines and indents are text fixed once, and only the leaves (strings,
integers, booleans, ``null``) are written, strings by the standard encoder's C
function. The function checks, container by container, that the record still
has the shape it was made for (exact ``dict``/``list``/``tuple``, the same keys
in the same order, the same lengths, exact ``str``/``int``/``bool``/``None``
leaves) and gives ``None`` when it has not; the caller then writes the record
with the generic walk. So a member no template knows (a new optional member,
a float, a subclass, a key that is not a string) is written correctly, only
more slowly.

A shape's function is compiled once it has been seen :data:`SIGHTINGS` times
(at one indent), so that a report of a few findings compiles nothing; at most
:data:`KEPT` are kept per process. Like :mod:`mechlint.schema.fastschema`, the
function is Python source executed once: the source holds only names made
here, never text from the record (keys and fixed text are passed in as
values). ``tests/test_report_scale_shapes.py`` holds it equal to the generic
walk on hostile values and mismatched shapes.
"""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

from mechlint.safety.terminal import inert_json

__all__ = ["KEPT", "SIGHTINGS", "Writer", "compile_writer", "record_text"]

Writer = Callable[[Any], "str | None"]

#: A shape's writer is compiled when a record of that shape is seen for this many times at one indent.
SIGHTINGS = 24
#: Writers kept per process (a long-running language server renders reports of many shapes).
KEPT = 64
#: Records deeper or with more leaves than these are written by the generic walk.
_DEPTH = 24
_LEAVES = 600

_INDENT = "  "


class _Untemplatable(Exception):
    """A value with a part no template writes (a float, a subclass, a key that is not a string)."""


def _inert_key(key: str) -> str:
    return inert_json(encode_basestring(key))


class _Source:
    """The body of one writer: guards and unpacking lines, the text's parts, the string leaves."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.parts: list[str] = []
        self.fixed: list[str] = []
        self.constants: list[Any] = []
        self.strings: list[str] = []
        self.names = 0
        self.leaves = 0

    def name(self) -> str:
        self.names += 1
        return f"v{self.names}"

    def constant(self, value: Any) -> str:
        self.constants.append(value)
        return f"c{len(self.constants)}"

    def text(self, fixed: str) -> None:
        self.fixed.append(fixed)

    def expression(self, expression: str) -> None:
        self.leaves += 1
        if self.leaves > _LEAVES:
            raise _Untemplatable
        if self.fixed:
            self.parts.append("{" + self.constant("".join(self.fixed)) + "}")
            self.fixed = []
        self.parts.append("{" + expression + "}")

    def value(self, value: Any, name: str, pad: str, depth: int) -> None:
        kind = type(value)
        if depth > _DEPTH:
            raise _Untemplatable
        if kind is dict:
            self._object(value, name, pad, depth)
        elif kind is list or kind is tuple:
            self._array(value, name, kind.__name__, pad, depth)
        elif kind is str:  # E raises TypeError for what is not a str; a subclass is written as the walk writes it
            self.strings.append(name)
            self.expression(f"E({name})")
        elif kind is int:
            self.lines.append(f"if type({name}) is not int: return None")
            self.expression(name)
        elif kind is bool:
            self.lines.append(f"if type({name}) is not bool: return None")
            self.expression(f"B[{name}]")
        elif value is None:
            self.lines.append(f"if {name} is not None: return None")
            self.text("null")
        else:
            raise _Untemplatable

    def _object(self, value: dict[Any, Any], name: str, pad: str, depth: int) -> None:
        if not value:
            self.lines.append(f"if type({name}) is not dict or {name}: return None")
            self.text("{}")
            return
        keys = tuple(value)
        if any(type(key) is not str for key in keys):
            raise _Untemplatable
        self.lines.append(f"if type({name}) is not dict or tuple({name}) != {self.constant(keys)}: return None")
        names = [self.name() for _ in keys]
        self.lines.append(f"{', '.join(names)}, = {name}.values()")
        inner = pad + _INDENT
        separator = "{"
        for key, child, item in zip(keys, names, value.values(), strict=True):
            self.text(separator + "\n" + inner + _inert_key(key) + ": ")
            self.value(item, child, inner, depth + 1)
            separator = ","
        self.text("\n" + pad + "}")

    def _array(self, value: list[Any] | tuple[Any, ...], name: str, kind: str, pad: str, depth: int) -> None:
        if not value:
            self.lines.append(f"if type({name}) is not {kind} or {name}: return None")
            self.text("[]")
            return
        self.lines.append(f"if type({name}) is not {kind} or len({name}) != {len(value)}: return None")
        names = [self.name() for _ in value]
        self.lines.append(f"{', '.join(names)}, = {name}")
        inner = pad + _INDENT
        separator = "["
        for child, item in zip(names, value, strict=True):
            self.text(separator + "\n" + inner)
            self.value(item, child, inner, depth + 1)
            separator = ","
        self.text("\n" + pad + "]")

    def program(self) -> str:
        if self.fixed:
            self.parts.append("{" + self.constant("".join(self.fixed)) + "}")
        body = [*self.lines, 'text = f"' + "".join(self.parts) + '"']
        if self.strings:  # a printable string is printable once encoded; the fixed text is printable
            body.append(f'if not "".join(({", ".join(self.strings)},)).isprintable():')
            body.append("    return I(text)")
        body.append("return text")
        parameters = ", ".join(["E", "B", "I", *(f"c{index}" for index in range(1, len(self.constants) + 1))])
        inner = "\n".join("        " + line for line in body)
        return f"def make({parameters}):\n    def write(v0):\n{inner}\n    return write\n"


def compile_writer(sample: Any, pad: str) -> Writer | None:
    """A writer for records of ``sample``'s shape at indent ``pad``, or ``None`` if the shape has no template.

    The writer gives a record's text as ``dumps_inert`` writes it inside an
    array indented by ``pad``, or ``None`` for a record of another shape.
    """
    source = _Source()
    try:
        source.value(sample, "v0", pad, 0)
    except _Untemplatable:
        return None
    namespace: dict[str, Any] = {}
    exec(compile(source.program(), "<mechlint record template>", "exec"), namespace)
    writer: Writer = namespace["make"](encode_basestring, ("false", "true"), inert_json, *source.constants)
    return writer


def _signature(value: Any) -> Any:
    """What a writer's guards check, as a hashable value (raises :class:`_Untemplatable`)."""
    budget = [_LEAVES]
    return _shape(value, 0, budget)


def _shape(value: Any, depth: int, budget: list[int]) -> Any:
    kind = type(value)
    budget[0] -= 1
    if depth > _DEPTH or budget[0] < 0:  # a large value (a whole log) is not a record: stop early
        raise _Untemplatable
    if kind is dict:
        keys = tuple(value)
        if any(type(key) is not str for key in keys):
            raise _Untemplatable
        return (keys, tuple(_shape(item, depth + 1, budget) for item in value.values()))
    if kind is list or kind is tuple:
        return (kind, tuple(_shape(item, depth + 1, budget) for item in value))
    if kind is str or kind is int or kind is bool or value is None:
        return kind
    raise _Untemplatable


#: By indent and top-level keys, the writers compiled so far.
_WRITERS: dict[tuple[str, tuple[Any, ...]], list[Writer]] = {}
#: By indent and shape, how many records of a shape without a writer were seen.
_SEEN: dict[tuple[str, Any], int] = {}
_SEEN_KEPT = 4096


def record_text(record: dict[Any, Any], pad: str) -> str | None:
    """The text of ``record`` (an exact ``dict``) in an array indented by ``pad``, or ``None``: walk it then.

    ``None`` until its shape has been seen :data:`SIGHTINGS` times, and for a
    shape no template writes.
    """
    top = (pad, tuple(record))
    writers = _WRITERS.get(top)
    if writers is not None:
        for writer in writers:
            try:
                text = writer(record)
            except TypeError:  # a string's place holds something else
                continue
            if text is not None:
                return text
    return _learn(record, pad, top)


def _learn(record: dict[Any, Any], pad: str, top: tuple[str, tuple[Any, ...]]) -> str | None:
    if sum(map(len, _WRITERS.values())) >= KEPT:
        return None
    try:
        shape = (pad, _signature(record))
    except _Untemplatable:
        return None
    seen = _SEEN.get(shape, 0) + 1
    if seen < SIGHTINGS:
        if len(_SEEN) < _SEEN_KEPT or shape in _SEEN:
            _SEEN[shape] = seen
        return None
    _SEEN.pop(shape, None)
    writer = compile_writer(record, pad)
    if writer is None:
        return None
    _WRITERS.setdefault(top, []).append(writer)
    return writer(record)
