"""Reports a target whose ``label`` is empty or only white space.

The label is the visible name of a box or arrow and the name a screen reader
announces for it.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.jsonscan import pointer_join
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import quote, targets

META = RuleMeta(
    id="a11y/label-missing",
    level=Level.ERROR,
    summary="A target's `label` is empty or only white space.",
    why=(
        "Every part of the diagram needs a name that is shown and announced "
        "(WCAG 2.2, 1.1.1 and 4.1.2 Name, Role, Value)."
    ),
    location="the target's `label`",
    examples=(
        Example(fires=True, where="/targets/a0/label", json='""'),
        Example(fires=False, where="/targets/a0/label", json='"A block 0"'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for key, target in targets(document.data).items():
        label = target.get("label")
        if isinstance(label, str) and not label.strip():
            yield META.finding(
                pointer_join(pointer_join("/targets", key), "label"),
                f"the target {quote(key)} has an empty label; name what the box or arrow is",
            )
