"""The invariant language: formulas over the steps of a scenario, and their parser.

    formula  := implies
    implies  := or ("implies" implies)?            right-associative, lowest
    or       := and ("or" and)*
    and      := since ("and" since)*
    since    := unary ("since" unary)*
    unary    := ("not" | "previously" | "once" | "historically") unary | primary
    primary  := "(" formula ")" | "true" | "false" | NAME
              | active(GLOB) | path(GLOB) | text(REGEX) | state(KEY, REGEX)
              | target(GLOB) | target(GLOB, KIND)

Strings are in double quotes with ``\\"`` and ``\\\\`` as escapes. A glob may
capture a placeholder, ``reuse{n}``; every use of ``{n}`` in one formula binds
to the same value. ``NAME`` refers to a definition of the invariant's file.
The parser is a plain recursive-descent parser with positions; nothing is
ever evaluated as Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache

from mechlint.records import Record
from mechlint.safety.saferegex import UnsafePattern, compile_pattern

MAX_FORMULA_LENGTH = 10_000
MAX_DEPTH = 100

UNARY = ("not", "previously", "once", "historically")
TEMPORAL = ("previously", "once", "historically", "since")
BINARY = ("and", "or", "implies", "since")
ATOMS = {"active": 1, "path": 1, "text": 1, "state": 2, "target": 1}
#: Atoms that take more string arguments than :data:`ATOMS` requires: at most this many in all.
MAX_ARGUMENTS = {"target": 2}
#: The atoms whose first argument is a glob over target keys.
KEY_ATOMS = ("active", "path", "target")
TARGET_KINDS = ("node", "edge")
KEYWORDS = {*UNARY, *BINARY, *ATOMS, "true", "false"}

_TOKEN = re.compile(r'\s*(?:(?P<name>[A-Za-z_][A-Za-z0-9_-]*)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<punct>[(),]))')
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class FormulaError(Exception):
    """A formula that does not parse; ``offset`` is where, in characters."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class Node(Record):
    """One subformula. ``op`` is an operator, an atom kind, ``const``, ``ref`` or ``clause``.

    A ``clause`` node is a definition read by the clause analysis; its values
    are its vocabulary (:func:`mechlint.invariants.vocabulary.values_of`).
    """

    op: str
    args: tuple[Node, ...] = ()
    values: tuple[str, ...] = ()

    def walk(self) -> Iterator[Node]:
        """Every subformula, children before parents (the monitor's order)."""
        for arg in self.args:
            yield from arg.walk()
        yield self

    def placeholders(self) -> frozenset[str]:
        """The names of the ``{placeholders}`` used anywhere in the formula."""
        names: set[str] = set()
        for node in self.walk():
            if node.op in KEY_ATOMS:
                names.update(_PLACEHOLDER.findall(node.values[0]))
        return frozenset(names)


MAX_STARS = 3
MAX_KEY = 128


def glob_pattern(glob: str, binding: Mapping[str, str] | None = None) -> re.Pattern[str]:
    """A target-key glob as a compiled regex (see :func:`_glob_pattern`), compiled once per binding."""
    return _glob_pattern(glob, tuple(sorted(binding.items())) if binding else None)


@lru_cache(maxsize=4096)
def _glob_pattern(glob: str, bound: tuple[tuple[str, str], ...] | None) -> re.Pattern[str]:
    """A target-key glob as a regex: ``*`` any run, ``?`` one character, ``{n}`` a placeholder.

    Without a binding, each placeholder becomes a named group (repeats must
    agree); with one, it is replaced by its bound value. At most
    :data:`MAX_STARS` ``*`` keep the cost of a match polynomial and small
    (keys longer than :data:`MAX_KEY` are never matched).
    """
    binding = dict(bound) if bound else None
    if glob.count("*") > MAX_STARS:
        raise UnsafePattern(f"a glob may have at most {MAX_STARS} '*'")
    out = []
    seen: set[str] = set()
    position = 0
    for match in _PLACEHOLDER.finditer(glob):
        out.append(_literal(glob[position : match.start()]))
        name = match.group(1)
        if binding is not None and name in binding:
            out.append(re.escape(binding[name]))
        elif name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>[A-Za-z0-9_]+?)")
        position = match.end()
    out.append(_literal(glob[position:]))
    return re.compile("".join(out) + r"\Z")


def _literal(text: str) -> str:
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in text)


class _Parser:
    def __init__(self, text: str, definitions: Mapping[str, Node]) -> None:
        self.text = text
        self.definitions = definitions
        self.tokens: list[tuple[str, str, int]] = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                rest = text[position:].lstrip()
                if not rest:
                    break
                offset = len(text) - len(rest)
                raise FormulaError(f"unexpected character {rest[0]!r}", offset)
            kind = match.lastgroup or ""
            self.tokens.append((kind, match.group(kind), match.start(kind)))
            position = match.end()
        self.index = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int]:
        if self.index < len(self.tokens):
            return self.tokens[self.index]
        return ("end", "", len(self.text))

    def take(self, value: str) -> None:
        kind, text, offset = self.peek()
        if text != value or kind == "string":
            found = "the end of the formula" if kind == "end" else repr(text)
            raise FormulaError(f"expected {value!r}, found {found}", offset)
        self.index += 1

    def parse(self) -> Node:
        node = self.implies()
        kind, text, offset = self.peek()
        if kind != "end":
            raise FormulaError(f"unexpected {text!r} after a complete formula (missing 'and' or 'or'?)", offset)
        return node

    def _nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"the formula nests deeper than {MAX_DEPTH} levels", self.peek()[2])

    def implies(self) -> Node:
        left = self.binary_left("or", self.conjunction)
        if self.peek()[1] == "implies" and self.peek()[0] == "name":
            self.index += 1
            self._nested()
            right = self.implies()
            self.depth -= 1
            return Node("implies", (left, right))
        return left

    def conjunction(self) -> Node:
        return self.binary_left("and", self.since)

    def since(self) -> Node:
        return self.binary_left("since", self.unary)

    def binary_left(self, op: str, parse: Callable[[], Node]) -> Node:
        node = parse()
        while self.peek()[1] == op and self.peek()[0] == "name":
            self.index += 1
            node = Node(op, (node, parse()))
        return node

    def unary(self) -> Node:
        kind, text, _ = self.peek()
        if kind == "name" and text in UNARY:
            self.index += 1
            self._nested()
            node = Node(text, (self.unary(),))
            self.depth -= 1
            return node
        return self.primary()

    def primary(self) -> Node:
        kind, text, offset = self.peek()
        if kind == "punct" and text == "(":
            self.index += 1
            self._nested()
            node = self.implies()
            self.depth -= 1
            self.take(")")
            return node
        if kind != "name":
            found = "the end of the formula" if kind == "end" else repr(text)
            raise FormulaError(f"expected a condition, found {found}", offset)
        self.index += 1
        if text in ("true", "false"):
            return Node("const", values=(text,))
        if text in ATOMS:
            return self.atom(text, offset)
        if text in BINARY:
            raise FormulaError(f"{text!r} needs a condition on its left", offset)
        if text in self.definitions:
            return Node("ref", (self.definitions[text],), (text,))
        known = ", ".join(sorted(self.definitions)) or "none"
        raise FormulaError(
            f"unknown name {text!r}; use {', '.join(ATOMS)}, an operator, or a definition ({known})", offset
        )

    def atom(self, name: str, offset: int) -> Node:
        self.take("(")
        values = []
        most = MAX_ARGUMENTS.get(name, ATOMS[name])
        takes = f"{ATOMS[name]}" if most == ATOMS[name] else f"{ATOMS[name]} or {most}"
        for position in range(most):
            if position >= ATOMS[name] and self.peek()[1] != ",":
                break
            if position:
                self.take(",")
            kind, text, string_offset = self.peek()
            if kind != "string":
                raise FormulaError(f"{name}() takes {takes} string argument(s) in double quotes", string_offset)
            self.index += 1
            value = text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            if name in ("text", "state") and position == ATOMS[name] - 1:
                try:
                    compile_pattern(value)
                except UnsafePattern as error:
                    raise FormulaError(str(error), string_offset + 1) from None
            if name in KEY_ATOMS and position == 0:
                try:
                    glob_pattern(value)
                except (re.error, UnsafePattern) as error:
                    raise FormulaError(f"invalid glob: {error}", string_offset + 1) from None
            if name == "target" and position == 1 and value not in TARGET_KINDS:
                raise FormulaError(f"the kind of a target is node or edge, not {value!r}", string_offset + 1)
            values.append(value)
        self.take(")")
        return Node(name, values=tuple(values))


def parse(text: str, definitions: Mapping[str, Node] | None = None) -> Node:
    """Parse a formula; raise :class:`FormulaError` with the offset of the mistake."""
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaError(f"the formula is longer than {MAX_FORMULA_LENGTH} characters", 0)
    return _Parser(text, definitions or {}).parse()


def show(node: Node) -> str:
    """The formula as text again (for messages and ``mechlint rule``)."""
    if node.op == "const" or node.op == "ref":
        return node.values[0]
    if node.op == "clause":  # a clause definition: its lists, shortened
        return "clause(" + ", ".join(value.partition("|")[0] for value in node.values[:3]) + ", ...)"
    if node.op in ATOMS:
        return f"{node.op}(" + ", ".join(f'"{v}"' for v in node.values) + ")"
    if node.op in UNARY:
        return f"{node.op}({show(node.args[0])})"
    return f"({show(node.args[0])} {node.op} {show(node.args[1])})"
