"""Where a source that is gone from the working tree went: the facts a rule names, and a later fix applies.

A path leaves the history of ``HEAD`` in a commit that deletes it. git's
rename detection (``-M``, on that commit against its first parent) says
whether the same file went on under another name; renames are followed on
(a file renamed twice) until a name ``HEAD`` holds, or one deleted for good.
:class:`Departure` keeps what a message, and a later fix that rewrites the
path, needs: the commits, the path the file has at ``HEAD``, and whether that
file still holds the pinned bytes (then the new path is the whole fix).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from mechlint.provenance.errors import GitError
from mechlint.provenance.reach import from_head
from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.provenance.git import History
    from mechlint.provenance.log import Revision
    from mechlint.provenance.nohistory import NoHistory
    from mechlint.provenance.repository import Repository

#: Renames followed at most, one after another (a file moved more often than this is reported where it was last seen).
MAX_RENAMES = 8


class Source(Protocol):
    """What a departure reads of a source (:class:`mechlint.provenance.source.Source`, which imports this module)."""

    @property
    def repository(self) -> Repository: ...
    @property
    def path(self) -> str: ...
    @property
    def digest(self) -> str | None: ...
    @property
    def history(self) -> History | NoHistory: ...
    @property
    def revisions(self) -> list[Revision]: ...
    @property
    def pinned_well(self) -> bool: ...
    def lineage(self, path: str) -> list[Revision]: ...
    def shown(self, path: str) -> str: ...


class Rename(Record):
    """A commit that renamed the file, and the name (as a source path) it gave it."""

    commit: str
    to: str


class Departure(Record):
    """How a source's path left the history of HEAD, as far as git can tell."""

    #: The commit (reachable from HEAD) that removed the path; ``None`` when HEAD still holds the file (it was
    #: deleted in the working tree, and that is not committed) or when git could not say.
    removed_in: str | None
    #: The renames, in order (the first is in ``removed_in``).
    renames: tuple[Rename, ...] = ()
    #: The path (as a source path) the renames led to, when HEAD holds a file there: the path to cite now.
    moved_to: str | None = None
    #: The commit that deleted the file for good (after any renames); ``None`` when it is at ``moved_to``.
    deleted_in: str | None = None
    #: Whether the file at ``moved_to`` holds the pinned bytes at HEAD: then rewriting the path is the whole fix.
    holds_pinned: bool = False
    #: HEAD holds the path: the file was deleted in the working tree only.
    uncommitted: bool = False


def departure(source: Source) -> Departure:
    """Where the file of ``source`` (gone from the working tree, a path of HEAD's history) went."""
    history = source.history
    head = history.state().head
    full = source.repository.prefix + source.path
    try:
        tree = history.tree(head) if head else {}
        if full in tree:
            return Departure(None, uncommitted=True)
        removal = _removal(source, source.revisions, full)
        if removal is None:
            return Departure(None)
        renamed: list[Rename] = []
        path, commit = full, removal
        deleted: str | None = None
        for _ in range(MAX_RENAMES):
            new = _renamed_to(source, commit, path)
            if new is None:
                deleted = commit  # no file went on from it: deleted for good
                break
            renamed.append(Rename(commit, source.shown(new)))
            path = new
            prefix = source.repository.prefix
            if not path.startswith(prefix):
                break  # moved out of the folder source paths are relative to: no source path names it
            if path in tree:
                return Departure(
                    removal, tuple(renamed), moved_to=source.shown(path), holds_pinned=_holds(source, tree[path])
                )
            later = _removal(source, source.lineage(path[len(prefix) :]), path)
            if later is None:
                break  # git cannot say what became of it
            commit = later
        return Departure(removal, tuple(renamed), deleted_in=deleted)
    except GitError:
        return Departure(None)


def _removal(source: Source, revisions: list[Revision], path: str) -> str | None:
    """The newest commit reachable from HEAD that deleted ``path`` (git path), or ``None``."""
    for revision in revisions:
        if revision.path == path and revision.blob is None and from_head(source.history, revision.commit):
            return revision.commit
    return None


def _renamed_to(source: Source, commit: str, path: str) -> str | None:
    """The path ``commit`` renamed ``path`` to, as git's rename detection pairs them, or ``None``."""
    for change in source.history.changes(commit):
        if change.origin == path and change.path != path and change.blob is not None:
            return change.path
    return None


def _holds(source: Source, blob: str) -> bool:
    """Whether ``blob`` has the pinned bytes of ``source`` (a well-formed pin, verified by reading the blob)."""
    index = source.repository.index()
    if index is None or not source.pinned_well or source.digest is None:
        return False
    return index.verified(blob, source.digest)
