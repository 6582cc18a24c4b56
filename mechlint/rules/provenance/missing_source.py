"""Reports a source whose path names nothing in the working tree and nothing
in the history of any ref (renames followed). When the clone lacks history
(shallow or partial, or no git repository) the answer is unknown, and
``provenance/history-unavailable`` is reported instead: never a false
``missing-source``.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, report, source_example

META = RuleMeta(
    id="provenance/missing-source",
    level=Level.ERROR,
    summary="Nothing is at the source path, and nothing ever was in git history.",
    why="A source that never existed cannot back the mechanism: the path has a typo, or the file was never committed.",
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/psot.md", "0" * 64),
            note=EXAMPLE_REPOSITORY,
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    yield from report(META, document, context)
