"""The folder sources are relative to, and (opened when first needed) the history of the repository holding it.

A folder outside any repository, or a repository git cannot or may not read,
has a :class:`~mechlint.provenance.nohistory.NoHistory`: every caller asks
the same questions of either.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.provenance import paths
from mechlint.provenance.errors import GitError
from mechlint.provenance.gitdir import git_toplevel as git_toplevel  # where callers have found it
from mechlint.provenance.nohistory import NoHistory

if TYPE_CHECKING:  # git, its blob index and the SQLite cache are imported when history is first needed
    from mechlint.provenance.git import History
    from mechlint.provenance.index import BlobIndex
    from mechlint.provenance.stored import Checkout
    from mechlint.provenance.whereabouts import Names


class Repository:
    """One folder sources are relative to, and what a run learns about it (kept for the run)."""

    __slots__ = (
        "_checkout",
        "_files",
        "_history",
        "_index",
        "_names",
        "_sparse",
        "base",
        "many",
        "refs_key",
        "states",
        "submodules",
        "toplevel",
    )

    def __init__(self, base: Path, toplevel: Path | None, *, many: bool = False) -> None:
        self.base = base
        self.toplevel = toplevel
        #: A run of many files (see ``History.many_files``).
        self.many = many
        #: What the answers depend on, for the result cache (see ``Provenance.cache_key``).
        self.refs_key: str | None = None
        self.states: dict[str, str] = {}
        #: Whether a folder of the repository (relative to ``base``) holds a ``.git``: remembered for the run.
        self.submodules: dict[str, bool] = {}
        #: What :func:`hash_source` found at each path (read once a run: by the cache key and by the rules).
        self._files: dict[str, paths.FileState] = {}
        self._history: History | NoHistory | None = None
        self._checkout: Checkout | None = None
        self._sparse: bool | None = None
        self._index: BlobIndex | None = None
        self._names: Names | None = None

    @property
    def prefix(self) -> str:
        """``base`` relative to the repository's top, with a trailing ``/`` (``""`` at the top)."""
        if self.toplevel is None or self.base == self.toplevel:
            return ""
        return self.base.relative_to(self.toplevel).as_posix() + "/"

    def file_state(self, path: str, *, blob_id: bool = False) -> paths.FileState:
        """The bytes of the source at ``path`` (which passed ``path_problem``), read once a run.

        The one definition of "the bytes of a source" (``check``, ``pin``, the
        language server and the result cache's key all read them here): the
        working-tree bytes with their line endings as git stores them, or for
        a path a sparse checkout leaves out, its bytes in HEAD
        (:mod:`mechlint.provenance.stored`). With ``blob_id`` the state has
        the git blob id of those bytes too.
        """
        state = self._files.get(path)
        if state is None or (blob_id and state.kind == "file" and not state.git_blob):
            form = self.object_format() if blob_id else "sha1"
            read = paths.hash_source(self.base, path, blob_id=blob_id, object_format=form)
            state = self._files[path] = self._stored(path, read, blob_id)
        return state

    def object_format(self) -> str:
        """The hash of git's object ids here, ``"sha1"`` or ``"sha256"`` (a blob id is git's own, as ``git
        hash-object`` gives it); ``"sha1"`` without history."""
        history = self.history()
        if not history.exists:
            return "sha1"
        head = history.state().head
        if head is not None:
            return "sha256" if len(head) == 64 else "sha1"
        try:  # no commit yet: git says
            answer = history.git.run("rev-parse", "--show-object-format", check=False)
        except GitError:
            return "sha1"
        return "sha256" if answer.strip() == b"sha256" else "sha1"

    def _stored(self, path: str, state: paths.FileState, blob_id: bool) -> paths.FileState:
        if self.toplevel is None or not (state.kind == "absent" or state.crlf):
            return state  # nothing git could store otherwise: the common case costs nothing
        if state.kind == "absent" and not self._may_leave_out(self.toplevel):
            return state  # gone: no index entry can be skip-worktree (no history opened to learn it)
        checkout = self.checkout()
        if checkout is None:
            return state
        from mechlint.provenance.stored import source_state

        try:
            return source_state(checkout, self.base, path, self.prefix + path, state, blob_id)
        except GitError:
            return state  # git could not say: the bytes as they are (history's own failure is reported by the rules)

    def _may_leave_out(self, toplevel: Path) -> bool:
        """Whether the index can mark a path skip-worktree (format 3 or later), read without git, once a run."""
        if self._sparse is None:
            from mechlint.provenance.gitdir import locate
            from mechlint.provenance.stored import index_version

            try:
                self._sparse = index_version(os.fspath(locate(toplevel).git_dir)) >= 3
            except GitError:
                self._sparse = False
        return self._sparse

    def checkout(self) -> Checkout | None:
        """How the working tree stands for what git stores (``None`` without history)."""
        history = self.history()
        if self._checkout is None and history.exists:
            from mechlint.provenance.stored import Checkout

            self._checkout = Checkout(history.git, history.cat, os.fspath(history.git_dir))
        return self._checkout

    def history(self) -> History | NoHistory:
        if self._history is None:
            self._history = self._open()
        return self._history

    def _open(self) -> History | NoHistory:
        if self.toplevel is None:
            return NoHistory("the folder is not in a git repository")
        from mechlint.provenance import early
        from mechlint.provenance.git import open_history

        try:
            history = early.take(self.toplevel) or open_history(self.toplevel)
        except GitError as error:
            return NoHistory(str(error), error.broken, error.fix)
        from mechlint.provenance.cache import BlobCache

        history.answers = BlobCache(history.common_dir)  # git's answers are kept between runs beside the digests
        history.many_files = self.many
        return history

    def index(self) -> BlobIndex | None:
        """The digests of the blobs of history (``None`` without history)."""
        history = self.history()
        if self._index is None and history.exists and history.answers is not None:
            from mechlint.provenance.index import BlobIndex

            self._index = BlobIndex(history, history.answers)
        return self._index

    def names(self) -> Names:
        """The files of HEAD inside ``base``, as source paths, indexed once a run for "did you mean"."""
        from mechlint.provenance.whereabouts import Names

        if self._names is None:
            history = self.history()
            head = history.state().head
            try:
                tree = history.tree(head) if head else {}
            except GitError:
                tree = {}
            prefix = self.prefix
            self._names = Names(path[len(prefix) :] for path in tree if path.startswith(prefix))
        return self._names

    def submodule(self, path: str) -> str | None:
        """The folder of a nested repository (a submodule) that holds ``path``, if any."""
        parts = path.split("/")[:-1]
        known = self.submodules
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder not in known:
                known[folder] = os.path.exists(os.path.join(self.base, folder, ".git"))
            if known[folder]:
                return folder
        return None

    def flush(self) -> None:
        """Write the digests kept in memory (see ``BlobCache.flush``)."""
        if self._history is not None and self._history.answers is not None:
            self._history.answers.flush()

    def close(self) -> None:
        self.flush()
        if self._checkout is not None:
            self._checkout.close()
        if self._history is not None:  # opened
            self._history.close()
            if self._history.answers is not None:
                self._history.answers.close()


def refs_key(toplevel: Path | None) -> str:
    """What a repository's history answers depend on, for the result cache: as ``History.refs_key``.

    The refs, HEAD and the objects the clone has
    (:func:`~mechlint.provenance.gitdir.objects_state`: a shallow clone's
    boundary, a partial clone's packs), without opening the history.
    """
    if toplevel is None:
        return "no repository"
    from mechlint.provenance import gitdir
    from mechlint.provenance.git import Git

    try:
        git = Git(toplevel)
        partial = git.vet().partial
        refs = git.run("for-each-ref", "--format=%(objectname) %(refname)")  # refs git cannot read: unreadable
        head = git.run("rev-parse", "--verify", "--quiet", "HEAD", check=False)
        objects = gitdir.objects_state(gitdir.locate(toplevel), partial).encode()
    except GitError as error:
        return f"unreadable: {error}"
    import hashlib

    return hashlib.sha256(refs + b"\0" + head + b"\0" + objects).hexdigest()
