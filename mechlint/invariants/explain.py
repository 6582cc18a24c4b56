"""Turning a violation into one sentence and a trace of the steps that matter.

Steps are named as the rest of mechlint names places in a file, by their
index in the JSON document, counted from 0 as JSON pointers count:
``steps[3] ("Use K/V again")`` is ``/scenarios/0/steps/3``, the fourth step.
Messages name the scenario by its ``id``.
"""

from __future__ import annotations

from collections.abc import Mapping

from mechlint.document.views import quote
from mechlint.invariants.formula import ATOMS, TEMPORAL, Node, glob_pattern, show
from mechlint.invariants.monitor import StepView, atom_keys, verb
from mechlint.records import Record


class Explanation(Record):
    message: str
    trace: tuple[tuple[int, str], ...]  # (step index, what happens there)


class _Explainer:
    def __init__(
        self,
        columns: dict[int, list[bool]],
        steps: list[StepView],
        binding: Mapping[str, str],
        says: Mapping[str, str],
        numbers: list[int],
        current: int,
    ) -> None:
        self.columns = columns
        self.steps = steps
        self.binding = binding
        self.says = says
        self.numbers = numbers
        #: the step that breaks the invariant
        self.current = current

    def number(self, index: int) -> str:
        """The step as the JSON document indexes it (``steps[3]``); ``index`` counts the steps that are objects."""
        return f"steps[{self.numbers[index]}]"

    def label(self, index: int) -> str:
        title = self.steps[index].title
        return f"{self.number(index)} ({quote(title)})" if title else self.number(index)

    def verb(self, node: Node) -> str:
        return verb(node, self.binding, self.says)

    def held(self, node: Node, index: int) -> bool:
        return self.columns[id(node)][index]

    def first(self, node: Node, start: int, stop: int) -> int | None:
        column = self.columns[id(node)]
        return next((k for k in range(max(start, 0), stop) if column[k]), None)

    def subject(self, node: Node, index: int) -> str:
        """What the step does that makes the invariant apply, as a clause."""
        step = self.steps[index]
        if node.op in ("path", "active") and self.held(node, index):
            keys = step.paths if node.op == "path" else step.active
            pattern = atom_keys(node, self.binding)
            if any(c in pattern for c in "*?{"):
                match = glob_pattern(pattern).match
                matched = sorted(k for k in keys if match(k)) or [pattern]
            else:  # every placeholder bound: one key, no scan of the step's keys
                matched = [pattern]
            verb_text = "animated" if node.op == "path" else "lit"
            names = matched[0] if len(matched) == 1 else f"{', '.join(matched[:-1])} and {matched[-1]}"
            return f"{names} {'is' if len(matched) == 1 else 'are'} {verb_text} in {self.label(index)}"
        return f"{self.label(index)} {self.verb(node)}"

    def no_target(self, node: Node) -> str:
        kind = node.values[1] if len(node.values) > 1 else "target"
        return f"the file has no {kind} {atom_keys(node, self.binding)}"

    def why_not(self, node: Node, index: int) -> str:
        """Why ``node`` is false at step ``index``."""
        op = node.op
        if op == "const":
            return "the condition is false"
        if op == "target":
            return self.no_target(node)
        if op in ATOMS or op == "ref":
            return f"{self.label(index)} is not a step that {self.verb(node)}"
        if op == "not":
            return f"{self.label(index)} {self.verb(node.args[0])}"
        if op == "and":
            failing = [arg for arg in node.args if not self.held(arg, index)]
            return self.why_not(failing[0], index)
        if op == "or":
            return " and ".join(self.why_not(arg, index) for arg in node.args)
        if op == "implies":
            return self.why_not(node.args[1], index)
        if op == "previously":
            if index == 0:
                return f"{self.label(index)} is the first step, so no step comes before it"
            inner = node.args[0]
            if inner.op == "once":
                return self.never(inner.args[0], index)
            return self.why_not(inner, index - 1)
        if op == "once":
            return self.never(node.args[0], index + 1, inclusive=True)
        if op == "historically":
            column = self.columns[id(node.args[0])]
            last = max(k for k in range(index + 1) if not column[k])
            return self.why_not(node.args[0], last)
        return f"{show(node)} does not hold at {self.label(index)}"

    def never(self, node: Node, stop: int, inclusive: bool = False) -> str:
        """Why ``node`` held at no step before ``stop`` (up to ``stop - 1`` when ``inclusive``)."""
        if node.op == "target":
            return self.no_target(node)
        if inclusive:
            where = "up to this one" if stop - 1 == self.current else f"up to {self.label(stop - 1)}"
        else:
            where = "before this one" if stop == self.current else f"before {self.label(stop)}"
        if node.op == "and":
            # Temporal conjuncts first: a missing earlier event is the root cause.
            ordered = sorted(node.args, key=lambda arg: arg.op not in TEMPORAL)
            for arg in ordered:
                after = _after_event(arg)
                if after is not None:
                    start = self.first(after, 0, stop)
                    if start is None:
                        return f"no step {where} {self.verb(after)}"
                    rest = [a for a in node.args if a is not arg]
                    if len(rest) == 1 and self.first(rest[0], start + 1, stop) is None:
                        return f"no step {self.verb(rest[0])} after {self.subject(after, start)} and {where}"
                elif self.first(arg, 0, stop) is None:
                    return self.never(arg, stop, inclusive)
        after = _after_event(node)
        if after is not None:
            return f"no step {where} comes after a step that {self.verb(after)}"
        return f"no step {where} {self.verb(node)}"


def _after_event(node: Node) -> Node | None:
    """``D`` when ``node`` is ``previously(once(D))``: "after a step that D"."""
    if node.op == "previously" and node.args[0].op == "once":
        return node.args[0].args[0]
    return None


def _leaves(node: Node) -> list[Node]:
    if node.op in ATOMS or node.op == "ref":
        return [node]
    return [leaf for arg in node.args for leaf in _leaves(arg)]


def explain(
    root: Node,
    columns: dict[int, list[bool]],
    steps: list[StepView],
    index: int,
    binding: Mapping[str, str],
    says: Mapping[str, str],
    scenario: str,
    numbers: list[int] | None = None,
) -> Explanation:
    """Why ``root`` fails at ``steps[index]`` of ``scenario`` (its name, as messages show it).

    ``numbers`` are the steps' indexes in the document (the default: their positions).
    """
    explainer = _Explainer(columns, steps, binding, says, numbers or list(range(len(steps))), index)
    if root.op == "implies":
        antecedent, consequent = root.args
        lead = explainer.subject(antecedent, index) if antecedent.op in (*ATOMS, "ref") else explainer.label(index)
        message = f"in {scenario}, {lead}, but {explainer.why_not(consequent, index)}"
        leaves = [leaf for leaf in _leaves(consequent) if leaf != antecedent]
    else:
        lead = f"{explainer.label(index)} breaks the invariant"
        message = f"in {scenario}, {lead}: {explainer.why_not(root, index)}"
        leaves = _leaves(root)
    trace: dict[tuple[int, str], None] = {}
    for leaf in leaves:
        if leaf.op == "target":  # a fact about the file, not an event of a step
            continue
        column = columns[id(leaf)]
        before = [k for k in range(index) if column[k]]
        if before:
            trace[(before[-1], f"{explainer.label(before[-1])} {explainer.verb(leaf)}")] = None
            continue
        later = next((k for k in range(index + 1, len(steps)) if column[k]), None)
        if later is not None:
            line = f"{explainer.label(later)} {explainer.verb(leaf)}, but only after {explainer.number(index)}"
            trace[(later, line)] = None
    trace[(index, f"{lead}: the invariant breaks here")] = None
    return Explanation(message, tuple(sorted(trace)))
