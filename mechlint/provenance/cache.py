"""A persistent cache of git blob id → SHA-256 of its bytes, and of git's answers, in SQLite.

Blobs never change, so an entry never goes stale. git's answers about
history (a path's log, the commit that holds a blob) are kept under the
fingerprint of the refs they were computed for, and dropped when the refs
change; answers about one commit (its date and subject) never go stale.
The cache lives in the repository's git common folder
(``.git/mechlint/blobs.sqlite3``), or in the user's cache folder when that
is not writable or another user owns it (a file of root's in a user's
``.git`` is one they cannot remove), or in memory as a last resort (no home folder, or another
process holding a lock on the file: a lock means "skip it this time", never
"delete it"). It is safe under concurrent runs (SQLite locking, a short busy
timeout, short transactions), and a corrupt file is deleted and rebuilt. A
query that fails in the middle of a run (a lock taken by another process, a
damaged page) makes the cache leave the file for memory for the rest of the
run (:meth:`BlobCache._give_up`: one busy timeout per run, not one per
query; a damaged file is deleted, to be made again by the next run), and
counts a new :attr:`BlobCache.generation`: what was stored in the file is no
longer known, so a caller that relied on it asks again. Rows not stored yet
are kept, so answers never depend on whether they were stored.
Callers never trust it for a final answer: the winning blob is hashed again.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from mechlint.safety.sqlite import CacheBusy, StaleCache, file_identity, heal, open_cache, user_cache_folder

Row = tuple[str, str, str | None, str | None]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS blobs (oid TEXT PRIMARY KEY, kind TEXT NOT NULL, sha256 TEXT, lfs TEXT);
CREATE INDEX IF NOT EXISTS blobs_sha256 ON blobs (sha256);
CREATE INDEX IF NOT EXISTS blobs_lfs ON blobs (lfs);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reachable (oid TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS answers (
    refs TEXT NOT NULL, question TEXT NOT NULL, answer BLOB NOT NULL, PRIMARY KEY (refs, question)
);
"""
VERSION = "1"
#: Rows added before they are written without waiting for a flush (a worker's chunk of files flushes too).
FLUSH_AFTER = 100


def _check_version(connection: sqlite3.Connection) -> None:
    stored = connection.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    if stored is None:
        connection.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (VERSION,))
    elif stored[0] != VERSION:
        raise StaleCache("an older cache format")
    verdict = connection.execute("PRAGMA quick_check").fetchone()
    if verdict is None or verdict[0] != "ok":
        raise StaleCache("the cache failed SQLite's quick check")


def owned_by_us(folder: Path) -> bool:
    """Whether the user running mechlint owns ``folder`` (always, where there are no user ids)."""
    geteuid = getattr(os, "geteuid", None)
    for existing in (folder, *folder.parents):  # a folder not made yet is made by the owner of its parent
        try:
            return geteuid is None or os.stat(existing).st_uid == geteuid()
        except FileNotFoundError:
            continue
        except OSError:
            return False
    return False


class BlobCache:
    def __init__(self, common_dir: Path | None) -> None:
        self.location = ":memory:"
        self._rows: dict[str, Row] = {}  # rows not stored (yet, or their store failed): read as if they were
        self._pending: list[Row] = []  # rows to store at the next flush
        self._reachable: tuple[str, frozenset[str]] | None = None  # the same for the reachable set
        self._path: Path | None = None
        self._opened: tuple[int, int] | None = None
        #: Counts the times the store was left for an empty one in memory (see :meth:`_give_up`).
        self.generation = 0
        self.connection = self._open(common_dir)

    def _candidates(self, common_dir: Path | None) -> list[Path]:
        found = []
        if common_dir is not None:
            if owned_by_us(common_dir):  # never a file of ours in another user's .git: they could not remove it
                found.append(common_dir / "mechlint" / "blobs.sqlite3")
            user = user_cache_folder()
            if user is not None:
                key = hashlib.sha256(str(common_dir.resolve()).encode()).hexdigest()[:16]
                found.append(user / f"blobs-{key}.sqlite3")
        return found

    def _open(self, common_dir: Path | None) -> sqlite3.Connection:
        for path in self._candidates(common_dir):
            try:
                connection = open_cache(path, _SCHEMA, _check_version)
            except CacheBusy:
                break  # locked by another process: in memory this time, and the file is left alone
            if connection is not None:
                self.location = str(path)  # written without waiting for the disk (see open_cache)
                self._path, self._opened = path, file_identity(path)
                return connection
        return _in_memory()

    def _give_up(self, error: sqlite3.Error) -> None:
        """A query on the file failed: go on in memory, and delete the file if it is damaged.

        Called once per run at most (memory does not fail so): a lock another
        process holds costs this run one busy timeout, not one per query.
        """
        if self._path is None:
            return
        heal(self._path, self.connection, self._opened, error)
        self.connection, self.location, self._path = _in_memory(), ":memory:", None
        self._reachable = None
        self.generation += 1

    def _rows_of(self, query: str, parameters: Iterable[object]) -> list[tuple[object, ...]]:
        try:
            return list(self.connection.execute(query, tuple(parameters)))
        except sqlite3.Error as error:
            self._give_up(error)
            return []

    def known(self, oids: Iterable[str]) -> set[str]:
        wanted = list(oids)
        found = {oid for oid in wanted if oid in self._rows}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(str(row[0]) for row in self._rows_of(f"SELECT oid FROM blobs WHERE oid IN ({marks})", chunk))
        return found

    def add(self, rows: Iterable[Row]) -> None:
        """Store ``(oid, kind, sha256, lfs oid)`` rows: read from now on, written at the next :meth:`flush`."""
        rows = list(rows)
        self._rows.update((row[0], row) for row in rows)
        self._pending += rows
        if len(self._pending) >= FLUSH_AFTER:
            self.flush()

    def flush(self) -> None:
        """Write the rows added since the last flush, in one transaction (one each cost a source about 0.3 ms)."""
        if not self._pending:
            return
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                written = self._write_pending()
        except sqlite3.Error as error:
            self._give_up(error)
            return  # kept in memory for the rest of the run
        self._forget(written)

    def _write_pending(self) -> list[Row]:
        """Insert the pending rows in the transaction that is open; the rows, to :meth:`_forget` once it commits."""
        rows, self._pending = self._pending, []
        try:
            self.connection.executemany("INSERT OR IGNORE INTO blobs VALUES (?, ?, ?, ?)", rows)
        except sqlite3.Error:
            self._pending = rows + self._pending
            raise
        return rows

    def _forget(self, written: list[Row]) -> None:
        """Stop reading from memory the rows now stored."""
        for row in written:
            if self._rows.get(row[0]) is row:
                del self._rows[row[0]]

    def _column(self, oid: str, index: int, name: str) -> str | None:
        if oid in self._rows:
            return self._rows[oid][index]
        found = self._rows_of(f"SELECT {name} FROM blobs WHERE oid = ?", (oid,))
        return str(found[0][0]) if found and found[0][0] is not None else None

    def sha256_of(self, oid: str) -> str | None:
        return self._column(oid, 2, "sha256")

    def lfs_of(self, oid: str) -> str | None:
        return self._column(oid, 3, "lfs")

    def blobs_with(self, digest: str) -> list[str]:
        """Reachable blobs whose bytes, or whose LFS pointer, have this SHA-256."""
        kept = [oid for oid, row in self._rows.items() if digest in (row[2], row[3])]
        if self._reachable is not None:
            rows = self._rows_of("SELECT oid FROM blobs WHERE sha256 = ? OR lfs = ?", (digest, digest))
            reachable = self._reachable[1]
            return [oid for oid in dict.fromkeys([*(str(r[0]) for r in rows), *kept]) if oid in reachable]
        rows = self._rows_of(
            "SELECT b.oid FROM blobs b JOIN reachable r ON r.oid = b.oid WHERE b.sha256 = ? OR b.lfs = ?",
            (digest, digest),
        )
        kept = [oid for oid in kept if self._rows_of("SELECT 1 FROM reachable WHERE oid = ?", (oid,))]
        return list(dict.fromkeys([*(str(r[0]) for r in rows), *kept]))

    def reachable_state(self) -> str | None:
        if self._reachable is not None:
            return self._reachable[0]
        row = self._rows_of("SELECT value FROM meta WHERE key = 'refs'", ())
        return str(row[0][0]) if row else None

    def set_reachable(self, refs: str, oids: Iterable[str]) -> None:
        """Record which blobs the refs reach; with them, in one transaction, the digests not written yet.

        The refs stored say that every reachable blob's digest is stored too:
        a run stopped after this commit must not leave digests unwritten.
        """
        oids = list(oids)
        written: list[Row] = []
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                written = self._write_pending()
                self.connection.execute("DELETE FROM reachable")
                self.connection.executemany("INSERT OR IGNORE INTO reachable VALUES (?)", ((o,) for o in oids))
                self.connection.execute("INSERT OR REPLACE INTO meta VALUES ('refs', ?)", (refs,))
        except sqlite3.Error as error:
            self._pending = written + self._pending  # rolled back with the rest: still to write, read from memory
            generation = self.generation
            self._give_up(error)
            if generation == self.generation:  # the same store: keep the set in memory (else the caller asks again)
                self._reachable = (refs, frozenset(oids))
            return
        self._forget(written)

    def answer(self, refs: str, question: str) -> bytes | None:
        """What git answered to ``question`` when the refs had this fingerprint ("" for any refs)."""
        try:
            row = self.connection.execute(
                "SELECT answer FROM answers WHERE refs = ? AND question = ?", (refs, question)
            ).fetchone()
        except sqlite3.Error as error:
            self._give_up(error)
            return None
        return bytes(row[0]) if row else None

    def remember(self, refs: str, question: str, answer: bytes) -> None:
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                self.connection.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", (refs, question, answer))
        except sqlite3.Error as error:
            self._give_up(error)

    def keep_answers_for(self, refs: str) -> None:
        """Drop the answers that were for other refs (once, when the refs have changed)."""
        try:
            row = self.connection.execute("SELECT value FROM meta WHERE key = 'answers-refs'").fetchone()
            if row is not None and row[0] == refs:
                return
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                self.connection.execute("DELETE FROM answers WHERE refs NOT IN (?, '')", (refs,))
                self.connection.execute("INSERT OR REPLACE INTO meta VALUES ('answers-refs', ?)", (refs,))
        except sqlite3.Error as error:
            self._give_up(error)

    def close(self) -> None:
        self.flush()
        self.connection.close()


def _in_memory() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.executescript(_SCHEMA)
    return connection
