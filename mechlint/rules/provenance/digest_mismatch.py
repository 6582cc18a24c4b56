"""Reports a source whose file is (or was) at the path, but whose pinned
sha256 matches neither its current bytes nor any version of it in history
(renames followed backwards; a name the path was renamed to later does not
count). When another path holds the pinned bytes, the message names it, and
the commit in which it held them when it no longer does. When line-ending conversion explains the
difference (the pinned digest is that of the file with LF or CRLF line
endings), the message says so. A Git LFS pointer file matches by its
``oid sha256:`` line.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import NOWHERE
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import (
    CURRENT_POST,
    EXAMPLE_REPOSITORY,
    elsewhere,
    line_endings,
    source_example,
    sources,
    sparse,
)
from mechlint.views import quote

META = RuleMeta(
    id="provenance/digest-mismatch",
    level=Level.ERROR,
    summary="Neither the source file nor any version of it in history has the pinned sha256.",
    why=(
        "The mechanism claims to be made from bytes that the repository never held at that path: the pin is "
        "wrong, or the source is the wrong file."
    ),
    location="the source's `sha256`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/post.md", "0" * 64),
            note=EXAMPLE_REPOSITORY,
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        pinned = source.pinned
        if pinned is None or pinned.kind != NOWHERE:
            continue  # the bytes are found, or whether they are is unknown (provenance/history-unavailable)
        shown = quote(source.path, 200)
        if source.present:
            where = elsewhere(source)
            yield META.finding(
                pointer + "/sha256",
                f"neither the current bytes of {shown} nor any version of it in history have the pinned sha256"
                f"{'; ' + where if where else ''}{line_endings(source)}{sparse(source)}; "
                f"{'fix the path, or ' if where else ''}pin the right file (mechlint pin) after review",
            )
        elif source.revisions:  # with no revision at all, the path is provenance/missing-source
            where = elsewhere(source)
            yield META.finding(
                pointer + "/sha256",
                f"{shown} was in history, but no version of it has the pinned sha256"
                f"{'; ' + where if where else ''}; fix the digest or the path",
            )
