"""Reports a state object whose keys are not exactly those of ``stateLabels``.

``initial`` and every step's ``state`` fill the state panel beside the
diagram, one row per key of ``stateLabels``. An extra key is never shown, and
a missing key leaves its row showing the previous step's value.

A mistake in ``stateLabels`` itself (a label that no state object has, or a
key that every state object has and ``stateLabels`` lacks) is one finding at
``stateLabels``, not one per state object.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import as_object, quote, readable_path, scenarios, steps
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.text.lookalike import closest, suggestion

META = RuleMeta(
    id="reference/state-keys",
    level=Level.ERROR,
    summary="`initial` or a step's `state` has keys other than those of `stateLabels`, or lacks one.",
    why="The state panel shows one row per state label; other keys are never shown and missing ones show stale text.",
    location="the state object; `stateLabels` when the mistake is there",
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
    states = [(pointer, state) for pointer, state in objects if isinstance(state, dict)]
    # a mistake in stateLabels itself shows in every state object: it is one finding, at stateLabels
    unused = [key for key in expected if states and not any(key in state for _, state in states)]
    unlabelled = (
        [key for key in states[0][1] if key not in labels and all(key in s for _, s in states)] if states else []
    )
    if len(states) >= 2 and (unused or unlabelled):
        yield _at_labels(unused, unlabelled, len(states))
    else:
        unused, unlabelled = [], []
    for pointer, state in states:
        extra = [key for key in state if key not in labels and key not in unlabelled]
        missing = [key for key in expected if key not in state and key not in unused]
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


def _at_labels(unused: list[str], unlabelled: list[str], count: int) -> Finding:
    if count == 2:
        none_has, all_have = "neither state object has", "both state objects have"
    else:
        none_has, all_have = f"none of the {count} state objects has", f"all {count} state objects have"
    parts = []
    if unused:
        parts.append(f"defines {_names(unused)}, which {none_has}")
    if unlabelled:
        parts.append(f"lacks {_names(unlabelled)}, which {all_have}")
    renames = [(key, closest(key, unlabelled)) for key in unused]
    advice = ", ".join(f"rename {quote(key)} to {quote(meant)}" for key, meant in renames if meant is not None)
    # one key of stateLabels that no state has (a typo, or a key renamed in every state) is pointed at itself
    pointer = pointer_join("/stateLabels", unused[0]) if len(unused) == 1 and len(unlabelled) <= 1 else "/stateLabels"
    return META.finding(
        pointer,
        f"stateLabels {' and '.join(parts)}; {advice or 'change stateLabels to match the states'}",
        on_key=pointer != "/stateLabels",
    )
