"""``check --cache``: reuse the results of files that did not change, like eslint's ``--cache``.

An entry is keyed by the file's bytes, the digests of its sources (as they
are in the working tree now), the refs of the repository when the file has
sources (history decides provenance), the configuration and the tool
version. A hit skips every rule and gives back the same findings.

A repository must never be able to carry the cache: a committed entry that
matched would turn a failure into a pass. So the cache is never read from
the repository (``mechlint check`` keeps it in the user's cache folder, see
:func:`result_cache_folder`), and each entry carries an
HMAC-SHA256 over its key and value under a per-user random secret
(``secret.key``, mode 0600, beside the database): an entry that was not
written by this user's mechlint, or that does not decode, is a miss. The
database is SQLite, safe under concurrent runs and worker processes; a
corrupt file is deleted and rebuilt, an unwritable one is not used, and one
locked by another process is skipped for this run (after a short wait).

Long: the store, its keys (the configuration's fingerprint) and its folder are one feature whose safety
argument (an HMAC on every entry, never a folder inside the repository) must be readable in one place.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mechlint.model import Fix, FixEdit, Level, LocatedTrace, Region, Result
from mechlint.safety.safeio import temporary_beside
from mechlint.safety.sqlite import CacheBusy, file_identity, heal, open_cache

if TYPE_CHECKING:
    from mechlint.config import Config, EnabledRule
    from mechlint.provenance.services import RunServices

MAX_ENTRIES = 100_000
#: Entries put before they are written without waiting for a flush.
FLUSH_AFTER = 64
SECRET_SIZE = 32
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS entries "
    "(key TEXT PRIMARY KEY, value TEXT NOT NULL, mac TEXT NOT NULL, used REAL NOT NULL);"
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _read_secret(path: Path) -> bytes | None:
    """The secret at ``path`` if it is a regular file (not a link) of the right size."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != SECRET_SIZE:
            return None
        data = os.read(fd, SECRET_SIZE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == SECRET_SIZE else None


def load_secret(folder: Path) -> bytes | None:
    """This user's secret for the cache in ``folder``, made on first use; ``None`` if it cannot be had."""
    path = folder / "secret.key"
    found = _read_secret(path)
    if found is not None:
        return found
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
        return None  # something else is there: run without the cache rather than touch it
    temporary = ""
    try:
        fd, temporary = temporary_beside(path)
        with os.fdopen(fd, "wb") as stream:
            stream.write(os.urandom(SECRET_SIZE))  # what secrets.token_bytes gives, without importing it
        try:
            os.link(temporary, path)  # never replaces: a concurrent run's secret wins
        except FileExistsError:
            if _read_secret(path) is None:  # a damaged secret: replace it (every old entry becomes a miss)
                os.replace(temporary, path)
    except OSError:
        return None
    finally:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    return _read_secret(path)


def _region(values: list[int]) -> Region:
    return Region(*values)


def _encode_fix(fix: Fix | None) -> list[Any] | None:
    if fix is None:
        return None
    edits = [[e.start, e.end, e.content, list(e.region)] for e in fix.edits]
    return [fix.applicability, fix.title, edits]


def _decode_fix(row: list[Any] | None) -> Fix | None:
    if row is None:
        return None
    applicability, title, edits = row
    return Fix(applicability, title, tuple(FixEdit(s, e, c, _region(r)) for s, e, c, r in edits))


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
            r.context,
            r.source_start,
            _encode_fix(r.fix),
        ]
        for r in results
    ]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def decode(text: str, path: str) -> tuple[Result, ...]:
    """The results ``encode`` wrote; any other text raises (``ValueError``, ``TypeError``...)."""
    rows = json.loads(text)
    if not isinstance(rows, list) or not all(isinstance(row, list) and len(row) == 11 for row in rows):
        raise TypeError("not a list of cached results")
    found = tuple(
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
            context=context,
            source_start=source_start,
            fix=_decode_fix(fix),
        )
        for rule_id, level, message, pointer, region, source_line, trace, value_hash, context, source_start, fix in rows
    )
    for result in found:
        texts = (result.rule_id, result.message, result.pointer, result.context, *(t.message for t in result.trace))
        if not all(isinstance(t, str) for t in texts) or type(result.source_start) is not int:
            raise TypeError("not a cached result")
    return found


class ResultCache:
    """One SQLite file; each process (worker) opens its own connection."""

    def __init__(self, folder: Path, fingerprint: str, sources_key: Callable[[Path, list[str]], str]) -> None:
        self.folder = folder
        self.fingerprint = fingerprint
        self._sources_key = sources_key
        self._connection: sqlite3.Connection | None = None
        self._secret = b""
        self._pid = -1
        self._broken = False
        self._opened: tuple[int, int] | None = None  # the file the connection opened
        self._healed = False  # a damaged file is made again once per process
        #: Entries put since the last flush: written in one transaction (one each cost a file about 0.2 ms).
        self._pending: dict[str, tuple[str, float]] = {}

    def _connect(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        self._broken = True  # until it is open: any failure below means "no cache this run"
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return None
        secret = load_secret(self.folder)
        if secret is None:
            return None
        try:
            connection = open_cache(self.folder / "results.sqlite3", _SCHEMA)
        except CacheBusy:
            return None
        if connection is None:
            return None
        self._opened = file_identity(self.folder / "results.sqlite3")
        with contextlib.suppress(sqlite3.Error):  # a cache: losing the last writes to a crash is fine (see open_cache)
            connection.execute("PRAGMA journal_mode = WAL")
        self._connection, self._pid, self._secret, self._broken = connection, os.getpid(), secret, False
        return connection

    def sources_key(self, location: Path, paths: list[str]) -> str:
        """The state of a file's sources (see ``Provenance.cache_key``); empty without sources."""
        return self._sources_key(location, paths) if paths else ""

    def key(self, raw: bytes, sources: str) -> str:
        digest = hashlib.sha256()
        for part in (self.fingerprint.encode(), hashlib.sha256(raw).digest(), sources.encode("utf-8", "surrogatepass")):
            digest.update(len(part).to_bytes(8, "big") + part)
        return digest.hexdigest()

    def _mac(self, key: str, value: str) -> str:
        message = key.encode() + b"\0" + value.encode("utf-8", "surrogatepass")
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def _failed(self, error: sqlite3.Error) -> None:
        """A query failed: a damaged file is deleted and made again (once); locked or full, it is not used again
        this run, so a lock costs one wait."""
        connection, self._connection = self._connection, None
        self._broken = True
        if connection is not None and self._pid == os.getpid():
            damaged = heal(self.folder / "results.sqlite3", connection, self._opened, error)
            self._broken = self._healed or not damaged
            self._healed = self._healed or damaged

    def get(self, key: str, path: str) -> tuple[Result, ...] | None:
        """The cached results for ``key``, shown as ``path``; ``None`` for a miss or an entry that does not verify."""
        if key in self._pending:
            return decode(self._pending[key][0], path)
        connection = self._connect()
        if connection is None:
            return None
        try:
            row = connection.execute("SELECT value, mac FROM entries WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as error:
            self._failed(error)
            return None
        if row is None or not isinstance(row[0], str) or not isinstance(row[1], str):
            return None
        if not hmac.compare_digest(row[1], self._mac(key, row[0])):
            return None
        try:
            return decode(row[0], path)
        except Exception:  # a verified entry that does not decode (another version's format): a miss
            return None

    def put(self, key: str, results: tuple[Result, ...]) -> None:
        """Keep the results for ``key``: written at the next :meth:`flush` (a worker flushes after each chunk)."""
        if self._broken:
            return
        self._pending[key] = (encode(results), time.time())
        if len(self._pending) >= FLUSH_AFTER:
            self.flush()

    def flush(self) -> None:
        pending, self._pending = self._pending, {}
        connection = self._connect() if pending else None
        if connection is None:
            return
        rows = [(key, value, self._mac(key, value), used) for key, (value, used) in pending.items()]  # signed now
        for _attempt in range(2):  # again into the file made anew, if this one was damaged
            try:
                with connection:
                    connection.execute("BEGIN IMMEDIATE")
                    connection.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)", rows)
                return
            except sqlite3.Error as error:
                self._failed(error)
            connection = self._connect()
            if connection is None:
                return

    def prune(self) -> None:
        self.flush()
        connection = self._connect()
        if connection is None:
            return
        try:
            (count,) = connection.execute("SELECT count(*) FROM entries").fetchone()
            if count > MAX_ENTRIES:
                connection.execute(
                    "DELETE FROM entries WHERE key IN (SELECT key FROM entries ORDER BY used LIMIT ?)",
                    (count - MAX_ENTRIES * 9 // 10,),
                )
        except sqlite3.Error:
            return

    def close(self) -> None:
        self.flush()
        if self._connection is not None and self._pid == os.getpid():
            self._connection.close()
        self._connection = None


def code_stamp() -> list[tuple[str, int, int]]:
    """Name, size and modification time of mechlint's code and shipped data.

    Part of every key, so an edited rule in an editable install (or any
    upgrade that keeps the version number) never meets results of the old code.
    """
    from mechlint.resources import data_folder

    package = Path(__file__).resolve().parent.parent
    found = []
    for top in (package, data_folder("rules"), data_folder("schemas")):
        for folder, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".py", ".toml", ".json", ".txt")):
                    try:
                        info = os.stat(os.path.join(folder, name))
                    except OSError:
                        continue
                    found.append((os.path.join(folder, name), info.st_size, info.st_mtime_ns))
    return found


def fingerprint(parts: list[Any]) -> str:
    return hashlib.sha256(repr([code_stamp(), parts]).encode("utf-8", "surrogatepass")).hexdigest()


def result_cache_folder(project_root: Path) -> Path | None:
    """Where ``check`` keeps its result cache for this project: the user's cache folder, never the repository.

    ``None`` (run without the cache) when there is no home folder, or when the
    cache folder is inside the project, where a repository could carry it.
    """
    from mechlint.safety.sqlite import user_cache_folder

    folder = user_cache_folder()
    if folder is None or Path(os.path.realpath(folder)).is_relative_to(project_root):
        return None
    return folder / "results" / hashlib.sha256(os.fsencode(project_root)).hexdigest()[:16]


#: Changes whenever the cached form of a result changes (2: results carry their context).
RESULTS_FORMAT = 2


def config_fingerprint(config: Config, enabled: Sequence[EnabledRule], services: RunServices) -> str:
    """Everything besides a file's bytes and sources that its results depend on."""
    from mechlint.version import __version__

    source = b""
    if config.source is not None:
        from mechlint.config import MAX_CONFIG_FILE
        from mechlint.safety.safeio import NotReadable, read_regular

        try:
            source = read_regular(config.source, MAX_CONFIG_FILE)
        except NotReadable:  # changed since it was loaded: no entry of this run may ever be reused
            source = os.urandom(16)
    rules = [
        (
            e.rule.meta.id,
            int(e.level),
            sorted((k, repr(v)) for k, v in e.options.items()),
            e.rule.doc,
            repr(e.rule.meta),
        )
        for e in enabled
    ]
    lists = enabled[0].context.lists if enabled else None
    words = sorted(repr(s) for s in lists.substitutions) if lists else []
    allow = sorted(lists.allow) if lists else []
    return fingerprint(
        [
            __version__,
            RESULTS_FORMAT,
            source,
            rules,
            words,
            allow,
            str(services.root),
            str(services.source_root),
            services.frozen_pattern,
        ]
    )
