"""Reports a target that no step of any scenario lights or animates.

A target that never takes part is drawn but never explained: either a step
forgot it, or it is left over from an earlier version of the diagram.
A target listed in a scenario's ``unselected`` still counts as unused if no
step anywhere lights it. Nothing is reported while a scenario has no steps or
a step's ``active`` or ``paths`` is not an array of keys (``schema/violation``
reports that, and every target would look unused), nor for a malformed key
(``A0``) that steps name in its well-formed spelling (``a0``), nor for the
target that a step's unknown entry most likely means (``ao`` for ``a0``):
``reference/unknown-target`` reports that entry and suggests the target.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import is_key, quote, step_entries, steps_are_whole, targets
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.text.lookalike import closest, skeleton

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
    if not steps_are_whole(document.data):
        return  # a scenario without steps or a step whose active is not an array: schema/violation says so
    used = {key for _, lit in step_entries(document) for _, key, _ in lit}
    used_as_seen = {skeleton(key).lower() for key in used}
    known = list(targets(document.data))
    # a step that names "ao" for "a0" is one mistake: reference/unknown-target reports it, suggesting a0
    meant = {closest(key, known) for key in used.difference(known)}
    used.update(key for key in meant if key is not None)
    for key in known:
        if key in used or (not is_key(key) and skeleton(key).lower() in used_as_seen):
            continue  # a malformed key ("A0") that the steps name well-formed ("a0") is the schema's to report
        yield META.finding(
            pointer_join("/targets", key),
            f"the target {quote(key)} is not lit or animated by any step; use it in a step or remove it",
            on_key=True,
        )
