"""Checking a formula over the steps of a scenario, and explaining a violation.

The monitor is the standard one for past-time temporal logic: each
subformula's value at a step depends only on the values of its children at
that step and its own value at the step before. It computes one column of
values per subformula, children first, so the cost is linear in the number
of steps times the size of the formula; the columns are built with
``map`` and ``accumulate`` rather than a Python loop where the operator
allows it.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from mechlint.invariants.formula import ATOMS, KEY_ATOMS, MAX_KEY, Node, glob_pattern, show
from mechlint.invariants.textsearch import text_column
from mechlint.records import Record
from mechlint.safety.saferegex import compile_pattern, searchable

MAX_TEXT = 10_000  # characters of one step's text that a regex sees
MAX_BINDINGS = 10_000


class Targets(Record):
    """The file's target keys, all and by kind, for the ``target`` atom; built once per file."""

    keys: frozenset[str] = frozenset()
    by_kind: Mapping[str, frozenset[str]] = MappingProxyType({})

    @classmethod
    def of(cls, kinds: Mapping[str, str]) -> Targets:
        """From key to kind (a kind that is not a string is ``""``)."""
        grouped: dict[str, set[str]] = {}
        for key, kind in kinds.items():
            grouped.setdefault(kind, set()).add(key)
        return cls(frozenset(kinds), {kind: frozenset(keys) for kind, keys in grouped.items()})

    def having(self, kind: str | None) -> frozenset[str]:
        return self.keys if kind is None else self.by_kind.get(kind, frozenset())


NO_TARGETS = Targets()


class StepView(Record):
    """What an atom can see of one step."""

    title: str
    text: str
    active: frozenset[str]
    paths: frozenset[str]
    state: Mapping[str, str] = MappingProxyType({})


def step_view(step: Mapping[str, Any]) -> StepView:
    def strings(value: Any) -> frozenset[str]:
        return frozenset(item for item in value if isinstance(item, str)) if isinstance(value, list) else frozenset()

    state_raw = step.get("state")
    state = (
        {k: searchable(v) for k, v in state_raw.items() if isinstance(v, str)} if isinstance(state_raw, dict) else {}
    )
    parts = [step.get("title"), step.get("description"), *state.values()]
    text = searchable("\n".join(part for part in parts if isinstance(part, str))[:MAX_TEXT])
    title = step.get("title")
    return StepView(
        title if isinstance(title, str) else "", text, strings(step.get("active")), strings(step.get("paths")), state
    )


def _keys_column(node: Node, sets: list[frozenset[str]], binding: Mapping[str, str]) -> list[bool]:
    """Whether each step's keys (``active`` or ``paths``) have one that the atom's glob matches."""
    glob = node.values[0]
    if not any(c in glob for c in "*?{"):
        return [glob in keys for keys in sets]
    bound = atom_keys(node, binding) if binding and "{" in glob else glob
    if not any(c in bound for c in "*?{"):  # every placeholder bound: one exact key
        return [False] * len(sets) if len(bound) > MAX_KEY else [bound in keys for keys in sets]
    match = glob_pattern(glob, binding).match
    return [any(len(key) <= MAX_KEY and match(key) for key in keys) for keys in sets]


def has_target(node: Node, targets: Targets, binding: Mapping[str, str]) -> bool:
    """Whether the file has a target whose key matches ``target(glob)`` (and whose kind is ``target(glob, kind)``)."""
    kind = node.values[1] if len(node.values) > 1 else None
    return _keys_column(node, [targets.having(kind)], binding)[0]


def atom_column(
    node: Node, steps: list[StepView], binding: Mapping[str, str], targets: Targets = NO_TARGETS
) -> list[bool]:
    if node.op == "target":
        return [has_target(node, targets, binding)] * len(steps)
    if node.op == "active":
        return _keys_column(node, [step.active for step in steps], binding)
    if node.op == "path":
        return _keys_column(node, [step.paths for step in steps], binding)
    if node.op == "text":
        return text_column(node.values[0], [step.text[:MAX_TEXT] for step in steps])
    key, pattern = node.values
    search = compile_pattern(pattern).search
    return [key in step.state and search(step.state[key][:MAX_TEXT]) is not None for step in steps]


class _Shape(Record):
    """What the monitor needs of a formula, computed once per formula object."""

    root: Node
    postorder: tuple[Node, ...]
    names: list[str]
    globs: tuple[str, ...]
    #: ids of the subformulas whose value depends on the binding of the placeholders
    bound: frozenset[int]


_SHAPES: dict[int, _Shape] = {}


def _shape(root: Node) -> _Shape:
    """Keyed by identity (columns are keyed by node identity); holding ``root`` keeps its id unique."""
    shape = _SHAPES.get(id(root))
    if shape is None or shape.root is not root:
        if len(_SHAPES) > 256:
            _SHAPES.clear()
        globs = tuple(node.values[0] for node in root.walk() if node.op in KEY_ATOMS and "{" in node.values[0])
        postorder = tuple(_unique_postorder(root))
        bound: set[int] = set()
        for node in postorder:
            if (node.op in KEY_ATOMS and "{" in node.values[0]) or any(id(arg) in bound for arg in node.args):
                bound.add(id(node))
        shape = _Shape(root, postorder, sorted(root.placeholders()), globs, frozenset(bound))
        _SHAPES[id(root)] = shape
    return shape


def _unique_postorder(root: Node) -> list[Node]:
    order: list[Node] = []
    seen: set[int] = set()

    def visit(node: Node) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        for arg in node.args:
            visit(arg)
        order.append(node)

    visit(root)
    return order


def clause_column(node: Node, steps: list[StepView], undecided: bool) -> list[bool]:
    """Whether each step's text says what a clause definition describes.

    ``undecided`` is the value at a step whose text it cannot judge.
    """
    from mechlint.invariants.clauses import NO, YES, judge

    verdicts = [judge(node.values, step.text) for step in steps]
    return [v.verdict == YES or (undecided and v.verdict != NO) for v in verdicts]


def evaluate(
    root: Node,
    steps: list[StepView],
    binding: Mapping[str, str],
    shared: dict[int, list[bool]] | None = None,
    targets: Targets = NO_TARGETS,
    undecided: bool = True,
) -> dict[int, list[bool]]:
    """The value of every subformula at every step, keyed by ``id(node)``.

    ``targets`` are the file's targets, which the ``target`` atom looks at.
    ``undecided`` is the value of a clause definition at a step whose text it
    cannot judge (see :mod:`mechlint.invariants.clauses`).

    ``shared`` (optional) keeps the columns that do not depend on the binding
    between calls over the same ``steps``, so each is computed once.
    """
    columns: dict[int, list[bool]] = {}
    n = len(steps)
    shape = _shape(root)
    for node in shape.postorder:
        if shared is not None and id(node) in shared:
            columns[id(node)] = shared[id(node)]
            continue
        op = node.op
        kids = [columns[id(arg)] for arg in node.args]
        if op in ATOMS:
            column = atom_column(node, steps, binding, targets)
        elif op == "clause":
            column = clause_column(node, steps, undecided)
        elif op == "const":
            column = [node.values[0] == "true"] * n
        elif op == "ref":
            column = kids[0]
        elif op == "not":
            column = [not value for value in kids[0]]
        elif op == "and":
            column = list(map(operator.and_, kids[0], kids[1]))
        elif op == "or":
            column = list(map(operator.or_, kids[0], kids[1]))
        elif op == "implies":
            column = [not a or b for a, b in zip(kids[0], kids[1], strict=True)]
        elif op == "previously":
            column = [False, *kids[0][:-1]] if n else []
        elif op == "once":
            column = list(itertools.accumulate(kids[0], operator.or_))
        elif op == "historically":
            column = list(itertools.accumulate(kids[0], operator.and_))
        elif op == "since":
            column = []
            previous = False
            for held, reached in zip(kids[0], kids[1], strict=True):
                previous = reached or (held and previous)
                column.append(previous)
        else:  # pragma: no cover - the parser makes no other nodes
            raise ValueError(f"unknown operator {op}")
        columns[id(node)] = column
        if shared is not None and id(node) not in shape.bound:
            shared[id(node)] = column
    return columns


def candidate_bindings(root: Node, keys: Iterable[str]) -> list[dict[str, str]]:
    """Every assignment of the formula's placeholders to values seen in the keys."""
    shape = _shape(root)
    names, globs = shape.names, shape.globs
    if not names:
        return [{}]
    values: dict[str, set[str]] = {name: set() for name in names}
    keys = list(keys)
    for glob in globs:
        pattern = glob_pattern(glob)
        for key in keys:
            match = pattern.match(key)
            if match:
                for name, value in match.groupdict().items():
                    values[name].add(value)
    combos = itertools.islice(itertools.product(*(sorted(values[name]) for name in names)), MAX_BINDINGS)
    return [dict(zip(names, combo, strict=True)) for combo in combos]


def atom_keys(node: Node, binding: Mapping[str, str]) -> str:
    glob = node.values[0]
    for name, value in binding.items():
        glob = glob.replace("{" + name + "}", value)
    return glob


def verb(node: Node, binding: Mapping[str, str], says: Mapping[str, str]) -> str:
    """What a step does when ``node`` holds there, as a verb phrase."""
    if node.op == "path":
        return f"animates {atom_keys(node, binding)}"
    if node.op == "active":
        return f"lights {atom_keys(node, binding)}"
    if node.op == "target":
        kind = node.values[1] if len(node.values) > 1 else "target"
        return f"belongs to a file with the {kind} {atom_keys(node, binding)}"
    if node.op == "text":
        return f"has text matching /{node.values[0]}/"
    if node.op == "state":
        return f"has a state {node.values[0]} matching /{node.values[1]}/"
    if node.op == "ref":
        return says.get(node.values[0]) or f"satisfies {node.values[0]}"
    return f"satisfies {show(node)}"
