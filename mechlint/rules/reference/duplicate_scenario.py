"""Reports two scenarios that share one ``id``.

The reader picks a scenario by its id, and links point at it; with two
scenarios of one id, one of them can never be chosen.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import quote, scenarios
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="reference/duplicate-scenario",
    level=Level.ERROR,
    summary="Two scenarios share an `id`.",
    why="Scenarios are chosen and linked by id; a second scenario with the same id can never be shown.",
    location="the second `id`",
    examples=(
        Example(fires=True, where="/scenarios/1/id", json='"compatible-hit"'),
        Example(fires=False, where="/scenarios/1/id", json='"key-miss"'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    first: dict[str, int] = {}
    for index, scenario, pointer in scenarios(document.data):
        scenario_id = scenario.get("id")
        if not isinstance(scenario_id, str):
            continue
        if scenario_id in first:
            yield META.finding(
                pointer_join(pointer, "id"),
                f"scenarios[{index}] has the id {quote(scenario_id)}, "
                f"which scenarios[{first[scenario_id]}] already uses",
            )
        else:
            first[scenario_id] = index
