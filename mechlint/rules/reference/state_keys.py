"""Reports a state object whose keys are not exactly those of ``stateLabels``.

``initial`` and every step's ``state`` fill the state panel beside the
diagram, one row per key of ``stateLabels``. An extra key is never shown, and
a missing key leaves its row showing the previous step's value.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.jsonscan import pointer_join
from mechlint.lookalike import closest, suggestion
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import as_object, quote, readable_path, scenarios, steps

META = RuleMeta(
    id="reference/state-keys",
    level=Level.ERROR,
    summary="`initial` or a step's `state` has keys other than those of `stateLabels`, or lacks one.",
    why="The state panel shows one row per state label; other keys are never shown and missing ones show stale text.",
    location="the state object",
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
        hints = [f"{quote(key)}{suggestion(key, missing)}" for key in extra if missing and closest(key, missing)]
        if problems:
            yield META.finding(
                pointer,
                f"{readable_path(pointer)} {' and '.join(problems)}; "
                f"its keys must be exactly those of stateLabels ({_names(expected)})"
                + (f"; {', '.join(hints)}" if hints else ""),
            )
