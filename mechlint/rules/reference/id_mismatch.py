"""Reports a target whose ``id`` is not the prefix followed by its key.

The rendered illustration finds a target's element by its DOM id. By
convention the id is ``mechanism-`` plus the target's key, so that the key
and the element can never drift apart. The prefix is an option. A malformed
key whose well-formed spelling the id follows (``A0`` with the id
``mechanism-a0``) is left to ``schema/violation``, which reports the key, and
a mistyped key whose id follows the name the steps use (``sever`` with the
id ``mechanism-server``) to ``reference/unknown-target``, which reports the key.
A malformed key's well-formed spelling is its look-alike letters made Latin,
lower case, with each run of other characters made one hyphen (``page fault``
→ ``page-fault``), so an id that follows it is left alone too. When the id
follows neither, the message points at the key, which no id can follow, and
names the key and id to write; it never suggests an id with a space.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import is_key, quote, targets
from mechlint.model import Finding, Level
from mechlint.rules import Example, Option, RuleContext, RuleMeta
from mechlint.rules.reference.unknown_target import mistyped_keys
from mechlint.text.lookalike import explain, skeleton

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
            well_formed = key if is_key(key) else well_formed_key(key)
            if well_formed != key and target_id == prefix + well_formed:
                continue  # the key is the malformed one ("A0", "page fault"): schema/violation reports it
            if key in mistyped and target_id == prefix + mistyped[key]:
                continue  # the key is a typo of the name the steps use: reference/unknown-target reports it
            pointer = pointer_join(pointer_join("/targets", key), "id")
            if well_formed != key:
                rename = f"rename it to {quote(well_formed)} and" if well_formed else "rename it to a key and"
                yield META.finding(
                    pointer,
                    f"the target {quote(key)} has the id {quote(target_id)}, but no id can follow its key: "
                    f"{quote(key)} is not a well-formed key (a lowercase letter, then lowercase letters, digits, "
                    f"_ or -); {rename} give the target the id "
                    + (quote(prefix + well_formed) if well_formed else f"{quote(prefix)} followed by the new key"),
                )
                continue
            yield META.finding(
                pointer,
                f"the target {quote(key)} has the id {quote(target_id)}; expected {quote(prefix + key)}"
                + (f" ({alike})" if (alike := explain(target_id, prefix + key)) else ""),
            )


def well_formed_key(key: str) -> str:
    """The well-formed key a malformed one is most likely meant to be (``A0`` → ``a0``, ``page fault`` →
    ``page-fault``), or "" when none is (``_`` alone, ``0a``)."""
    hyphenated = re.sub(r"[^a-z0-9_-]+", "-", skeleton(key).lower()).strip("-")
    return hyphenated if hyphenated and is_key(hyphenated) else ""
