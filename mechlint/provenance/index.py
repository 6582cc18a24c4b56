"""Digests of git blobs: one path's versions, or every blob reachable from any ref.

Blob digests come from the cache when known and from ``git cat-file --batch``
otherwise; the set of reachable blobs is recomputed only when the refs
change. A blob that wins a lookup is read and hashed again before it is
believed, unless this process read and hashed it itself (a fresh clone:
every digest was just made from git's bytes, so a second read would only
repeat the first).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

from mechlint.provenance.cache import BlobCache
from mechlint.provenance.git import CatFile, History
from mechlint.provenance.paths import lfs_oid

Row = tuple[str, str, str | None, str | None]
#: Below this many unknown objects one ``cat-file`` is enough; above, several stream in parallel.
PARALLEL_FROM = 2000
#: How many blobs this process remembers having hashed itself (their digests need no second read).
REMEMBERED = 1 << 16


def _digest_rows(reader: CatFile, oids: list[str]) -> list[Row]:
    """``(oid, kind, sha256, lfs oid)`` for each object (kind ``"missing"`` when git has none); git inflates,
    Python hashes."""
    rows: list[Row] = []
    for oid, kind, content in reader.read_many(oids):
        if kind == "blob" and content is not None:
            rows.append((oid, "blob", hashlib.sha256(content).hexdigest(), lfs_oid(content)))
        else:
            rows.append((oid, kind, None, None))
    return rows


class BlobIndex:
    def __init__(self, history: History, cache: BlobCache) -> None:
        self.history = history
        self.cache = cache
        self._ready = False
        self._generation = 0  # the cache's generation the reachable set was ensured for
        #: ``oid -> (sha256, lfs oid)`` of blobs hashed here from git's bytes: what :meth:`verified` would read.
        self._hashed: dict[str, tuple[str | None, str | None]] = {}
        #: Objects git had none of when asked (never kept between runs: a fetch may bring them).
        self._absent: set[str] = set()

    def _add(self, rows: list[Row]) -> None:
        self._absent.update(row[0] for row in rows if row[1] == "missing")
        rows = [row for row in rows if row[1] != "missing"]
        self.cache.add(rows)
        room = REMEMBERED - len(self._hashed)
        for oid, kind, sha256, lfs in rows[: max(room, 0)]:
            if kind == "blob":
                self._hashed[oid] = (sha256, lfs)

    def _hash_missing(self, oids: Iterable[str]) -> None:
        wanted = list(dict.fromkeys(oids))
        known = self.cache.known(wanted)
        missing = [oid for oid in wanted if oid not in known]
        if not missing:
            return
        if len(missing) < PARALLEL_FROM:
            self._add(_digest_rows(self.history.cat, missing))
            return
        workers = max(2, min(4, (os.cpu_count() or 1) + 1))
        chunks = [missing[start::workers] for start in range(workers)]

        def work(chunk: list[str]) -> list[Row]:
            reader = CatFile(self.history.git)
            try:
                return _digest_rows(reader, chunk)
            finally:
                reader.close()

        from concurrent.futures import ThreadPoolExecutor  # only for large histories: not on every run's start-up

        with ThreadPoolExecutor(workers) as pool:
            for rows in pool.map(work, chunks):
                self._add(rows)

    def digest(self, oid: str) -> str | None:
        return self.digests([oid])[oid]

    def digests(self, oids: Iterable[str]) -> dict[str, str | None]:
        wanted = list(oids)
        found: dict[str, str | None] = {}
        generation = None
        while generation != self.cache.generation:  # the cache left its file meanwhile: what it held is gone
            generation = self.cache.generation
            self._hash_missing(wanted)
            hashed = self._hashed
            found = {oid: hashed[oid][0] if oid in hashed else self.cache.sha256_of(oid) for oid in wanted}
        return found

    def absent(self, oids: Iterable[str]) -> list[str]:
        """Those of ``oids`` that git had no object for when :meth:`digests` asked, in order."""
        return [oid for oid in dict.fromkeys(oids) if oid in self._absent]

    def verified(self, oid: str, digest: str) -> bool:
        """Read the blob again and check that its bytes (or its LFS pointer) have ``digest``.

        A blob this process hashed itself is not read again: its id names its
        bytes, and the digests of those bytes are already known.
        """
        hashed = self._hashed.get(oid)
        if hashed is not None:
            return digest in hashed
        for _, kind, content in self.history.cat.read_many([oid]):
            if kind == "blob" and content is not None:
                return hashlib.sha256(content).hexdigest() == digest or lfs_oid(content) == digest
        return False

    def ensure(self) -> None:
        """Index every blob reachable from any ref (skipped when the history key, ``History.refs_key``, is the same)."""
        while not self._ready or self._generation != self.cache.generation:  # again if the cache left its file
            self._generation = self.cache.generation
            refs = "without the stash:" + self.history.refs_key()  # the set was once made with the stash
            if self.cache.reachable_state() != refs:
                objects = self.history.reachable_objects()
                self._hash_missing(objects)
                self.cache.set_reachable(refs, objects)
            self._ready = True

    def find_all(self, digest: str) -> list[str]:
        """Every reachable blob whose bytes (or LFS pointer) have ``digest``, each verified."""
        while True:
            self.ensure()
            generation = self.cache.generation
            found = self.cache.blobs_with(digest)
            if generation == self.cache.generation:
                return [oid for oid in found if self.verified(oid, digest)]
