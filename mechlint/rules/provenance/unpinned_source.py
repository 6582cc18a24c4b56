"""Reports a source without ``sha256``. ``mechlint pin`` adds the digest of
the file's current bytes, after review.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, source_example, sources

META = RuleMeta(
    id="provenance/unpinned-source",
    level=Level.WARNING,
    summary="A source has no `sha256`.",
    why="Without a pinned digest nobody can tell later whether the mechanism still matches its source.",
    location="the source",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/post.md"),
            note=EXAMPLE_REPOSITORY,
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        if source.digest is None and not source.unsafe:
            shown = quote(source.path, 200)
            yield META.finding(pointer, f"the source {shown} has no sha256; run mechlint pin to add it")
