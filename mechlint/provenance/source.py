"""What is known about one source: the facts the ``provenance/`` rules decide on.

A :class:`Source` is a path and its pinned sha256 in one repository. Each
fact is computed when a rule (or ``pin``, ``attest``, ``verify``) first asks,
and kept: the path's problem or working-tree state, whether the working tree
holds the pinned bytes, :attr:`Source.pinned` (where the pinned bytes are:
the working tree, a commit of history at this path or a name it had before a
rename, a frozen copy's original path, nowhere, or unknowable and why), the
frozen copy's :attr:`~Source.claim`, and, for messages, the path's
revisions, the other paths that hold the bytes, the closest existing name.

:meth:`Source.search` is the one way history is searched for the pinned
bytes; the classification (through :attr:`~Source.pinned`) and
``Provenance.locate`` both use it. Nothing here decides a finding: each rule
module in ``mechlint/rules/provenance/`` does that from these facts.

Long: the facts share what they cache (a path's lineage, the revisions that
hold the pinned bytes), which the rules read in any order; split, each part
would need the others' caches.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import TYPE_CHECKING

from mechlint.provenance import paths
from mechlint.provenance.errors import GitError
from mechlint.provenance.pinned import (
    BEYOND_CLONE,
    FAILED,
    HISTORY,
    NO_HISTORY,
    NOWHERE,
    SUBMODULE,
    UNREACHABLE,
    WORKING_TREE,
    Held,
    Pinned,
)

if TYPE_CHECKING:
    from mechlint.provenance.departure import Departure
    from mechlint.provenance.git import History
    from mechlint.provenance.log import Revision
    from mechlint.provenance.nohistory import NoHistory
    from mechlint.provenance.paths import FileState
    from mechlint.provenance.repository import Repository
    from mechlint.provenance.whereabouts import Holder

DIGEST = re.compile(r"[0-9a-f]{64}")


class Source:
    """One ``(path, sha256)`` in one repository, and the facts about it, each computed once when first asked."""

    def __init__(
        self, repository: Repository, path: str, digest: str | None, original: str | None, *, blob_id: bool = False
    ) -> None:
        self.repository = repository
        self.path = path
        self.digest = digest
        #: For a frozen copy (``research/*/before/**``): its original path, the part the last ``**`` matched.
        self.original = original
        self._blob_id = blob_id
        self._lineages: dict[str, list[Revision]] = {}
        #: Where the pinned bytes are, for each path looked up (this one, its original).
        self._hits: dict[str, Held] = {}

    # -- the path and the working tree ------------------------------------------------------

    @cached_property
    def problem(self) -> str | None:
        """Why the path must not be read at all (then nothing is), or ``None``."""
        return paths.path_problem(self.path)

    @cached_property
    def state(self) -> FileState | None:
        """What is at the path in the working tree; ``None`` when :attr:`problem` forbids looking."""
        if self.problem:
            return None
        return self.repository.file_state(self.path, blob_id=self._blob_id)

    @property
    def unsafe(self) -> bool:
        """Whether the path was refused: before reading (:attr:`problem`), or by what is there (a link out, a FIFO)."""
        return self.state is None or self.state.kind in ("outside", "special", "unreadable")

    @property
    def present(self) -> bool:
        """Whether a regular file is at the path."""
        return self.state is not None and self.state.kind == "file"

    @property
    def absent(self) -> bool:
        """Whether nothing is at the path."""
        return self.state is not None and self.state.kind == "absent"

    @property
    def left_out(self) -> bool:
        """Whether a sparse checkout leaves the path out and a partial clone left its bytes in HEAD out too: its
        bytes are unknown, and it is not gone."""
        return self.absent and self.state is not None and self.state.sparse

    @property
    def pinned_well(self) -> bool:
        """Whether the sha256 is well-formed (a malformed one is ``schema/violation``'s; the path is still judged)."""
        return self.digest is not None and DIGEST.fullmatch(self.digest) is not None

    @property
    def checkable(self) -> bool:
        """A safe path with a well-formed sha256: where its pinned bytes are can be asked."""
        return not self.unsafe and self.pinned_well

    @property
    def in_working_tree(self) -> bool:
        """Whether the file holds the pinned bytes (or is a Git LFS pointer to them)."""
        state = self.state
        if state is None or state.kind != "file" or self.digest is None:
            return False
        return state.sha256 == self.digest or paths.lfs_oid(state.data) == self.digest

    @property
    def line_endings(self) -> str:
        """``with LF line endings`` (or CRLF) when the pinned sha256 is that of the file so converted, else ``""``."""
        data = self.state.data if self.state is not None else None
        return paths.line_ending_variants(data).get(self.digest or "", "")

    # -- where the pinned bytes are -----------------------------------------------------

    @property
    def history(self) -> History | NoHistory:
        return self.repository.history()

    @cached_property
    def pinned(self) -> Pinned | None:
        """Where the pinned bytes are, for a :attr:`checkable` source (``None`` otherwise)."""
        if not self.checkable:
            return None
        if self.in_working_tree:
            return Pinned(WORKING_TREE)
        folder = self.repository.submodule(self.path)
        if folder is not None:
            return Pinned(SUBMODULE, folder=folder)
        return self.search()

    def search(self) -> Pinned:
        """Where history holds the pinned bytes: never :data:`WORKING_TREE` or :data:`SUBMODULE`.

        At this path (or a name it had before a rename); for a frozen copy
        whose file is gone, also at its original path. Bytes that only some
        other path held never count: that is a wrong path, not a source.
        """
        history = self.history
        if not history.exists:
            return Pinned(NO_HISTORY)
        original = self.original
        try:
            own = self._hit(self.path)
            theirs = Held() if own.reached or self.present or original is None else self._hit(original)
        except GitError as error:
            return Pinned(FAILED, error=error)
        if own.reached is not None:
            return Pinned(HISTORY, own.reached)
        if theirs.reached is not None:
            return Pinned(HISTORY, theirs.reached, original)
        if not history.complete:
            return Pinned(BEYOND_CLONE)
        if own.stray is not None:
            return Pinned(UNREACHABLE, own.stray)
        if theirs.stray is not None:
            return Pinned(UNREACHABLE, theirs.stray, original)
        return Pinned(NOWHERE)

    @cached_property
    def claim(self) -> Pinned | None:
        """For a :attr:`checkable` frozen copy: where its pinned bytes are at its original path.

        :data:`HISTORY` (a commit held them there), :data:`WORKING_TREE` (the
        original holds them, not committed yet), :data:`NOWHERE`, or unknown.
        """
        original = self.original
        if original is None or not self.checkable:
            return None
        history = self.history
        if not history.exists:
            return Pinned(NO_HISTORY, original=original)
        try:
            held = self._hit(original)
        except GitError as error:
            return Pinned(FAILED, original=original, error=error)
        if held.reached is not None:
            return Pinned(HISTORY, held.reached, original)
        if self._original_holds_them_now(original):
            return Pinned(WORKING_TREE, original=original)
        if not history.complete:
            return Pinned(BEYOND_CLONE, original=original)
        return Pinned(NOWHERE, original=original) if held.stray is None else Pinned(UNREACHABLE, held.stray, original)

    def _original_holds_them_now(self, original: str) -> bool:
        """Whether the original path holds the pinned bytes in the working tree (not committed yet)."""
        if self._pinned_bytes is None or paths.path_problem(original):
            return False  # only a copy whose own bytes are the pinned ones can be compared
        state = self.repository.file_state(original)
        return state.kind == "file" and state.sha256 == self.digest

    @property
    def _pinned_bytes(self) -> bytes | None:
        """The working-tree bytes when they have the pinned sha256 (they vouch for a blob)."""
        state = self.state
        return state.data if state is not None and state.kind == "file" and state.sha256 == self.digest else None

    @cached_property
    def _working_blob(self) -> str | None:
        """The git blob id of the pinned bytes in the working tree: a blob with that id holds those very bytes."""
        data = self._pinned_bytes
        return paths.git_blob_id(data) if data is not None else None

    def lineage(self, path: str) -> list[Revision]:
        """The revisions of ``path`` and of the names it had before renames, newest first; raises GitError."""
        if path not in self._lineages:
            from mechlint.provenance.whereabouts import lineage

            full = self.repository.prefix + path
            self._lineages[path] = lineage(self.history.path_history(full), full)
        return self._lineages[path]

    @cached_property
    def revisions(self) -> list[Revision]:
        """The revisions of this path on any ref, renames followed (none when git cannot say: see history_error)."""
        return [] if self.history_error is not None else self.lineage(self.path)

    @cached_property
    def history_error(self) -> GitError | None:
        """Why git could not list this path's history, or ``None``: an unknown history is never "none"."""
        try:
            self.lineage(self.path)
        except GitError as error:
            return error
        return None

    @cached_property
    def in_history(self) -> bool:
        """Whether some commit reachable from HEAD held a file at this path (or a name it had before a rename)."""
        from mechlint.provenance.reach import any_reached

        return any_reached(self.history, self.revisions)

    @cached_property
    def departure(self) -> Departure:
        """Where the file went, for a source gone from the working tree (see :mod:`.departure`)."""
        from mechlint.provenance.departure import departure

        return departure(self)

    def _hit(self, path: str) -> Held:
        """The revisions holding the pinned bytes at ``path`` (or a name it had before); raises GitError."""
        if path not in self._hits:
            self._hits[path] = self._pinned_revisions(self.lineage(path))
        return self._hits[path]

    def _pinned_revisions(self, revisions: list[Revision]) -> Held:
        """The newest revision that brought the pinned bytes to the path (a rename does not count) in a commit
        reachable from HEAD, or else the newest in a commit HEAD does not contain."""
        from mechlint.provenance.reach import from_head

        index = self.repository.index()
        if index is None:
            return Held()
        digest = self.digest or ""
        blobs = [r.blob for r in revisions if r.blob]
        digests = index.digests(blobs)
        holding = [r for r in revisions if r.blob and digest in (digests.get(r.blob), index.cache.lfs_of(r.blob))]
        stray = None
        for revision in sorted(holding, key=lambda r: r.previous == r.blob):
            if revision.blob and (revision.blob == self._working_blob or index.verified(revision.blob, digest)):
                if from_head(self.history, revision.commit):
                    return Held(reached=revision)
                stray = stray or revision
        lost = index.absent(blobs) if self.history.complete else []
        if lost:  # a version git cannot read may hold them: no verdict (a shallow or partial clone is told apart)
            revision = next(r for r in revisions if r.blob == lost[0])
            raise GitError(f"git has no object {lost[0][:12]}, the file's bytes in commit {revision.commit[:12]}")
        return Held(stray=stray)

    # -- for messages ---------------------------------------------------------------------

    def shown(self, path: str) -> str:
        """A path from git (relative to the repository's top) as source paths are written."""
        prefix = self.repository.prefix
        return path[len(prefix) :] if prefix and path.startswith(prefix) else path

    @cached_property
    def holders(self) -> list[Holder]:
        """Other paths that hold the pinned bytes at HEAD or held them in a commit (nothing when unknowable)."""
        from mechlint.provenance.whereabouts import holders

        index = self.repository.index()
        if index is None or self.digest is None:
            return []
        try:
            return holders(self.history, index, self.digest, self.repository.prefix, self.path)
        except GitError:
            return []

    def closest_name(self) -> str | None:
        """The existing file (in HEAD or beside the path) the author most likely meant, or ``None``."""
        from mechlint.provenance.whereabouts import nearby_files

        return self.repository.names().closest(self.path, nearby_files(self.repository.base, self.path))
