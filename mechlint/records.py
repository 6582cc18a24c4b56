"""``Record``: the class ``typing.NamedTuple`` makes, made in a third of the time.

``class Span(Record): start: int; end: int = 0`` gives what ``typing.NamedTuple``
gives: a tuple with named fields, defaults, ``_replace``, ``_fields``,
``_asdict``, ``__match_args__``, the class body's methods and docstring, and
pickling by name (findings travel to worker processes that way). Type checkers
see ``typing.NamedTuple`` itself (the ``TYPE_CHECKING`` branch below).

Why not ``typing.NamedTuple``: it costs about 0.5 ms a class when the module
is imported. It type-checks each annotation (with ``from __future__ import
annotations`` that compiles every annotation into a ``ForwardRef``) and then
reassigns the new class's ``__bases__``. mechlint defines about fifty record
classes on the way to checking one file, so that was a tenth of a one-file run
(``docs/benchmarks.md``, round 5). Here the class comes straight from
``collections.namedtuple`` and keeps its annotations as written.
``tests/test_records.py`` holds every record class in the package equal in
behaviour to the ``typing.NamedTuple`` made from the same class body.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any

__all__ = ["Record"]

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    #: Names the generated class must keep: ``namedtuple`` makes them, or they are the class's own.
    _SPECIAL = frozenset({"__module__", "__qualname__", "__annotations__", "__doc__", "__classcell__"})
    #: Names a class body may not define, as for ``typing.NamedTuple``.
    _PROHIBITED = frozenset(
        {
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
        }
    )

    class _RecordMeta(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
            if namespace.get("_root", False):
                return super().__new__(mcs, name, bases, namespace)
            if bases != (Record,):
                raise TypeError(f"{name}: a record class can only have Record as its base")
            annotations: dict[str, Any] = namespace.get("__annotations__", {})
            defaults = [field for field in annotations if field in namespace]
            if defaults and list(annotations)[-len(defaults) :] != defaults:
                raise TypeError(f"{name}: a field without a default follows one with a default")
            record = namedtuple(
                name,
                list(annotations),
                defaults=[namespace[field] for field in defaults],
                module=namespace["__module__"],
            )
            record.__qualname__ = namespace.get("__qualname__", name)
            record.__annotations__ = annotations
            if "__doc__" in namespace:
                record.__doc__ = namespace["__doc__"]
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"{name}: a record class cannot set {key}")
                if key not in _SPECIAL and key not in annotations:
                    setattr(record, key, value)
            return record

    class Record(metaclass=_RecordMeta):
        """Base of record classes; never a base of the classes made (they are ``tuple`` subclasses)."""

        _root = True
