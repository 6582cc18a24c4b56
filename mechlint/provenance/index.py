"""Digests of git blobs: one path's versions, or every blob reachable from any ref.

Blob digests come from the cache when known and from ``git cat-file --batch``
otherwise; the set of reachable blobs is recomputed only when the refs
change. A blob that wins a lookup is read and hashed again before it is
believed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from mechlint.provenance.cache import BlobCache
from mechlint.provenance.git import History
from mechlint.provenance.paths import lfs_oid


class BlobIndex:
    def __init__(self, history: History, cache: BlobCache) -> None:
        self.history = history
        self.cache = cache
        self._ready = False

    def _hash_missing(self, oids: Iterable[str]) -> None:
        wanted = list(dict.fromkeys(oids))
        known = self.cache.known(wanted)
        missing = [oid for oid in wanted if oid not in known]
        if not missing:
            return
        rows: list[tuple[str, str, str | None, str | None]] = []
        for oid, kind, content in self.history.cat.read_many(missing):
            if kind == "blob" and content is not None:
                rows.append((oid, "blob", hashlib.sha256(content).hexdigest(), lfs_oid(content)))
            elif kind != "missing":
                rows.append((oid, kind, None, None))
            if len(rows) >= 2000:
                self.cache.add(rows)
                rows = []
        self.cache.add(rows)

    def digest(self, oid: str) -> str | None:
        self._hash_missing([oid])
        return self.cache.sha256_of(oid)

    def digests(self, oids: Iterable[str]) -> dict[str, str | None]:
        wanted = list(oids)
        self._hash_missing(wanted)
        return {oid: self.cache.sha256_of(oid) for oid in wanted}

    def verified(self, oid: str, digest: str) -> bool:
        """Read the blob again and check that its bytes (or its LFS pointer) have ``digest``."""
        for _, kind, content in self.history.cat.read_many([oid]):
            if kind == "blob" and content is not None:
                return hashlib.sha256(content).hexdigest() == digest or lfs_oid(content) == digest
        return False

    def ensure(self) -> None:
        """Index every blob reachable from any ref (skipped when the refs did not change)."""
        if self._ready:
            return
        refs = self.history.refs_fingerprint()
        if self.cache.reachable_state() != refs:
            objects = self.history.reachable_objects()
            self._hash_missing(objects)
            self.cache.set_reachable(refs, objects)
        self._ready = True

    def find(self, digest: str) -> str | None:
        """A reachable blob whose bytes have ``digest``, verified; ``None`` if there is none."""
        self.ensure()
        for oid in self.cache.blobs_with(digest):
            if self.verified(oid, digest):
                return oid
        return None
