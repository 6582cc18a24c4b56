"""Reports step text that an invariant's clause analysis could not judge, where the verdict depends on it.

An invariant such as `invariant/reuse-after-store-and-compare` reads the text
of each step to decide whether it says that the cache key is compared (see
the "Clauses" section of `docs/invariants.md`). Most text it can judge: "B's
key is compared with the entries" counts, "it never checks the key" and "a
later request with an equal key could use it" do not. Some it cannot: a
comparison under a real condition ("if the keys match, ..."), one that is
only required ("the server must compare the keys"), or two negations ("never
fails to compare"). Such text is taken to say what the author meant, so the
invariant does not fail on it; this note says so, at the words, so that the
pass is never silent.

The note is reported by the invariants as they run: it needs the invariant
enabled, and it is reported only where the invariant's verdict depends on
the text (another step that plainly compares the key makes it moot).

Use instead: say plainly what the step does, for example "B's key is
compared with the keys of the cache entries", or "the keys match".
"""

from __future__ import annotations

from mechlint.model import Level
from mechlint.rules import Example, RuleMeta

META = RuleMeta(
    id="invariant/undecided-text",
    level=Level.NOTE,
    summary="An invariant could not judge what a step's text says, and its verdict depends on it.",
    why=(
        "An invariant that cannot read a step must not pass silently: the author should know that the "
        "check rests on words it could not judge, and can say them plainly."
    ),
    location="the words it could not judge, in the step's title, description or state value",
    examples=(
        Example(
            fires=True,
            where="/scenarios/0/steps/2",
            json=(
                '{"title": "B and the cache entry", "description": "If the keys match, B can use the block.", '
                '"duration": 4000, "active": ["b0", "cache0"], "paths": [], '
                '"state": {"stage": "Compare", "artifact": "A cache entry"}}'
            ),
            note="the only step between the store and the reuse compares the key under a condition",
        ),
        Example(
            fires=False,
            where="/scenarios/0/steps/2",
            json=(
                '{"title": "Compare the key", "description": "If the keys match, B can use the block. They match.",'
                ' "duration": 4000, "active": ["b0", "cache0"], "paths": [], '
                '"state": {"stage": "Compare", "artifact": "Same key"}}'
            ),
            note="the step also says plainly that the keys match",
        ),
    ),
    tags=("invariant",),
)
