"""Reports a target whose ``id`` is not the prefix followed by its key.

The rendered illustration finds a target's element by its DOM id. By
convention the id is ``mechanism-`` plus the target's key, so that the key
and the element can never drift apart. The prefix is an option. A malformed
key whose well-formed spelling the id follows (``A0`` with the id
``mechanism-a0``) is left to ``schema/violation``, which reports the key, and
a mistyped key whose id follows the name the steps use (``sever`` with the
id ``mechanism-server``) to ``reference/unknown-target``, which reports the key.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.jsonscan import pointer_join
from mechlint.lookalike import explain, skeleton
from mechlint.model import Finding, Level
from mechlint.rules import Example, Option, RuleContext, RuleMeta
from mechlint.rules.reference.unknown_target import mistyped_keys
from mechlint.views import is_key, quote, targets

META = RuleMeta(
    id="reference/id-mismatch",
    level=Level.ERROR,
    summary="A target's `id` is not the configured prefix followed by its key.",
    why="The renderer finds the element by its id; an id that does not follow the key lights the wrong element.",
    location="the `id` value",
    options=(Option("prefix", "string", "mechanism-", "What every target id starts with, before the key."),),
    examples=(
        Example(fires=True, where="/targets/a0/id", json='"mechanism-a1"'),
        Example(fires=False, where="/targets/a0/id", json='"mechanism-a0"'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    prefix = context.options.get("prefix", "mechanism-")
    mistyped = mistyped_keys(document)
    for key, target in targets(document.data).items():
        target_id = target.get("id")
        if isinstance(target_id, str) and target_id != prefix + key:
            if not is_key(key) and target_id == prefix + skeleton(key).lower():
                continue  # the key is the malformed one ("A0"): schema/violation reports it
            if key in mistyped and target_id == prefix + mistyped[key]:
                continue  # the key is a typo of the name the steps use: reference/unknown-target reports it
            pointer = pointer_join(pointer_join("/targets", key), "id")
            yield META.finding(
                pointer,
                f"the target {quote(key)} has the id {quote(target_id)}; expected {quote(prefix + key)}"
                + (f" ({alike})" if (alike := explain(target_id, prefix + key)) else ""),
            )
