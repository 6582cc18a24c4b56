"""What every rule is made of: frozen metadata and a pure ``check`` function.

A rule lives in ``mechlint/rules/<family>/<name>.py``. Its module docstring says
what it does; ``META`` holds the id, the default level, the options and the
examples of its documentation; ``check(document, context)`` yields findings.
The explicit list of rules is :mod:`mechlint.catalog.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol

from mechlint.model import Finding, Level, TraceStep
from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.document import Document  # for annotations only: the loader takes its rule ids from rules
    from mechlint.language.plainlists import PlainLists
    from mechlint.provenance.services import RunServices

OptionKind = Literal["integer", "number", "string", "strings", "boolean"]

#: ``load`` rules report what the loader found; ``version`` rules need parsed
#: data; ``document`` rules need parsed data of a known version; ``engine``
#: rules are reported by the engine itself and have no check of their own.
Stage = Literal["load", "version", "document", "engine"]


class Option(Record):
    name: str
    kind: OptionKind
    default: Any
    help: str
    minimum: float | None = None

    def accepts(self, value: Any) -> bool:
        if self.kind == "boolean":
            return isinstance(value, bool)
        if self.kind == "string":
            return isinstance(value, str)
        if self.kind == "strings":
            return isinstance(value, list) and all(isinstance(item, str) for item in value)
        numeric = (int,) if self.kind == "integer" else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric):
            return False
        return self.minimum is None or value >= self.minimum

    @property
    def expected(self) -> str:
        words = {
            "integer": "a whole number",
            "number": "a number",
            "string": "a string",
            "strings": "a list of strings",
            "boolean": "true or false",
        }
        text = words[self.kind]
        if self.minimum is not None:
            text += f" of at least {self.minimum:g}"
        return text


class Example(Record):
    """A runnable documentation example.

    With ``where`` set, ``json`` replaces the value at that JSON pointer in the
    clean base document (``docs/rules/base.json``); without it, ``json`` is the
    whole file. ``fires`` says whether the rule must report on it.
    """

    fires: bool
    json: str
    where: str | None = None
    note: str = ""
    #: The repository the example runs in: "" (full history) or "shallow" (a depth-1 clone).
    setup: str = ""


class RuleMeta(Record):
    id: str
    level: Level
    summary: str
    why: str
    location: str
    examples: tuple[Example, ...] = ()
    options: tuple[Option, ...] = ()
    stage: Stage = "document"
    tags: tuple[str, ...] = ()
    #: Other rule ids this rule's check reports under (an invariant reports ``invariant/undecided-text``): each
    #: finding keeps that rule's configured level, and is dropped when the run does not enable that rule.
    reports: tuple[str, ...] = ()

    @property
    def family(self) -> str:
        return self.id.partition("/")[0]

    def finding(self, pointer: str, message: str, **extra: Any) -> Finding:
        return Finding(self.id, message, pointer=pointer, **extra)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)


class RuleContext(Record):
    """What a rule may know beyond the document: its options and the run's word lists, read-only."""

    options: Mapping[str, Any] = MappingProxyType({})
    word_lists: PlainLists | None = None
    services: RunServices | None = None

    @property
    def lists(self) -> PlainLists:
        """The configured word lists, or the shipped ones."""
        if self.word_lists is not None:
            return self.word_lists
        from mechlint.language.plainlists import shipped

        return shipped()


class CheckFunction(Protocol):
    def __call__(self, document: Document, context: RuleContext) -> Iterator[Finding]: ...


class Rule(Record):
    meta: RuleMeta
    check: Callable[[Document, RuleContext], Iterator[Finding]]
    doc: str


__all__ = ["Example", "Option", "Rule", "RuleContext", "RuleMeta", "TraceStep"]
