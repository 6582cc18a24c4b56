"""Reports a target that no step of any scenario lights or animates.

A target that never takes part is drawn but never explained: either a step
forgot it, or it is left over from an earlier version of the diagram.
A target listed in a scenario's ``unselected`` still counts as unused if no
step anywhere lights it.

One mistake is one finding: when a step names a key that ``targets`` lacks
and this target is the key it most likely meant (``"a_to_b"`` for
``a-to-b``), ``reference/unknown-target`` already says so, and fixing that
typo uses this target; it is not reported as unused too.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.jsonscan import pointer_join
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.reference.unknown_target import closest
from mechlint.views import quote, step_entries, targets

META = RuleMeta(
    id="reference/unused-target",
    level=Level.WARNING,
    summary="A target is lit by no step of any scenario.",
    why="A part of the diagram that no step explains is noise for the reader, or a sign that a step is missing.",
    location="the target's key in `targets`",
    examples=(
        Example(
            fires=True,
            where="/targets/extra",
            json='{"id": "mechanism-extra", "kind": "node", "label": "Unused"}',
        ),
        Example(fires=False, where="/targets/a0", json='{"id": "mechanism-a0", "kind": "node", "label": "p1"}'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    used = {key for _, lit in step_entries(document) for _, key, _ in lit}
    known = targets(document.data)
    unused = [key for key in known if key not in used]
    names = list(known)
    # the key that reference/unknown-target suggests for each unknown name a step uses
    meant = {closest(key, names) for key in used if key not in known} if unused else set()
    for key in unused:
        if key not in meant:
            yield META.finding(
                pointer_join("/targets", key),
                f"the target {quote(key)} is not lit or animated by any step; use it in a step or remove it",
                on_key=True,
            )
