"""Opening mechlint's SQLite caches: concurrent runs wait, a corrupt file is rebuilt, a bad place is skipped."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path


def open_cache(
    path: Path, schema: str, check: Callable[[sqlite3.Connection], None] | None = None
) -> sqlite3.Connection | None:
    """A connection to the cache at ``path`` with ``schema`` applied, or ``None`` if it cannot be used.

    A file that is not a database, or that ``check`` refuses (by raising
    :class:`sqlite3.DatabaseError`), is deleted and made again once.
    """
    for _attempt in range(2):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(path, timeout=10, isolation_level=None)
            connection.execute("PRAGMA busy_timeout = 10000")
            connection.executescript(schema)
            if check is not None:
                check(connection)
            return connection
        except sqlite3.DatabaseError:
            try:
                path.unlink()
            except OSError:
                return None
        except (sqlite3.Error, OSError):
            return None
    return None
