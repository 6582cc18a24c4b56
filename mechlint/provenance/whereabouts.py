"""Which history belongs to a source path, and where its pinned bytes are when they are not there.

:func:`lineage` keeps, of what ``git log --follow -- PATH`` lists, only the
revisions of the path itself and of the names it had before a rename: for a
name that was once a folder git also lists the files under it. Only these
revisions may satisfy a pin, so a commit a message names always holds the
pinned bytes at the path it names (``git show COMMIT:PATH``).

:func:`holders` and :func:`best_holder` find the other paths that hold the
pinned bytes at HEAD, or held them in some commit; :class:`Names` finds the
existing path closest by name (a different case, a swapped letter, another
post's folder): the facts behind the "did you mean" of ``missing-source``.
"""

from __future__ import annotations

import difflib
import os
import stat
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.provenance.git import History
    from mechlint.provenance.index import BlobIndex
    from mechlint.provenance.log import Revision
    from mechlint.provenance.nohistory import NoHistory

#: At most this many names of one working-tree folder are offered as "did you mean" candidates.
MAX_NEARBY = 2000


def lineage(revisions: list[Revision], path: str) -> list[Revision]:
    """The revisions (newest first, as ``git log --follow`` lists them) of ``path`` and of its earlier names."""
    name = path
    kept: list[Revision] = []
    for revision in revisions:
        if revision.path != name:
            continue
        kept.append(revision)
        if revision.origin is not None:
            name = revision.origin
    return kept


class Holder(Record):
    """A path (relative to the sources' folder) that holds the pinned bytes at HEAD, or held them in ``commit``."""

    path: str
    commit: str | None = None


def holders(history: History | NoHistory, index: BlobIndex, digest: str, prefix: str, exclude: str) -> list[Holder]:
    """Where the bytes with ``digest`` are: the paths holding them at HEAD, or else those that held them.

    Those that held them come newest first, each with a commit in which it did.
    """
    blobs = set(index.find_all(digest))
    if not blobs:
        return []
    head = history.state().head
    tree = history.tree(head) if head else {}
    now = _relative([Holder(path) for path, blob in sorted(tree.items()) if blob in blobs], prefix, exclude)
    if now:
        return now  # the history walk (one log over every commit) is needed only when HEAD has none
    past = sorted((r for blob in sorted(blobs) for r in history.blob_holders(blob)), key=lambda r: -r.time)
    return _relative([Holder(r.path, r.commit) for r in past], prefix, exclude)


def _relative(found: list[Holder], prefix: str, exclude: str) -> list[Holder]:
    """The holders inside the sources' folder, as source paths, each path once, ``exclude`` left out."""
    shown: dict[str, Holder] = {}
    for holder in found:
        if not holder.path.startswith(prefix):
            continue  # outside the folder source paths are relative to
        path = holder.path[len(prefix) :]
        if path != exclude and path not in shown:
            shown[path] = Holder(path, holder.commit)
    return list(shown.values())


class Names:
    """The files of a tree, indexed once so that each "did you mean" costs a few lookups, not a scan."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.folded: dict[str, str] = {}
        self.by_base: dict[str, list[str]] = {}
        self.by_folder: dict[str, list[str]] = {}
        for path in sorted(set(paths)):
            self.folded.setdefault(_folded(path), path)
            folder, _, base = path.rpartition("/")
            self.by_base.setdefault(base, []).append(path)
            self.by_folder.setdefault(folder, []).append(path)

    def closest(self, path: str, beside: Iterable[str] = ()) -> str | None:
        """The file the author of ``path`` most likely meant, or ``None`` when none is close.

        ``beside`` adds files not in the tree (the working tree next to the
        path). A name that differs only in case or Unicode normalization wins; then a close file name
        in the same folder; then the same file name in the folder closest to
        the path's; then a close file name in the deepest folder of the path
        that exists.
        """
        extra = Names(beside)
        folded = _folded(path)
        for names in (self, extra):
            match = names.folded.get(folded)
            if match is not None and match != path:
                return match
        folder, _, base = path.rpartition("/")
        siblings = {
            name.rpartition("/")[2]: name for names in (self, extra) for name in names.by_folder.get(folder, [])
        }
        near = difflib.get_close_matches(base, list(siblings), n=1, cutoff=0.6)
        if near:
            return siblings[near[0]]
        same = self.by_base.get(base, []) + extra.by_base.get(base, [])
        if same:
            return max(same, key=lambda name: difflib.SequenceMatcher(None, path, name).ratio())
        while folder and folder not in self.by_folder and folder not in extra.by_folder:
            folder = folder.rpartition("/")[0]
        children = {
            name.rpartition("/")[2]: name for names in (self, extra) for name in names.by_folder.get(folder, [])
        }
        near = difflib.get_close_matches(base, list(children), n=1, cutoff=0.75)
        return children[near[0]] if near else None


def nearby_files(base: Path, path: str) -> list[str]:
    """The regular files in the deepest existing folder of ``path`` (no link followed), as source paths."""
    parts = path.split("/")[:-1]
    folder = os.fspath(base)
    reached: list[str] = []
    for part in parts:
        candidate = os.path.join(folder, part)
        try:
            mode = os.lstat(candidate).st_mode
        except OSError:
            break
        if not stat.S_ISDIR(mode):
            break
        folder = candidate
        reached.append(part)
    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if len(names) >= MAX_NEARBY:
                    break
                if entry.name != ".git" and entry.is_file(follow_symlinks=False):
                    names.append("/".join([*reached, entry.name]))
    except OSError:
        return []
    return sorted(names)


def _folded(path: str) -> str:
    """``path`` with case and Unicode normalization (NFC or NFD) folded away: names that look alike compare equal."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", path).casefold())


def _likeness(path: str, other: str) -> float:
    if _folded(other) == _folded(path):
        return 2.0
    return difflib.SequenceMatcher(None, path, other).ratio()


def best_holder(path: str, found: list[Holder]) -> Holder | None:
    """The holder to name: one that holds the bytes at HEAD if any, the closest by name, the newest of equals."""
    now = [holder for holder in found if holder.commit is None]
    pool = now or found
    if not pool:
        return None
    return max(pool, key=lambda holder: _likeness(path, holder.path))  # max keeps the first of equals
