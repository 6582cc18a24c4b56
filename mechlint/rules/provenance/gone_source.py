"""Reports a source that is not a frozen copy and is gone from the working
tree, while its pinned bytes were at this path, or a name it had before a
rename, in a commit reachable from ``HEAD``: the mechanism cites a file that
readers following the citation will not find. Usually ``HEAD`` and the index
no longer hold it either; a deletion that is not committed yet (``HEAD`` still
holds the file) is reported too, and said to be one.

The message says where the file went. When git's rename detection finds that
the commit that removed it moved it to another path (followed through later
renames to the name ``HEAD`` holds), it names that path and the commit, says
whether the file there still holds the pinned bytes, and offers the new path
as the fix (then ``mechlint pin`` after review, when the bytes changed). When
the file was deleted, it names the commit that deleted it, and the commit
that holds the pinned bytes (``git show COMMIT:PATH``).

A source with no ``sha256``, or a malformed one, whose path was in history
and is gone is reported too: one mistake never hides another.

A frozen copy (a path under ``research/<name>/before/``) may be gone once the
migration is done: that is ``provenance/frozen-resolved``, a note. Bytes that
only a commit ``HEAD`` does not contain held (an unmerged branch) do not count:
that is ``provenance/digest-mismatch`` or ``provenance/missing-source``, and
the message says where they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import HISTORY
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, OLD_SVG, source_example, sources
from mechlint.rules.provenance.frozen_resolved import held

if TYPE_CHECKING:
    from mechlint.provenance.departure import Departure
    from mechlint.provenance.source import Source

META = RuleMeta(
    id="provenance/gone-source",
    level=Level.WARNING,
    summary="The source is gone from the working tree; readers following the citation find nothing.",
    why=(
        "A mechanism cites its source so that a reader can check it. A file that was deleted or renamed after it "
        "was pinned leaves the citation pointing at nothing: cite the file where it lives now, restore it, or "
        "keep a frozen copy."
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
    for pointer, source in sources(document, context):
        if _gone(source):
            yield META.finding(pointer + "/path", _message(source))


def _gone(source: Source) -> bool:
    """Not a frozen copy, nothing at the path, and the path (with its pinned bytes, when pinned) in HEAD's history."""
    if source.original is not None or source.unsafe or not source.absent:
        return False
    if not source.pinned_well:
        return source.in_history
    pinned = source.pinned
    return pinned is not None and pinned.kind == HISTORY and pinned.revision is not None


def _message(source: Source) -> str:
    shown = quote(source.path, 200)
    gone = source.departure
    if gone.uncommitted:
        return (
            f"{shown} was deleted from the working tree, and the deletion is not committed (HEAD still holds it); "
            "once it is, readers following the citation find nothing: restore the file (git restore), or cite "
            "where its content lives now"
        )
    where = f"{shown} is gone from the working tree: {fate(source, gone)}; readers following the citation find nothing"
    if gone.moved_to is not None:
        new = quote(gone.moved_to, 200)
        if gone.holds_pinned:
            return f"{where}: change the path to {new}"
        return f"{where}: change the path to {new}, then review the mechanism against it and run mechlint pin"
    pinned = source.pinned
    kept = ""
    if pinned is not None and pinned.kind == HISTORY and pinned.revision is not None:
        kept = f"; its pinned bytes were {held(source, pinned.revision, None)}"
    return f"{where}{kept}: restore the file, cite where its content lives now, or keep a frozen copy of it"


def fate(source: Source, gone: Departure) -> str:
    """``commit C deleted it``, ``commit C renamed it to "X", which still holds the pinned bytes``, and the like."""
    describe = source.history.describe
    if gone.removed_in is None:
        return "git could not say which commit removed it"
    if not gone.renames:
        return f"commit {describe(gone.removed_in)} deleted it"
    moves = ", then ".join(
        f"commit {describe(rename.commit)} renamed {'it' if n == 0 else 'that'} to {quote(rename.to, 200)}"
        for n, rename in enumerate(gone.renames)
    )
    if gone.moved_to is not None:
        if gone.holds_pinned:
            return f"{moves}, which still holds the pinned bytes"
        return f"{moves}, which no longer holds the pinned bytes" if source.pinned_well else moves
    deleted = f", and commit {describe(gone.deleted_in)} deleted that" if gone.deleted_in else ""
    return f"{moves}{deleted}"
