"""Reports a step or scenario that names a target that ``targets`` lacks.

Each entry of a step's ``active`` and ``paths`` and of a scenario's
``unselected`` must be a key of ``targets``. The message suggests the closest
existing key, so a typo is one edit away from fixed. A key that only looks
like an existing one (a Cyrillic ``с`` for a Latin ``c``, a Greek omicron, a
fullwidth letter, a zero-width space) is named as such, with the code point
of each odd character. An entry is not reported when the target's own key
is the malformed one (``A0`` in ``targets``, ``a0`` in the steps):
``schema/violation`` reports that key.

One mistake is one finding. When the typo is in the key of ``targets``
(``sever``) and the steps agree on the right name (``server``), the finding
is one, at that key, rather than one on every correct entry advising the
typo. The key is taken for the typo when no step names it, the name the
steps use is its closest match, and its ``id`` ends with that name
(``mechanism-server``) or several entries use it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import is_key, quote, readable_path, scenarios, step_entries, strings, targets
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.text.lookalike import closest, edit_distance, skeleton, suggestion

META = RuleMeta(
    id="reference/unknown-target",
    level=Level.ERROR,
    summary="A step lights, or a scenario unselects, a target that does not exist.",
    why=(
        "The renderer looks the key up in the illustration; an unknown key lights nothing, "
        "so the step silently shows less than its text says."
    ),
    location="the bad entry",
    examples=(
        Example(fires=True, where="/scenarios/0/steps/0/active", json='["a0", "ao"]', note="a typo of a0"),
        Example(
            fires=True,
            where="/scenarios/0/steps/0/active",
            json='["\\u04300"]',
            note="a Cyrillic a (U+0430) that looks like the Latin a of a0",
        ),
        Example(fires=False, where="/scenarios/0/steps/0/active", json='["a0"]'),
    ),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    known = targets(document.data)
    root = document.data if isinstance(document.data, dict) else {}
    if not isinstance(root.get("targets"), dict):
        return
    names = list(known)
    entries: list[tuple[str, str]] = []
    for _, scenario, pointer in scenarios(document.data):
        entries.extend((key, item) for _, key, item in strings(scenario.get("unselected"), pointer + "/unselected"))
    for _, lit in step_entries(document):
        entries.extend((key, item) for _, key, item in lit)
    # a malformed target key ("A0") that an entry names well-formed ("a0"): schema/violation reports the key
    misspelt_keys = {skeleton(name).lower() for name in root["targets"] if isinstance(name, str) and not is_key(name)}
    renamed = mistyped_keys(document)
    for key, meant in renamed.items():
        uses = sum(1 for name, _ in entries if name == meant)
        yield META.finding(
            pointer_join("/targets", key),
            f"the target key {quote(key)} is named by no step, while {uses} "
            f"{'entry names' if uses == 1 else 'entries name'} {quote(meant)}, which targets lacks; "
            f"rename the key to {quote(meant)}",
            on_key=True,
        )
    wrong = set(renamed.values())
    for key, item_pointer in entries:
        if key not in root["targets"] and key not in wrong and not (is_key(key) and key in misspelt_keys):
            yield META.finding(
                item_pointer,
                f"{readable_path(item_pointer)} names the target {quote(key)}, which is not in targets"
                f"{suggestion(key, names)}",
            )


def mistyped_keys(document: Document) -> dict[str, str]:
    """``{key: name}``: target keys that are typos of the name the steps use instead (``sever`` for ``server``)."""
    known = targets(document.data)
    counts = Counter(key for _, lit in step_entries(document) for _, key, _ in lit)
    unused = [key for key in known if key not in counts]
    if not unused:
        return {}
    found: dict[str, str] = {}
    for name, uses in counts.items():
        if name in known:
            continue
        key = closest(name, list(known))
        if key is None or key not in unused or key in found:
            continue
        if not is_key(key) and skeleton(key).lower() == name:
            continue  # a malformed key ("A0" for "a0"): schema/violation reports it
        target_id = known[key].get("id")
        id_says_name = isinstance(target_id, str) and target_id.endswith(name) and not target_id.endswith(key)
        id_says_key = isinstance(target_id, str) and target_id.endswith(key)
        if id_says_name or (uses >= 2 and not id_says_key):
            found[key] = name
    return found


__all__ = ["META", "check", "closest", "edit_distance", "mistyped_keys", "suggestion"]
