"""``check --cache``: reuse the results of files that did not change, like eslint's ``--cache``.

An entry is keyed by the file's bytes, the digests of its sources (as they
are in the working tree now), the refs of the repository when the file has
sources (history decides provenance), the configuration and the tool
version. A hit skips every rule and gives back the same findings. The cache
is SQLite in ``.mechlint_cache/`` at the project root, safe under concurrent
runs and worker processes; a corrupt cache is deleted and rebuilt, and an
unwritable one is simply not used.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mechlint.model import Level, LocatedTrace, Region, Result
from mechlint.sqlite import open_cache

MAX_ENTRIES = 100_000
_SCHEMA = "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value TEXT NOT NULL, used REAL NOT NULL);"


def _region(values: list[int]) -> Region:
    return Region(*values)


def encode(results: tuple[Result, ...]) -> str:
    rows = [
        [
            r.rule_id,
            int(r.level),
            r.message,
            r.pointer,
            [r.region.start_line, r.region.start_column, r.region.end_line, r.region.end_column],
            r.source_line,
            [
                [
                    [t.region.start_line, t.region.start_column, t.region.end_line, t.region.end_column],
                    t.message,
                    t.pointer,
                ]
                for t in r.trace
            ],
            r.value_hash,
            r.source_start,
        ]
        for r in results
    ]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def decode(text: str, path: str) -> tuple[Result, ...]:
    return tuple(
        Result(
            path=path,
            rule_id=rule_id,
            level=Level(level),
            message=message,
            pointer=pointer,
            region=_region(region),
            source_line=source_line,
            trace=tuple(LocatedTrace(_region(r), m, p) for r, m, p in trace),
            value_hash=value_hash,
            source_start=source_start[0] if source_start else 0,
        )
        for rule_id, level, message, pointer, region, source_line, trace, value_hash, *source_start in json.loads(text)
    )


class ResultCache:
    """One SQLite file; each process (worker) opens its own connection."""

    def __init__(self, folder: Path, fingerprint: str, sources_key: Callable[[Path, list[str]], str]) -> None:
        self.folder = folder
        self.fingerprint = fingerprint
        self._sources_key = sources_key
        self._connection: sqlite3.Connection | None = None
        self._pid = -1
        self._broken = False

    def _connect(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# created by mechlint --cache\n*\n")
        except OSError:
            self._broken = True
            return None
        connection = open_cache(self.folder / "results.sqlite3", _SCHEMA)
        if connection is None:
            self._broken = True
            return None
        try:  # a cache: losing the last writes to a crash is fine, waiting for the disk on each is not
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = OFF")
        except sqlite3.Error:
            pass
        self._connection, self._pid = connection, os.getpid()
        return connection

    def sources_key(self, location: Path, paths: list[str]) -> str:
        """The state of a file's sources (see ``Provenance.cache_key``); empty without sources."""
        return self._sources_key(location, paths) if paths else ""

    def key(self, raw: bytes, sources: str) -> str:
        digest = hashlib.sha256()
        for part in (self.fingerprint.encode(), hashlib.sha256(raw).digest(), sources.encode("utf-8", "surrogatepass")):
            digest.update(len(part).to_bytes(8, "big") + part)
        return digest.hexdigest()

    def get(self, key: str) -> str | None:
        connection = self._connect()
        if connection is None:
            return None
        try:
            row = connection.execute("SELECT value FROM results WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    def put(self, key: str, value: str) -> None:
        connection = self._connect()
        if connection is None:
            return
        try:
            connection.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?)", (key, value, time.time()))
        except sqlite3.Error:
            return

    def prune(self) -> None:
        connection = self._connect()
        if connection is None:
            return
        try:
            (count,) = connection.execute("SELECT count(*) FROM results").fetchone()
            if count > MAX_ENTRIES:
                connection.execute(
                    "DELETE FROM results WHERE key IN (SELECT key FROM results ORDER BY used LIMIT ?)",
                    (count - MAX_ENTRIES * 9 // 10,),
                )
        except sqlite3.Error:
            return

    def close(self) -> None:
        if self._connection is not None and self._pid == os.getpid():
            self._connection.close()
        self._connection = None


def fingerprint(parts: list[Any]) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()
