"""Reports a target that is switched on or off more than three times within one second.

In each scenario, a target is on in a step that lights it (``active`` or
``paths``) and off otherwise; before the first step everything is off. Each
change between consecutive steps happens when the later step starts (the
sum of the durations before it). When more than three changes of one target
fall within any one second, the rule fires at the step of the change that
crosses the limit, with the changes as its trace. Only steps shorter than
334 ms can cause this.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mechlint.document import Document
from mechlint.document.views import lit_entries, quote, scenarios, steps
from mechlint.model import Finding, Level, TraceStep
from mechlint.rules import Example, Option, RuleContext, RuleMeta

META = RuleMeta(
    id="a11y/flash-rate",
    level=Level.ERROR,
    summary="Short steps switch one target on and off more than three times in one second.",
    why=(
        "Content that flashes more than three times in any one second can cause seizures in people with "
        "photosensitive epilepsy (WCAG 2.2, 2.3.1 Three Flashes or Below Threshold)."
    ),
    location="the target's entry in the step where the limit is crossed (or the step, when it turns the target off)",
    options=(
        Option("max-changes", "integer", 3, "the most on/off changes of one target allowed in the window", minimum=1),
        Option("window-ms", "integer", 1000, "the window, in milliseconds", minimum=1),
    ),
    examples=(
        Example(
            fires=True,
            where="/scenarios/0/steps",
            json=(
                '[{"title": "On", "description": "On.", "duration": 200, "active": ["a0"], "paths": [], '
                '"state": {"stage": "On", "artifact": "On"}}, '
                '{"title": "Off", "description": "Off.", "duration": 200, "active": ["a1"], "paths": [], '
                '"state": {"stage": "Off", "artifact": "Off"}}, '
                '{"title": "On", "description": "On.", "duration": 200, "active": ["a0"], "paths": [], '
                '"state": {"stage": "On", "artifact": "On"}}, '
                '{"title": "Off", "description": "Off.", "duration": 200, "active": ["a1"], "paths": [], '
                '"state": {"stage": "Off", "artifact": "Off"}}]'
            ),
            note="a0 goes on, off, on, off within 600 ms",
        ),
        Example(fires=False, where="/scenarios/0/steps/0/duration", json="3000"),
    ),
    tags=("accessibility",),
)


def _changes(items: list[tuple[int, dict[str, Any], str]]) -> dict[str, list[tuple[int, int, str]]]:
    """For each target, its changes as ``(time in ms, step position, pointer)``."""
    lit_before: dict[str, bool] = {}
    changes: dict[str, list[tuple[int, int, str]]] = {}
    time = 0
    for position, (_, step, pointer) in enumerate(items):
        lit_now = {key: entry for _, key, entry in lit_entries(step, pointer)}
        for key in set(lit_now) | {k for k, on in lit_before.items() if on}:
            on = key in lit_now
            if on != lit_before.get(key, False):
                changes.setdefault(key, []).append((time, position, lit_now.get(key, pointer)))
            lit_before[key] = on
        time += step["duration"]
    return changes


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    limit: int = context.options["max-changes"]
    window: int = context.options["window-ms"]
    for _, scenario, pointer in scenarios(document.data):
        items = list(steps(scenario, pointer))
        durations = [d for _, step, _ in items if type(d := step.get("duration")) is int and d > 0]
        if not items or len(durations) != len(items):
            continue
        if limit * min(durations) >= window:  # changes are a step apart: limit + 1 of them span the window
            continue
        for key, found in sorted(_changes(items).items()):
            for first in range(len(found) - limit):
                last = first + limit
                if found[last][0] - found[first][0] < window:
                    span = found[last][0] - found[first][0]
                    trace = tuple(
                        TraceStep(
                            found[i][2],
                            f"{quote(key)} turns {'on' if (i % 2 == 0) else 'off'} at {found[i][0]} ms",
                        )
                        for i in range(first, last + 1)
                    )
                    yield META.finding(
                        found[last][2],
                        f"the target {quote(key)} changes {limit + 1} times within {span} ms (at most {limit} "
                        f"changes in {window} ms); make the steps longer or light it steadily",
                        trace=trace,
                    )
                    break
