"""Reports two targets that share one ``id``.

Two elements with one DOM id make the page invalid HTML, and the renderer
lights only the first of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import quote, targets
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="reference/duplicate-id",
    level=Level.ERROR,
    summary="Two targets share one `id`.",
    why="A DOM id must be unique in a page; with two, the renderer lights only one of the elements.",
    location="the second `id`",
    examples=(
        Example(fires=True, where="/targets/a1/id", json='"mechanism-a0"'),
        Example(fires=False, where="/targets/a1/id", json='"mechanism-a1"'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    first_owner: dict[str, str] = {}
    for key, target in targets(document.data).items():
        target_id = target.get("id")
        if not isinstance(target_id, str):
            continue
        if target_id in first_owner:
            yield META.finding(
                pointer_join(pointer_join("/targets", key), "id"),
                f"the target {quote(key)} has the id {quote(target_id)}, "
                f"which the target {quote(first_owner[target_id])} already uses",
            )
        else:
            first_owner[target_id] = key
