"""Opening mechlint's SQLite caches: a corrupt file is rebuilt, a locked or bad one is skipped.

A cache is only ever a shortcut. A lock held by another process means "run
without the cache this time" (after a short wait), never "delete it"; only a
file SQLite says is not a database, or is corrupt, or one that ``check``
refuses, is deleted and made again.

The same holds in the middle of a run: a query that fails because another
process took a lock (after one busy timeout) makes the run go on without the
file, so a held lock costs one wait, not one per query; a query that fails
on a damaged page (SQLite says so, or its ``PRAGMA quick_check`` does) makes
the file be deleted, with its journal and WAL, and made again
(:func:`heal`), so a damaged cache never stays a cache that always misses.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

#: Seconds a statement waits for another process's lock before the cache is skipped.
BUSY_TIMEOUT = 0.5
_CORRUPT = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


class CacheBusy(Exception):
    """Another process holds a lock on the cache: skip it this time."""


class StaleCache(sqlite3.DatabaseError):
    """Raised by a ``check`` for a cache in an older format: it is rebuilt."""


def user_cache_folder() -> Path | None:
    """``$XDG_CACHE_HOME/mechlint`` or ``~/.cache/mechlint``; ``None`` without a home folder."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):
        try:
            home = Path.home()
        except (RuntimeError, KeyError, OSError):  # HOME unset and no passwd entry
            return None
        if not home.is_absolute():
            return None
        base = str(home / ".cache")
    return Path(base) / "mechlint"


def _rebuild(error: sqlite3.Error) -> bool:
    return isinstance(error, StaleCache) or getattr(error, "sqlite_errorcode", None) in _CORRUPT


def is_busy(error: sqlite3.Error) -> bool:
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) in (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED


def remove_database(path: Path) -> None:
    """Delete a cache file and the files SQLite keeps beside it: a journal or WAL left beside a new file
    would be replayed into it."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            os.unlink(f"{path}{suffix}")
        except OSError:
            continue


def file_identity(path: Path) -> tuple[int, int] | None:
    """Device and inode of the file at ``path``: whether it is still the file a connection opened."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def damaged(error: sqlite3.Error, connection: sqlite3.Connection) -> bool:
    """Whether a query's ``error`` means the file is damaged: SQLite says so, or its quick check fails.

    A lock held by another process is not damage; nor is a full disk or a
    read-only file, which the quick check passes.
    """
    if is_busy(error):
        return False
    if _rebuild(error):
        return True
    try:
        verdict = connection.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as again:
        return not is_busy(again)
    return verdict is None or verdict[0] != "ok"


def heal(path: Path, connection: sqlite3.Connection, opened: tuple[int, int] | None, error: sqlite3.Error) -> bool:
    """After a query on the cache at ``path`` failed with ``error``: close the connection and, if the file is
    damaged, delete it so that it is made again. Whether it was damaged.

    ``opened`` is the :func:`file_identity` the connection opened: a file that
    another process has already made again is left alone.
    """
    broken = damaged(error, connection)
    connection.close()
    if broken and opened is not None and file_identity(path) == opened:
        remove_database(path)
    return broken


def open_cache(
    path: Path, schema: str, check: Callable[[sqlite3.Connection], None] | None = None
) -> sqlite3.Connection | None:
    """A connection to the cache at ``path`` with ``schema`` applied, or ``None`` if it cannot be used.

    Raises :class:`CacheBusy` when another process holds a write lock on it
    (checked once, here, so a held lock costs one short wait per run).
    """
    for _attempt in range(2):
        connection = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
            connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            # A cache: a write need not wait for the disk (a file a crash left broken fails the check and is
            # made again). Set before the schema, so that making a new cache does not wait either.
            connection.execute("PRAGMA synchronous = OFF")
            connection.execute("BEGIN IMMEDIATE")  # fails fast if another process holds the lock
            connection.execute("ROLLBACK")
            connection.executescript(schema)
            if check is not None:
                check(connection)
            return connection
        except sqlite3.Error as error:
            # a failure SQLite does not call corruption is judged by its quick check (a damaged page)
            broken = _rebuild(error) or (connection is not None and damaged(error, connection))
            if connection is not None:
                connection.close()
            if is_busy(error):
                raise CacheBusy(str(path)) from None
            if not broken:
                return None
            remove_database(path)
            if path.exists():
                return None
        except OSError:
            if connection is not None:
                connection.close()
            return None
    return None
