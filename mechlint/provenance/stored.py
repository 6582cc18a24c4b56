"""The bytes of a source: what git stores for its path, the one definition ``check``, ``pin``, ``--since`` use.

A source's bytes are its working-tree bytes with their line endings as git
stores them: what ``core.autocrlf`` and the ``text``/``eol``/``crlf``
attributes convert on checkout is converted back (:func:`to_git`, git's own
rules from ``convert.c``), so a pin made in a Windows checkout is the pin of
every other checkout. A path that the index holds but the working tree
leaves out (skip-worktree: a sparse checkout) is its bytes in ``HEAD``
(or, when ``HEAD`` lacks it, in the index), never "gone".

Nothing here runs a filter: a clean filter (``filter=lfs`` and any other) is a
program the repository names. mechlint asks git only plumbing questions
(``ls-files``, ``check-attr``, ``config``) and converts line endings itself.
A Git LFS file is its content, as the working tree holds it (a pointer in the
working tree stands for the content it names, see ``Source.in_working_tree``).
Neither is ``ident`` collapsed nor ``working-tree-encoding`` undone: the
working-tree bytes of such a file are its bytes (``docs/security.md``).

The cost is paid only where it can matter: git is asked about line endings
only for a file that holds a CRLF pair (git converts nothing else), and about
the index only for a path missing from the working tree of a repository
whose index can hold skip-worktree entries (index format 3 or later).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from mechlint.provenance.attributes import AUTO, BINARY, AttributeReader, clean_action, parse_autocrlf
from mechlint.provenance.errors import GitError
from mechlint.provenance.invoke import Runner
from mechlint.provenance.log import is_hex

if TYPE_CHECKING:
    from pathlib import Path

    from mechlint.provenance.paths import FileState

Entry = tuple[str, str]  # (mode, object id; "conflict" for an unmerged path)


class Git(Runner, Protocol):
    """What the stored bytes and the working tree need of a repository's git (:class:`mechlint.provenance.git.Git`;
    named here so that this module and :mod:`.worktree`, which the history module uses, do not import it)."""

    def run(self, *args: str, check: bool = True) -> bytes: ...


class CatFile(Protocol):
    """What they need of its ``cat-file --batch`` (:class:`mechlint.provenance.git.CatFile`)."""

    def read_many(self, oids: Iterable[str]) -> Iterator[tuple[str, str, bytes | None]]: ...

    def close(self) -> None: ...


#: The bytes git counts as not printable (``gather_stats``): controls but BS, HT, LF, FF, CR and ESC; and DEL.
_NOT_PRINTABLE = bytes([*range(0, 8), 11, *range(14, 27), *range(28, 32), 127])


def looks_binary(data: bytes) -> bool:
    """git's guess (``convert_is_binary``): a lone CR, a NUL, or more than one byte in 128 not printable."""
    if b"\0" in data or data.count(b"\r") != data.count(b"\r\n"):
        return True
    not_printable = len(data) - len(data.translate(None, _NOT_PRINTABLE))
    printable = len(data) - not_printable - data.count(b"\n") - data.count(b"\r")
    if data.endswith(b"\x1a"):
        not_printable -= 1  # a trailing Ctrl-Z (an old end-of-file mark) is not held against the file
    return (printable >> 7) < not_printable


def to_git(data: bytes, action: str, index_has_cr: bool) -> bytes:
    """``data`` with its line endings as git stores them under ``action`` (git's ``crlf_to_git``)."""
    if action == BINARY or b"\r\n" not in data:
        return data
    if action == AUTO and (looks_binary(data) or index_has_cr):
        return data  # a binary-looking file, or one committed with CRs, is stored as it is (git 2.10 and later)
    return data.replace(b"\r\n", b"\n")


def index_version(git_dir: str) -> int:
    """The format version of the index file (0 when there is none): skip-worktree entries need 3 or later."""
    try:
        fd = os.open(os.path.join(git_dir, "index"), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return 0
    try:
        header = os.read(fd, 8)
    except OSError:
        return 0
    finally:
        os.close(fd)
    return int.from_bytes(header[4:8], "big") if header[:4] == b"DIRC" and len(header) == 8 else 0


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


class Checkout:
    """How one repository's working tree stands for what git stores: line-ending conversion and sparse paths.

    Each answer is asked of git once a run; the index is read whole, once,
    when first needed (``index`` may be given: a caller that listed it).
    """

    def __init__(self, git: Git, cat: CatFile, git_dir: str, index: tuple[dict[str, Entry], set[str]] | None = None):
        self.git = git
        self.cat = cat
        self.git_dir = git_dir
        self._index = index
        self._head: dict[str, Entry] | None = None
        self._autocrlf: str | None = None
        self._attributes = AttributeReader(git)
        self._actions: dict[str, str] = {}
        self._has_cr: dict[str, bool] = {}

    def index(self) -> tuple[dict[str, Entry], set[str]]:
        """What the index holds, and the paths marked skip-worktree; raises GitError."""
        if self._index is None:
            self._index = index_entries(self.git)
        return self._index

    def may_skip(self) -> bool:
        """Whether the index can hold skip-worktree entries at all (format 3 or later), read without git."""
        return self._index is not None or index_version(self.git_dir) >= 3

    def outside(self, path: str) -> str | None:
        """For a path (from the top) the working tree leaves out: the blob that stands for it; else ``None``."""
        if not self.may_skip():
            return None
        entries, skipped = self.index()
        if path not in skipped:
            return None
        blob = self.head().get(path, entries[path])[1]
        return blob if is_hex(blob) else None

    def head(self) -> dict[str, Entry]:
        """``{path: (mode, blob)}`` of HEAD (empty before the first commit), listed once."""
        if self._head is None:
            try:
                self._head = tree_entries(self.git, "HEAD")
            except GitError:
                self._head = {}
        return self._head

    def read(self, oid: str) -> bytes | None:
        """A blob's bytes through the run's ``cat-file`` (``None`` when the clone lacks it)."""
        for _, kind, content in self.cat.read_many([oid]):
            if kind == "blob":
                return content
        return None

    def autocrlf(self) -> str:
        if self._autocrlf is None:
            self._autocrlf = parse_autocrlf(self.git.run("config", "--get", "core.autocrlf", check=False))
        return self._autocrlf

    def action(self, path: str) -> str:
        """How git would convert the line endings of ``path`` (from the top) when it stores it."""
        if path not in self._actions:
            attributes = self._attributes.ask(path)
            self._actions[path] = clean_action(attributes, "true")
            if self._actions[path] == AUTO and clean_action(attributes, "false") == BINARY:
                self._actions[path] = clean_action(attributes, self.autocrlf())  # only core.autocrlf decides
        return self._actions[path]

    def index_has_cr(self, path: str) -> bool:
        """Whether the index's blob for ``path`` holds a CR: git then stores an ``auto`` file as it is."""
        if path not in self._has_cr:
            entry = self.index()[0].get(path)
            content = self.read(entry[1]) if entry is not None and is_hex(entry[1]) else None
            self._has_cr[path] = content is not None and b"\r" in content
        return self._has_cr[path]

    def stored(self, path: str, data: bytes) -> bytes:
        """The bytes git would store for ``data`` at ``path`` (from the top): line endings converted back."""
        if b"\r\n" not in data:
            return data
        action = self.action(path)
        return to_git(data, action, action == AUTO and self.index_has_cr(path))

    def close(self) -> None:
        """Stop the attribute reader (the ``cat-file`` is its owner's to close)."""
        self._attributes.close()


def source_state(
    checkout: Checkout, base: Path, path: str, full: str, state: FileState, with_blob_id: bool
) -> FileState:
    """The state of a source as git stores it, from what is in the working tree at ``base/path``.

    ``full`` is the path from the repository's top. A file with a CRLF pair
    gets its line endings converted back; a path the working tree leaves out
    (sparse checkout) gets its bytes in HEAD; anything else is as it is.
    Raises GitError.
    """
    from mechlint.provenance.paths import KEEP_BYTES, FileState, hash_source

    if state.kind == "absent":
        blob = checkout.outside(full)
        content = checkout.read(blob) if blob is not None else None
        if blob is None:
            return state  # not left out by a sparse checkout: gone
        if content is None:  # left out, and a partial clone left its bytes out too: unknown, not gone
            return state._replace(
                sparse=True, detail="is outside the sparse checkout, and its bytes are not in the clone"
            )
        kept = content if len(content) <= KEEP_BYTES else None
        detail = "is outside the sparse checkout (its bytes in HEAD are used)"
        digest = hashlib.sha256(content).hexdigest()
        return FileState("file", digest, len(content), kept, detail, blob, b"\r\n" in content, sparse=True)
    if state.kind != "file" or not state.crlf:
        return state
    data = state.data
    if data is None:  # larger than is kept: read again, whole
        data = hash_source(base, path, keep=state.size).data
        if data is None:
            return state  # changed while it was read: the rules say so when they read it again
    converted = checkout.stored(full, data)
    if converted == data:
        return state
    kept = converted if len(converted) <= KEEP_BYTES else None
    git_blob = blob_id(converted, state.git_blob or "0" * 40) if with_blob_id else ""
    return state._replace(
        sha256=hashlib.sha256(converted).hexdigest(), size=len(converted), data=kept, git_blob=git_blob
    )
