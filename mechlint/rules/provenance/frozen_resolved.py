"""Reports, as a note, a source whose file is gone from the working tree but
whose pinned bytes this path held in some commit of any ref (or a name the
path had before a rename; for a frozen copy, also its original path). The
message names that commit, and the path when it is not this one: ``git show
COMMIT:PATH`` gives the pinned bytes. Bytes that only some other path held do
not count: that is a mistyped path, ``provenance/missing-source``.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, OLD_SVG, report, source_example

META = RuleMeta(
    id="provenance/frozen-resolved",
    level=Level.NOTE,
    summary="The source is gone from the working tree; its pinned bytes were found in history.",
    why=(
        "Frozen sources may be deleted once a migration is done; the note records where the bytes still live,"
        " so a reviewer can find them."
    ),
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/old.svg", OLD_SVG),
            note=EXAMPLE_REPOSITORY,
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    yield from report(META, document, context)
