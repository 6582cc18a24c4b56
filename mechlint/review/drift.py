"""Where the pinned bytes of a changed source are, and what is at its path now: the facts a diff is made from.

A source *drifted* when the bytes of its path (as git stores them, see
:mod:`mechlint.provenance.stored`) are not its pinned bytes: the file was
edited (``modified``), renamed (``renamed``: git's rename detection followed
it to a file HEAD holds), or deleted (``deleted``). The pinned bytes are read
from the commit of history the provenance facts name (the one
``provenance/stale-source`` names); when no commit HEAD reaches holds them,
:attr:`Drift.why` says why, as the provenance rules say it.

Nothing else is a drift: a source whose file holds its pinned bytes, an
unpinned or unsafe source (``check`` reports those), and a frozen copy whose
file is gone while history keeps its bytes (that is what a frozen copy is for).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from mechlint.document.views import quote
from mechlint.provenance.errors import GitError
from mechlint.provenance.pinned import BEYOND_CLONE, FAILED, HISTORY, NO_HISTORY, SUBMODULE, UNREACHABLE, Pinned
from mechlint.records import Record
from mechlint.rules.provenance import digest_mismatch, gone_source, stale_source

if TYPE_CHECKING:
    from mechlint.provenance.source import Source

__all__ = ["CHANGED_RULES", "DELETED", "MODIFIED", "RENAMED", "Drift", "drift_of", "not_compared", "source_pointer"]

#: The findings that say a source's bytes are not its pinned bytes: where a diff is worth showing.
CHANGED_RULES = frozenset({stale_source.META.id, digest_mismatch.META.id, gone_source.META.id})

MODIFIED = "modified"  # the file at the path has other bytes
RENAMED = "renamed"  # the file is gone from the path, and git followed it to a file HEAD holds
DELETED = "deleted"  # the file is gone from the path


class Drift(Record):
    """One source whose current bytes are not its pinned bytes."""

    #: The source's path, as the mechanism cites it.
    path: str
    #: The pinned sha256.
    digest: str
    #: :data:`MODIFIED`, :data:`RENAMED` or :data:`DELETED`.
    status: str
    #: The commit whose tree held the pinned bytes ("" when they were not found: :attr:`why` says why).
    commit: str = ""
    #: ``abc123def456 (2026-06-11, "subject")``: the commit for people.
    described: str = ""
    #: The path (as a source path) that held the pinned bytes in :attr:`commit`.
    pinned_path: str = ""
    #: The pinned bytes (``None`` when not found, or when history holds only a Git LFS pointer to them).
    pinned: bytes | None = None
    #: Why the pinned bytes are not shown, when they are not.
    why: str = ""
    #: The path whose bytes are current: the source's own, or where a rename took it ("" when deleted).
    current_path: str = ""
    current_digest: str = ""
    current_size: int | None = None
    #: The current bytes as git stores them (``None`` when deleted, or larger than is kept in memory).
    current: bytes | None = None
    #: For a renamed or deleted file: what happened, for people ("deleted in commit …").
    gone: str = ""


def drift_of(source: Source) -> Drift | None:
    """The drift of one source, or ``None`` when it has not drifted (or cannot be compared)."""
    if not source.checkable or source.in_working_tree or source.digest is None:
        return None
    if source.present:
        return _with_pinned(source, _current(source, source.path, MODIFIED))
    if source.left_out:
        return None  # neither checked out nor fetched: there are no bytes to compare
    if not source.absent or not source.in_history:
        return None  # never at this path in history: a wrong path (provenance/missing-source), nothing to review
    pinned = source.pinned
    if source.original is not None and pinned is not None and pinned.kind == HISTORY:
        return None  # a frozen copy whose file is gone: history keeps its bytes, as intended
    return _with_pinned(source, _departed(source))


def not_compared(source: Source) -> str:
    """Why a source without a drift (:func:`drift_of` gave ``None``) cannot be compared with its pin, naming the
    rule that reports it; ``""`` when there is nothing to compare: it holds its pinned bytes, or it is a frozen
    copy whose file is gone while history keeps its bytes."""
    if source.in_working_tree:
        return ""
    if source.unsafe:
        return "its path is refused (provenance/unsafe-path)"
    if source.digest is None:
        return "it has no sha256 (provenance/unpinned-source)"
    if not source.pinned_well:
        return "its sha256 is not 64 hexadecimal digits (schema/violation)"
    if source.left_out:
        return "it is outside the sparse checkout, and its bytes are not in the clone (provenance/history-unavailable)"
    if not source.absent or source.in_history:
        return ""
    pinned = source.pinned
    if source.original is not None and pinned is not None and pinned.kind == HISTORY:
        return ""  # a frozen copy whose file is gone: history keeps its bytes, as intended
    return "nothing is at its path, and nothing ever was in HEAD's history (provenance/missing-source)"


def _current(source: Source, path: str, status: str) -> Drift:
    state = source.repository.file_state(path)
    assert source.digest is not None
    return Drift(
        source.path,
        source.digest,
        status,
        current_path=path,
        current_digest=state.sha256,
        current_size=state.size,
        current=state.data,
    )


def _departed(source: Source) -> Drift:
    """A source gone from the working tree: renamed to a file HEAD holds, or deleted."""
    assert source.digest is not None
    departure = source.departure
    history = source.history
    if departure.uncommitted:
        return Drift(source.path, source.digest, DELETED, gone="deleted in the working tree, not committed")
    if departure.moved_to is not None and departure.renames:
        moved = source.repository.file_state(departure.moved_to)
        if moved.kind == "file":
            commit = departure.renames[-1].commit
            return _current(source, departure.moved_to, RENAMED)._replace(
                gone=f"renamed to {quote(departure.moved_to, 200)} in commit {history.describe(commit)}"
            )
    if departure.deleted_in is not None:
        gone = f"deleted in commit {history.describe(departure.deleted_in)}"
        return Drift(source.path, source.digest, DELETED, gone=gone)
    return Drift(source.path, source.digest, DELETED, gone="gone from the working tree")


def _with_pinned(source: Source, drift: Drift) -> Drift:
    """``drift`` with where the pinned bytes are, and those bytes, or why they are not known."""
    pinned = source.pinned
    if pinned is None:
        return drift._replace(why="the pinned bytes could not be looked for")
    if pinned.kind != HISTORY and source.original is not None and source.present:
        claim = source.claim  # a frozen copy with other bytes: its pinned bytes are its original's, in history
        if claim is not None and claim.kind == HISTORY:
            pinned = claim
    if pinned.kind != HISTORY or pinned.revision is None or pinned.revision.blob is None:
        return drift._replace(why=_not_found(source, pinned))
    revision, blob = pinned.revision, pinned.revision.blob
    history = source.history
    drift = drift._replace(
        commit=revision.commit, described=history.describe(revision.commit), pinned_path=source.shown(revision.path)
    )
    content = _blob(source, blob)
    if content is None:
        return drift._replace(why=f"git could not read blob {blob[:12]} of commit {revision.commit[:12]}")
    if hashlib.sha256(content).hexdigest() != source.digest:
        return drift._replace(why="history holds a Git LFS pointer to the pinned bytes, not the bytes themselves")
    return drift._replace(pinned=content)


def _blob(source: Source, blob: str) -> bytes | None:
    history = source.history
    if not history.exists:
        return None
    try:
        for _, kind, content in history.cat.read_many([blob]):
            return content if kind == "blob" else None
    except GitError:
        return None
    return None


def _not_found(source: Source, pinned: Pinned) -> str:
    """Why the pinned bytes are not known, in the words the provenance rules use."""
    shown = quote(source.path, 200)
    if pinned.kind == NO_HISTORY:
        return f"the pinned bytes cannot be looked up: {source.history.unavailable().why}"
    if pinned.kind == FAILED:
        return f"the pinned bytes cannot be looked up: {pinned.error}"
    if pinned.kind == SUBMODULE:
        return f"{shown} is inside the nested repository {quote(pinned.folder, 200)}, whose history is not read"
    if pinned.kind == BEYOND_CLONE:
        unavailable = source.history.unavailable()
        return f"the pinned bytes are not in the history this clone has, as {unavailable.why}: {unavailable.fix}"
    if pinned.kind == UNREACHABLE and pinned.revision is not None:
        return (
            f"only commit {pinned.revision.commit[:12]}, which HEAD does not contain, held the pinned bytes at "
            f"{shown} (history is what HEAD reaches: merge it first)"
        )
    return f"no commit HEAD reaches held the pinned bytes at {shown}: the sha256 is not that of any version of it"


def source_pointer(pointer: str) -> str:
    """``/sources/N`` of a pointer at or inside a source, else ``""``."""
    parts = pointer.split("/")
    return "/".join(parts[:3]) if len(parts) >= 3 and parts[1] == "sources" and parts[2].isdigit() else ""
