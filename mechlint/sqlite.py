"""Opening mechlint's SQLite caches: a corrupt file is rebuilt, a locked or bad one is skipped.

A cache is only ever a shortcut. A lock held by another process means "run
without the cache this time" (after a short wait), never "delete it"; only a
file SQLite says is not a database, or is corrupt, or one that ``check``
refuses, is deleted and made again.
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
            if connection is not None:
                connection.close()
            if is_busy(error):
                raise CacheBusy(str(path)) from None
            if not _rebuild(error):
                return None
            try:
                path.unlink()
            except OSError:
                return None
        except OSError:
            if connection is not None:
                connection.close()
            return None
    return None
