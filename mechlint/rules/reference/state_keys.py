"""Reports a state object whose keys are not exactly those of ``stateLabels``.

``initial`` and every step's ``state`` fill the state panel beside the
diagram, one row per key of ``stateLabels``. An extra key is never shown, and
a missing key leaves its row showing the previous step's value.

One mistake is one finding: when ``initial`` and every step of every
scenario agree on their keys and ``stateLabels`` is the odd one out (a typo
such as ``"vots"`` for ``"votes"``), the finding is one, at the key of
``stateLabels`` that no state uses, rather than one on each state object.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.jsonscan import pointer_join
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import as_object, quote, readable_path, scenarios, steps

META = RuleMeta(
    id="reference/state-keys",
    level=Level.ERROR,
    summary="`initial` or a step's `state` has keys other than those of `stateLabels`, or lacks one.",
    why="The state panel shows one row per state label; other keys are never shown and missing ones show stale text.",
    location="the state object; the key of `stateLabels` when every state object agrees against it",
    examples=(
        Example(fires=True, where="/scenarios/0/steps/0/state", json='{"stage": "A prefills the prefix"}'),
        Example(
            fires=False,
            where="/scenarios/0/steps/0/state",
            json='{"stage": "A prefills the prefix", "artifact": "Two full blocks"}',
        ),
    ),
)


def _names(keys: list[str]) -> str:
    return ", ".join(quote(key) for key in keys)


def _labels_finding(expected: list[str], used: frozenset[str]) -> Finding:
    """``stateLabels`` disagrees with every state object, which all agree."""
    unused = [key for key in expected if key not in used]
    undefined = sorted(key for key in used if key not in expected)
    problems = []
    if unused:
        problems.append(f"defines {_names(unused)}, which no state has")
    if undefined:
        problems.append(f"lacks {_names(undefined)}, which every state has")
    hint = ""
    if len(unused) == 1 and len(undefined) == 1:
        hint = f" (did you mean {quote(undefined[0])}?)"
    pointer = pointer_join("/stateLabels", unused[0]) if unused else "/stateLabels"
    return META.finding(
        pointer, f"stateLabels {' and '.join(problems)}{hint}; initial and every step agree", on_key=bool(unused)
    )


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    labels = as_object((as_object(document.data) or {}).get("stateLabels"))
    if labels is None:
        return
    expected = list(labels)
    objects: list[tuple[str, object]] = []
    for _, scenario, pointer in scenarios(document.data):
        objects.append((pointer_join(pointer, "initial"), scenario.get("initial")))
        for _, step, step_pointer in steps(scenario, pointer):
            objects.append((pointer_join(step_pointer, "state"), step.get("state")))
    found = [frozenset(state) for _, state in objects if isinstance(state, dict)]
    if len(found) >= 2 and len(set(found)) == 1 and found[0] != set(labels):
        yield _labels_finding(expected, found[0])
        return
    for pointer, state in objects:
        if not isinstance(state, dict):
            continue
        extra = [key for key in state if key not in labels]
        missing = [key for key in expected if key not in state]
        problems = []
        if missing:
            problems.append(f"lacks {_names(missing)}")
        if extra:
            problems.append(f"has {_names(extra)}, which stateLabels does not define")
        if problems:
            yield META.finding(
                pointer,
                f"{readable_path(pointer)} {' and '.join(problems)}; "
                f"its keys must be exactly those of stateLabels ({_names(expected)})",
            )
