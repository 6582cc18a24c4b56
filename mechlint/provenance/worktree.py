"""The working tree against the index and a commit, by hashing the bytes.

``git diff`` and ``git status`` against the working tree run a repository's
clean filters (``filter.<name>.clean`` with a ``.gitattributes`` entry): a
program named by the repository. So mechlint asks git only for what the
index and a commit hold (``ls-files``, ``ls-tree``: plumbing that runs
nothing) and compares the working-tree bytes itself, reading only regular
files inside the repository, as git stores them
(:mod:`mechlint.provenance.stored`: line endings converted back, a path a
sparse checkout leaves out taken as its index bytes, a Git LFS file as the
content its pointer names).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Container, Iterable
from typing import TYPE_CHECKING

from mechlint.provenance import gitdir
from mechlint.provenance.paths import lfs_oid, path_problem
from mechlint.provenance.stored import CatFile, Checkout, Entry, Git, blob_id, index_entries, tree_entries

if TYPE_CHECKING:
    from pathlib import Path


def read_entry(top: Path, path: str, mode: str) -> bytes | None:
    """The bytes git would hash for a working-tree entry: a regular file's bytes, a link's target; else ``None``."""
    full = os.path.join(top, path)
    folder = os.path.dirname(full)
    if os.path.realpath(folder) != os.path.normpath(os.path.join(os.path.realpath(top), os.path.dirname(path))):
        return None  # a folder on the way is a link: git would not find this entry there either
    try:
        info = os.lstat(full)
        if stat.S_ISLNK(info.st_mode):
            return os.fsencode(os.readlink(full)) if mode == "120000" else None
        if not stat.S_ISREG(info.st_mode) or mode == "120000":
            return None
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _same_as_is(top: Path, path: str, entry: Entry, skipped: Container[str]) -> bool | bytes:
    """Whether the working-tree entry holds the index entry's bytes as they are; else the bytes that differ.

    A submodule is its own repository (always the same here); a path outside
    the sparse checkout is its index bytes; an unmerged path, or one that is
    missing or not what the index says, differs (``False``).
    """
    mode, oid = entry
    if mode == "160000" or path in skipped:
        return True
    if oid == "conflict":
        return False
    data = read_entry(top, path, mode)
    if data is None:
        return False
    if blob_id(data, oid) == oid:
        return True
    return data if mode != "120000" else False


def _same_as_stored(checkout: Checkout, path: str, oid: str, data: bytes) -> bool:
    """Whether ``data`` is what git stores as ``oid``: its line endings converted back, or the content of an LFS
    pointer (the spec's bytes of a source, :mod:`mechlint.provenance.stored`)."""
    if b"\r\n" in data and blob_id(checkout.stored(path, data), oid) == oid:
        return True
    pointer = checkout.read(oid)
    return lfs_oid(pointer) is not None and lfs_oid(pointer) == hashlib.sha256(data).hexdigest()


def compare(checkout: Checkout, top: Path, paths: Iterable[str]) -> dict[str, bool]:
    """For each path the index holds, whether the working tree holds its bytes as git stores them."""
    index, skipped = checkout.index()
    found: dict[str, bool] = {}
    differing: dict[str, bytes] = {}
    for path in paths:
        verdict = _same_as_is(top, path, index[path], skipped)
        if isinstance(verdict, bytes):
            differing[path] = verdict
        else:
            found[path] = verdict
    for path, data in differing.items():
        found[path] = _same_as_stored(checkout, path, index[path][1], data)
    return found


class Changes:
    """Paths changed since a commit: committed or staged (``staged``), or changed in the working tree.

    ``path in changes`` compares the working-tree file only when asked
    (:meth:`prepare` compares many at once). A path the index does not hold
    is changed when something is at it in the working tree (a new file);
    absent at the commit, in the index and in the working tree, it is not.
    """

    __slots__ = ("_checked", "checkout", "staged", "top")

    def __init__(self, top: Path, staged: set[str], checkout: Checkout) -> None:
        self.top = top
        self.staged = staged
        self.checkout = checkout
        self._checked: dict[str, bool] = {}

    def prepare(self, paths: Iterable[str]) -> None:
        """Compare these paths now (each path once)."""
        index = self.checkout.index()[0]
        wanted = [p for p in dict.fromkeys(paths) if p in index and p not in self.staged and p not in self._checked]
        for path, same in compare(self.checkout, self.top, wanted).items():
            self._checked[path] = not same

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str):
            return False
        if path in self.staged:
            return True
        if path not in self.checkout.index()[0]:
            return path_problem(path) is not None or os.path.lexists(os.path.join(self.top, path))
        if path not in self._checked:
            self.prepare([path])
        return self._checked[path]

    def close(self) -> None:
        self.checkout.close()
        self.checkout.cat.close()


def changes_since(git: Git, cat: CatFile, top: Path, commit: str) -> Changes:
    tree = tree_entries(git, commit)
    checkout = Checkout(git, cat, os.fspath(gitdir.locate(top).git_dir), index_entries(git))
    index = checkout.index()[0]
    staged = {path for path in tree.keys() | index.keys() if tree.get(path) != index.get(path)}
    return Changes(top, staged, checkout)


def is_dirty(git: Git, cat: CatFile, head: str | None) -> bool:
    """Whether any tracked file differs from HEAD, in the index or in the working tree.

    Compared as git stores them (:mod:`mechlint.provenance.stored`): a
    checkout's line-ending conversion, a path outside the sparse checkout and
    a Git LFS file whose content the pointer names are not changes; any other
    filter's output is (mechlint runs no filter), so such a tree counts as
    dirty: the safe answer.
    """
    tree = tree_entries(git, head) if head else {}
    checkout = Checkout(git, cat, os.fspath(gitdir.locate(git.worktree).git_dir), index_entries(git))
    index = checkout.index()[0]
    if tree != index:
        return True
    try:
        return not all(compare(checkout, git.worktree, index).values())
    finally:
        checkout.close()
