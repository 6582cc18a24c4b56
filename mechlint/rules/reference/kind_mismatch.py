"""Reports a step that lights an edge as a node, or animates a node as a path.

A step's ``active`` lists nodes (boxes) and its ``paths`` lists edges
(arrows). Naming a target of the other kind draws the wrong element.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import quote, readable_path, step_entries, target_kind, targets
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

EXPECTED = {"active": "node", "paths": "edge"}
ARTICLE = {"node": "a", "edge": "an"}

META = RuleMeta(
    id="reference/kind-mismatch",
    level=Level.ERROR,
    summary="`active` names an edge, or `paths` names a node.",
    why="Nodes are lit and edges are animated; a target in the wrong list is drawn the wrong way or not at all.",
    location="the bad entry",
    examples=(
        Example(fires=True, where="/scenarios/0/steps/0/paths", json='["a0"]', note="a0 is a node"),
        Example(fires=False, where="/scenarios/0/steps/0/paths", json='["store0"]'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    known = targets(document.data)
    for _, lit in step_entries(document):
        for field_name, key, item_pointer in lit:
            kind = target_kind(known[key]) if key in known else None
            expected = EXPECTED[field_name]
            if kind in ARTICLE and kind != expected:
                other = "paths" if field_name == "active" else "active"
                yield META.finding(
                    item_pointer,
                    f"{readable_path(item_pointer)} names {quote(key)}, which is {ARTICLE[kind]} {kind}; "
                    f"{field_name} takes {expected}s, so move it to {other}",
                )
