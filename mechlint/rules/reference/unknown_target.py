"""Reports a step or scenario that names a target that ``targets`` lacks.

Each entry of a step's ``active`` and ``paths`` and of a scenario's
``unselected`` must be a key of ``targets``. The message suggests the closest
existing key, so a typo is one edit away from fixed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import quote, readable_path, scenarios, step_entries, strings, targets

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
        Example(fires=False, where="/scenarios/0/steps/0/active", json='["a0"]'),
    ),
)


# Characters that look alike: swapping one for the other is the likeliest typo.
_LOOK_ALIKE = {frozenset(pair) for pair in ("l1", "i1", "o0", "s5", "b8", "z2", "-_")}


def edit_distance(a: str, b: str) -> float:
    """Damerau-Levenshtein distance (optimal string alignment): typos and swaps cost 1.

    Replacing a character by one that looks alike (``l`` and ``1``) costs half.
    """
    previous2: list[float] = []
    previous: list[float] = [float(j) for j in range(len(b) + 1)]
    for i, char_a in enumerate(a, start=1):
        current: list[float] = [float(i)] + [0.0] * len(b)
        for j, char_b in enumerate(b, start=1):
            cost = 0.0 if char_a == char_b else 0.5 if frozenset((char_a, char_b)) in _LOOK_ALIKE else 1.0
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def closest(name: str, candidates: list[str]) -> str | None:
    """The candidate a typo most likely meant, or None when none is close."""
    if len(name) > 200 or not candidates:
        return None
    folded = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in folded:
        return folded[name.lower()]
    limit = max(1, min(3, len(name) // 2))
    scored = [
        (edit_distance(name, candidate), -difflib.SequenceMatcher(None, name, candidate).ratio(), candidate)
        for candidate in candidates
        if abs(len(candidate) - len(name)) <= limit
    ]
    best = min(scored, default=None)
    return best[2] if best is not None and best[0] <= limit else None


def suggestion(name: str, candidates: list[str]) -> str:
    """`` (did you mean "x"?)`` for the closest candidate, or nothing."""
    match = closest(name, candidates)
    return f" (did you mean {quote(match)}?)" if match else ""


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
    for key, item_pointer in entries:
        if key not in root["targets"]:
            yield META.finding(
                item_pointer,
                f"{readable_path(item_pointer)} names the target {quote(key)}, which is not in targets"
                f"{suggestion(key, names)}",
            )
