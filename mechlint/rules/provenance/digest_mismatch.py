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
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import NOWHERE, UNREACHABLE
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, elsewhere, line_endings, source_example, sources
from mechlint.rules.provenance.gone_source import fate
from mechlint.views import quote

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
        where = elsewhere(source)
        off = f"; {off_head(source)}" if pinned.kind == UNREACHABLE else ""
        if source.present:
            yield META.finding(
                pointer + "/sha256",
                f"neither the current bytes of {shown} nor any version of it in the history of HEAD have the pinned "
                f"sha256{off}{'; ' + where if where else ''}{line_endings(source)}; {_advice(source, where)}",
            )
        elif source.in_history:  # a path HEAD's history never held is provenance/missing-source
            gone = f"; {fate(source, source.departure)}" if source.original is None else ""
            yield META.finding(
                pointer + "/sha256",
                f"{shown} was in history, but no version of it has the pinned sha256{gone}{off}"
                f"{'; ' + where if where else ''}; {_advice(source, where, present=False)}",
            )


def off_head(source: Source) -> str:
    """``the pinned bytes are at this path in commit C, on branch "x", which HEAD does not contain``."""
    from mechlint.provenance.reach import refs_holding

    pinned = source.pinned
    if pinned is None or pinned.revision is None:
        return ""
    history = source.history
    commit = pinned.revision.commit
    at = "this path" if pinned.original is None else f"its original path {quote(pinned.original, 200)}"
    return (
        f"the pinned bytes are at {at} in commit {history.describe(commit)}, on {refs_holding(history, commit)}, "
        "which HEAD does not contain (merge it, or pin what HEAD has after review)"
    )


def _advice(source: Source, where: str, *, present: bool = True) -> str:
    """What to do: for a frozen copy, what it must hold; else fix the path, or pin the right bytes."""
    if source.original is not None:
        original = quote(source.original, 200)
        return (
            f"a frozen copy must hold, byte for byte, what {original} held before the migration, and pin that: "
            f"restore those bytes to the copy (git show COMMIT:{source.original}), never re-pin an edited copy"
        )
    if present:
        return f"{'fix the path, or ' if where else ''}pin the right file (mechlint pin) after review"
    return "fix the digest or the path"
