"""Reports a source whose file is (or was) at the path, but whose pinned
sha256 matches neither its current bytes nor any version of it in history, the
commits reachable from ``HEAD`` (renames followed backwards; a name the path
was renamed to later does not count). Bytes that only commits ``HEAD`` does
not contain held (an unmerged branch) are said to be there, with the branch,
never a resolution. When another path holds the pinned bytes, the message
names it, and the commit in which it held them when it no longer does; a
gone file's message says which commit deleted it. A frozen copy is told what
it must hold (a version of its original path, byte for byte), never to fix
its path. When line-ending conversion explains the
difference (the pinned digest is that of the file with LF or CRLF line
endings), the message says so. A Git LFS pointer file matches by its
``oid sha256:`` line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import NOWHERE, UNREACHABLE
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import (
    CURRENT_POST,
    EXAMPLE_REPOSITORY,
    elsewhere,
    frozen_copy_advice,
    line_endings,
    source_example,
    sources,
    sparse,
    unreachable,
)
from mechlint.rules.provenance.gone_source import fate

if TYPE_CHECKING:
    from mechlint.provenance.source import Source

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
        if pinned is None or pinned.kind not in (NOWHERE, UNREACHABLE):
            continue  # the bytes are found, or whether they are is unknown (provenance/history-unavailable)
        shown = quote(source.path, 200)
        found = [part for part in (unreachable(source), elsewhere(source)) if part]
        if source.present:
            yield META.finding(
                pointer + "/sha256",
                "; ".join(
                    [
                        f"neither the current bytes of {shown} nor any version of it in the history of HEAD have "
                        f"the pinned sha256{line_endings(source)}{sparse(source)}",
                        *found,
                        _advice(source, bool(found)),
                    ]
                ),
            )
        elif source.in_history:  # a path HEAD's history never held is provenance/missing-source
            gone = [fate(source, source.departure)] if source.original is None else []
            yield META.finding(
                pointer + "/sha256",
                "; ".join(
                    [
                        f"{shown} was in history, but no version of it has the pinned sha256",
                        *gone,
                        *found,
                        _advice(source, bool(found), present=False),
                    ]
                ),
            )


def _advice(source: Source, elsewhere: bool, *, present: bool = True) -> str:
    """What to do: for a frozen copy, what it must hold; on an unmerged branch, merge; else fix the path or pin."""
    pinned = source.pinned
    if source.original is not None:
        return frozen_copy_advice(source)
    if pinned is not None and pinned.kind == UNREACHABLE:
        return "merge that branch first, or pin what HEAD has (mechlint pin) after review"
    if present:
        return f"{'fix the path, or ' if elsewhere else ''}pin the right file (mechlint pin) after review"
    return "fix the digest or the path"
