"""The working tree against the index and a commit, by hashing the bytes.

``git diff`` and ``git status`` against the working tree run a repository's
clean filters (``filter.<name>.clean`` with a ``.gitattributes`` entry): a
program named by the repository. So mechlint asks git only for what the
index and a commit hold (``ls-files``, ``ls-tree``: plumbing that runs
nothing) and compares the working-tree bytes itself, reading only regular
files inside the repository.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.provenance.paths import lfs_oid

if TYPE_CHECKING:
    from pathlib import Path

    from mechlint.provenance.git import CatFile, Git

Entry = tuple[str, str]  # (mode, object id)


def _entries(output: bytes, *, tree: bool) -> Iterator[tuple[str, Entry, str]]:
    """``(path, (mode, oid), tag)`` from ``ls-tree -r -z`` or ``ls-files -s -t -z`` output."""
    for record in output.split(b"\0"):
        meta, tab, raw = record.partition(b"\t")
        if not tab:
            continue
        fields = meta.decode("ascii", "replace").split()
        path = raw.decode("utf-8", "surrogateescape")
        if tree and len(fields) == 3:
            yield path, (fields[0], fields[2]), ""
        elif not tree and len(fields) == 4:
            tag, mode, oid, stage = fields
            yield path, (mode, oid if stage == "0" else "conflict"), tag


def tree_entries(git: Git, commit: str) -> dict[str, Entry]:
    output = git.run("ls-tree", "-r", "-z", "--full-tree", commit)
    return {path: entry for path, entry, _ in _entries(output, tree=True)}


def index_entries(git: Git) -> tuple[dict[str, Entry], set[str]]:
    """What the index holds, and the paths marked skip-worktree (sparse checkout: not in the working tree)."""
    output = git.run("ls-files", "-s", "-t", "-z")
    entries: dict[str, Entry] = {}
    skipped: set[str] = set()
    for path, entry, tag in _entries(output, tree=False):
        entries[path] = entry
        if tag == "S":
            skipped.add(path)
    return entries, skipped


def blob_id(data: bytes, oid: str) -> str:
    """The git blob id of ``data`` in the object format of ``oid`` (SHA-1 or SHA-256)."""
    algorithm = hashlib.sha256 if len(oid) == 64 else hashlib.sha1
    return algorithm(b"blob %d\0" % len(data) + data).hexdigest()


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


def matches(top: Path, path: str, entry: Entry) -> bool:
    """Whether the working-tree entry has exactly the bytes of the index entry (submodules always match)."""
    mode, oid = entry
    if mode == "160000":
        return True
    if oid == "conflict":
        return False
    data = read_entry(top, path, mode)
    return data is not None and blob_id(data, oid) == oid


class Changes:
    """Paths changed since a commit: committed or staged (``staged``), or changed in the working tree.

    ``path in changes`` hashes the working-tree file only when asked; a path
    the index does not hold (new, or gone) counts as changed.
    """

    __slots__ = ("_checked", "index", "staged", "top")

    def __init__(self, top: Path, staged: set[str], index: dict[str, Entry]) -> None:
        self.top = top
        self.staged = staged
        self.index = index
        self._checked: dict[str, bool] = {}

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str):
            return False
        if path in self.staged or path not in self.index:
            return True
        if path not in self._checked:
            self._checked[path] = not matches(self.top, path, self.index[path])
        return self._checked[path]


def changes_since(git: Git, top: Path, commit: str) -> Changes:
    tree = tree_entries(git, commit)
    index, _ = index_entries(git)
    staged = {path for path in tree.keys() | index.keys() if tree.get(path) != index.get(path)}
    return Changes(top, staged, index)


def is_dirty(git: Git, cat: CatFile, head: str | None) -> bool:
    """Whether any tracked file differs from HEAD, in the index or in the working tree.

    A checkout's line-ending conversion and a Git LFS file whose bytes the
    pointer names are not changes; any other filter's output is (mechlint
    does not run filters), so such a tree counts as dirty: the safe answer.
    """
    tree = tree_entries(git, head) if head else {}
    index, skipped = index_entries(git)
    if tree != index:
        return True
    top = git.worktree
    suspects: dict[str, bytes] = {}
    for path, (mode, oid) in index.items():
        if mode == "160000" or path in skipped:
            continue
        data = read_entry(top, path, mode)
        if data is None or oid == "conflict":
            return True
        if blob_id(data, oid) == oid:
            continue
        if b"\r\n" in data and blob_id(data.replace(b"\r\n", b"\n"), oid) == oid:
            continue
        suspects[oid] = data
    for oid, kind, content in cat.read_many(list(suspects)):
        if kind != "blob" or content is None or lfs_oid(content) != hashlib.sha256(suspects[oid]).hexdigest():
            return True
    return False
