"""Reports a source that does not match the working tree when the history
needed to classify it is missing: a shallow clone, a partial clone, a folder
that is no git repository, or a repository git refuses to read
(``safe.directory``). The message says how to get the history (in GitHub
Actions: ``actions/checkout`` with ``fetch-depth: 0``). mechlint never fetches
anything itself.

Those are documented setups, so the finding is a warning there. When the
repository should have answered and could not (a missing or corrupt object,
a FIFO or a device where git reads a file, a configuration git cannot be kept
from such as an ``include``, git making no progress for 5 seconds), the same
finding is an **error**, whatever level is configured (turn the rule off to
accept that): missing history never turns an error into a pass. The message
names what could not be checked and why. One source gets one finding: a frozen
copy whose file is gone needs history twice (for its own bytes and for its
claim about the original path), and says both in one message.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import OLD_SVG, POST_V2, SHALLOW_CLONE, report, source_example

META = RuleMeta(
    id="provenance/history-unavailable",
    level=Level.WARNING,
    summary="The answer needs git history that this clone does not have.",
    why=(
        "A shallow or partial clone (the default in many CI systems) lacks the commits that hold older bytes;"
        " reporting missing-source or digest-mismatch there would be false."
    ),
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/old.svg", OLD_SVG),
            note=SHALLOW_CLONE,
            setup="shallow",
        ),
        Example(
            fires=False,
            where="/sources",
            json=source_example("content/post.md", POST_V2),
            note=SHALLOW_CLONE,
            setup="shallow",
        ),
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    by_source: dict[str, list[Finding]] = {}
    for finding in report(META, document, context):
        by_source.setdefault(finding.pointer, []).append(finding)
    for pointer, found in by_source.items():
        if len(found) == 1:
            yield found[0]
            continue
        levels = [f.level for f in found if f.level is not None]
        message = "; and ".join(dict.fromkeys(f.message for f in found))
        yield META.finding(pointer, message, level=max(levels) if levels else None)
