"""``mechlint.records.Record`` makes the class ``typing.NamedTuple`` makes (see the module's docstring)."""

from __future__ import annotations

import ast
import importlib
import pickle
import sys
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: One class body, made once with each base. ``{base}`` is ``Record`` or ``NamedTuple``.
BODY = '''
from __future__ import annotations
from typing import NamedTuple
from mechlint.records import Record

class Span({base}):
    """Where a thing is."""

    start: int
    end: int
    label: str = ""
    tags: tuple[str, ...] = ()

    def length(self) -> int:
        return self.end - self.start

    @property
    def empty(self) -> bool:
        return self.start == self.end

    @classmethod
    def at(cls, start: int) -> Span:
        return cls(start, start)

    @staticmethod
    def unit() -> int:
        return 1

    KIND = "span"

class Bare({base}):
    a: int

class Outer:
    class Inner({base}):
        x: int = 3
'''


def _module(base: str) -> types.ModuleType:
    name = f"_records_{base.lower()}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # pickling finds classes by module and name
    exec(compile(BODY.format(base=base), name, "exec"), module.__dict__)
    return module


FAST, TYPING = _module("Record"), _module("NamedTuple")


def _behaviour(module: types.ModuleType) -> list[Any]:
    span, bare, inner = module.Span, module.Bare, module.Outer.Inner
    one = span(1, 4, tags=("a",))
    return [
        issubclass(span, tuple),
        span._fields,
        span._field_defaults,
        span.__match_args__,
        span.__doc__,
        bare.__doc__,
        {field: getattr(kind, "__forward_arg__", kind) for field, kind in span.__annotations__.items()},
        tuple(one),
        repr(one),
        one == (1, 4, "", ("a",)),
        hash(one) == hash((1, 4, "", ("a",))),
        one.length(),
        one.empty,
        tuple(span.at(2)),
        span.unit(),
        span.KIND,
        tuple(one._replace(label="x")),
        one._asdict(),
        tuple(span._make([0, 1, "y", ()])),
        tuple(pickle.loads(pickle.dumps(one))),
        type(pickle.loads(pickle.dumps(one))) is span,
        tuple(pickle.loads(pickle.dumps(inner()))),
        inner.__qualname__,
        span.__module__ == module.__name__,
        hasattr(one, "__dict__"),
        [cls.__name__ for cls in span.__mro__],
    ]


def test_a_record_behaves_as_the_typing_named_tuple_of_the_same_body() -> None:
    fast, typing = _behaviour(FAST), _behaviour(TYPING)
    assert fast == typing
    # annotations are kept as written (typing makes ForwardRefs of them: the cost Record saves)
    assert FAST.Span.__annotations__["start"] == "int"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("a: int = 0\n    b: int", TypeError),  # a field without a default after one with a default
        ("a: int\n    def _replace(self): pass", AttributeError),  # a name namedtuple owns
        ("a: int\n    __slots__ = ('a',)", AttributeError),
    ],
)
def test_a_record_refuses_what_typing_refuses(body: str, error: type[Exception]) -> None:
    for base in ("Record", "NamedTuple"):
        source = f"from typing import NamedTuple\nfrom mechlint.records import Record\nclass Bad({base}):\n    {body}\n"
        with pytest.raises(error):
            exec(source, {"__name__": "_bad"})


def test_a_record_has_only_record_as_its_base() -> None:
    with pytest.raises(TypeError, match="only have Record"):
        exec("from mechlint.records import Record\nclass Bad(Record, dict): a: int\n", {"__name__": "_bad"})


def _declared_records() -> list[tuple[str, str, list[str]]]:
    """``(module, qualified name, fields)`` of every ``class X(Record)`` in the package, read from the source."""
    found = []
    for path in sorted((ROOT / "mechlint").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id == "Record" for b in node.bases):
                fields = [
                    item.target.id
                    for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                ]
                found.append((module, node.name, fields))
    return found


def test_every_record_class_in_the_package_is_a_named_tuple_found_by_its_name() -> None:
    declared = _declared_records()
    assert len(declared) > 40  # the model, findings, provenance facts, …
    for module_name, name, fields in declared:
        module = importlib.import_module(module_name)
        cls = getattr(module, name, None)
        if cls is None:  # a class defined inside a function: not reachable by name, so never pickled
            continue
        assert issubclass(cls, tuple), (module_name, name)
        assert list(cls._fields) == fields, (module_name, name)
        assert (cls.__module__, cls.__qualname__) == (module_name, name)  # what pickle looks up


def test_no_module_defines_a_typing_named_tuple() -> None:
    """``typing.NamedTuple`` costs three times what ``Record`` costs at import (``mechlint/records.py``)."""
    paths = sorted((ROOT / "mechlint").rglob("*.py"))
    assert paths
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(base) for base in node.bases]
                assert "NamedTuple" not in bases and "typing.NamedTuple" not in bases, f"{path}: {node.name}"
