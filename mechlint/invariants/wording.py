"""What an invariant says about the text of its steps: the wording that would count, and text it cannot judge.

A definition read by the clause analysis (a ``clause`` table) judges each
step's text as ``yes``, ``no`` or ``undecided``. An invariant's error names
the wording that would count (the definition's ``example``) and the nearest
step whose text says the opposite. Where the verdict depends on text the
analysis cannot judge, the invariant holds (the author is given the benefit
of the doubt) and the note :data:`UNDECIDED_TEXT` names the step and the words.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from mechlint.document.views import quote
from mechlint.invariants.clauses import NO, UNDECIDED, Judgement, judge
from mechlint.invariants.formula import Node
from mechlint.invariants.monitor import StepView
from mechlint.model import Finding
from mechlint.rules.invariant.undecided_text import META as UNDECIDED_TEXT_RULE
from mechlint.safety.saferegex import searchable

if TYPE_CHECKING:
    from mechlint.invariants.invariant import Invariant

UNDECIDED_TEXT = UNDECIDED_TEXT_RULE.id


def clause_definitions(root: Node) -> dict[str, Node]:
    """The definitions of ``root`` read by the clause analysis, by name."""
    return {node.values[0]: node.args[0] for node in root.walk() if node.op == "ref" and node.args[0].op == "clause"}


def undecided_steps(root: Node, views: list[StepView]) -> dict[int, tuple[str, Judgement]]:
    """The steps whose text a clause definition of ``root`` cannot judge: (definition, judgement) by step."""
    found: dict[int, tuple[str, Judgement]] = {}
    for name, node in clause_definitions(root).items():
        for index, view in enumerate(views):
            judgement = judge(node.values, view.text)
            if judgement.verdict == UNDECIDED:
                found.setdefault(index, (name, judgement))
    return found


def _label(views: list[StepView], numbers: list[int], index: int) -> str:
    title = views[index].title
    return f"steps[{numbers[index]}]" + (f" ({quote(title)})" if title else "")


def _field(step: Mapping[str, Any], pointer: str, words: str) -> tuple[str, tuple[int, int] | None]:
    """The pointer of the string of ``step`` that holds ``words``, and where they are in it."""
    state = step.get("state")
    fields = [("title", step.get("title")), ("description", step.get("description"))]
    if isinstance(state, dict):
        fields += [(f"state/{key.replace('~', '~0').replace('/', '~1')}", value) for key, value in state.items()]
    for name, value in fields:
        read = searchable(value) if isinstance(value, str) else ""  # what the clause analysis read
        if words and words in read:
            start = read.index(words)
            return f"{pointer}/{name}", (start, start + len(words))
    return pointer, None


def undecided_notes(
    invariant: Invariant,
    doubtful: dict[int, tuple[str, Judgement]],
    decided: list[int],
    items: list[tuple[int, dict[str, Any], str]],
    views: list[StepView],
    scenario: str,
    noted: set[int],
) -> Iterator[Finding]:
    """A note at each step whose text could not be judged, where a verdict at a step in ``decided`` depends on it."""
    if not decided:
        return
    numbers = [number for number, _, _ in items]
    for index in sorted(doubtful):
        if index > max(decided) or index in noted:
            continue
        noted.add(index)
        name, judgement = doubtful[index]
        says = invariant.says.get(name) or f"satisfies {name}"
        example = invariant.wordings.get(name)
        pointer, span = _field(items[index][1], items[index][2], judgement.words)
        message = (
            f"in {scenario}, {_label(views, numbers, index)} is taken as a step that {says} for {invariant.rule_id}, "
            f"but {quote(judgement.words)} could not be judged: {judgement.reason}"
            + (f'; if it does, say so plainly, e.g. "{example}"' if example else "")
        )
        yield Finding(UNDECIDED_TEXT, message, pointer=pointer, span=span)


def wording_hint(
    invariant: Invariant, root: Node, views: list[StepView], index: int, numbers: list[int], message: str
) -> str:
    """What an error ``message`` about a missing step of a clause definition adds: the wording that counts, a near
    miss."""
    hints = []
    for name, node in clause_definitions(root).items():
        example = invariant.wordings.get(name)
        says = invariant.says.get(name) or f"satisfies {name}"
        if not example or f" {says}" not in message:
            continue
        hint = f'; a step counts when its title, description or state says that it {says}, e.g. "{example}"'
        for earlier in range(index - 1, -1, -1):
            judgement = judge(node.values, views[earlier].text)
            if judgement.verdict == NO and judgement.reason and judgement.words:
                label = _label(views, numbers, earlier)
                hint += f" ({label} does not count: {quote(judgement.words)}: {judgement.reason})"
                break
        hints.append(hint)
    return "".join(hints)
