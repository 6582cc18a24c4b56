"""Reports a source whose pinned bytes are an older version of the file at its
path (found in the path's history, renames and merges included), while the
working tree holds other bytes. The message names the commit that holds the
pinned bytes and the commit that changed them (the change HEAD has, not one
made on another branch), or says that the change is not committed yet. When
the file had another name in that commit, the message says it: ``git show
COMMIT:PATH`` gives the pinned bytes. After review, ``mechlint pin`` updates
the digest.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, POST_V1, report, source_example

META = RuleMeta(
    id="provenance/stale-source",
    level=Level.ERROR,
    summary="The pinned bytes are in history, but the file has changed since.",
    why=(
        "The mechanism was made from an older version of its source; what it shows may no longer match the "
        "article, so it needs review."
    ),
    location="the source's `sha256`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/post.md", POST_V1),
            note=EXAMPLE_REPOSITORY,
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    yield from report(META, document, context)
