"""Reports a step that lights a target its scenario marks as unselected.

``unselected`` lists the targets that take no part in a scenario; they are
drawn dimmed. A step of the same scenario that lights one of them
contradicts the scenario's own description.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import lit_entries, quote, readable_path, scenarios, steps, strings
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="reference/unselected-active",
    level=Level.ERROR,
    summary="A step lights a target that its scenario marks unselected.",
    why="An unselected target is drawn dimmed as not taking part; lighting it tells the reader two things at once.",
    location="the step's entry",
    examples=(
        Example(fires=True, where="/scenarios/0/unselected", json='["a0"]'),
        Example(fires=False, where="/scenarios/0/unselected", json="[]"),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for _, scenario, pointer in scenarios(document.data):
        unselected = {key for _, key, _ in strings(scenario.get("unselected"), pointer_join(pointer, "unselected"))}
        if not unselected:
            continue
        for _, step, step_pointer in steps(scenario, pointer):
            for _, key, item_pointer in lit_entries(step, step_pointer):
                if key in unselected:
                    yield META.finding(
                        item_pointer,
                        f"{readable_path(item_pointer)} lights {quote(key)}, which this scenario lists as unselected; "
                        "remove it from the step or from unselected",
                    )
