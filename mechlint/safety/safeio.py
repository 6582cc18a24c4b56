"""Reading and writing the files a user names, trusting nothing that is on disk.

:func:`read_regular` opens a file without blocking (a FIFO never hangs the
open), checks that what it opened is a regular file and reads at most a
limit, so a FIFO, ``/dev/zero`` or a huge file is a sentence, never a hang or
a ``MemoryError``.

:func:`write_atomically` writes a report, a baseline, an attestation or a
fixed mechanism file:

- a path inside the repository that leads outside it (a symbolic link,
  dangling or not, in the path or at its end) is refused, and nothing is
  created outside; a link that stays inside is written through, so the link
  stays a link and its target gets the new bytes;
- a FIFO or a character device (``-o /dev/null``, ``-o /dev/stdout``) is
  written into, as a shell redirection would, never replaced; a FIFO with
  no reader is an error, not a hang; a folder, a socket or a block device
  is refused;
- a regular file is replaced through a temporary file and a rename, keeping
  its mode; a new file gets the mode the user's umask gives (as ``>`` does);
- the write is durable: the temporary file is flushed to the disk
  (``fsync``) before the rename and the folder after it, so a crash after
  ``pin`` leaves the old file or the new one, never an empty one;
- a temporary file is ``.NAME.XXXXXXXX.tmp`` (eight hexadecimal digits),
  locked (``flock``) by the process writing it for as long as it exists. It
  is removed on every way out that runs code (an error, Ctrl-C, SIGTERM);
  one that a killed run left (SIGKILL, a power cut) is removed by the next
  write to that folder if it has mechlint's exact naming, is a regular file
  of this user, has not changed for :data:`STALE_AFTER` seconds and no
  process holds its lock: another run's live temporary file is never
  removed (see docs/security.md).

Long: the atomic write, its temporary files and the removal of what a killed write left share one naming
and one lock, and are one promise (nothing half-written, nothing left over) that must be readable in one place.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path

_OPEN_FLAGS = os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
#: Seconds a temporary file of mechlint's naming must be unchanged, and unlocked, to be removed as left over.
STALE_AFTER = 60
#: What :func:`temporary_beside` names a temporary file: ``.NAME.XXXXXXXX.tmp``.
TEMPORARY_NAME = re.compile(r"\..+\.[0-9a-f]{8}\.tmp", re.DOTALL)
_cleaned: set[str] = set()  # folders whose leftovers this process has removed (once each: fix writes many files)


class NotReadable(Exception):
    """Why a file cannot be read, as a sentence about it ("is a FIFO (named pipe), not a regular file")."""

    def __init__(self, reason: str, missing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.missing = missing


class RefusedWrite(OSError):
    """A write mechlint will not do; ``strerror`` says why and ``filename`` names the file."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(errno.EPERM, reason, str(path))


def describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def read_at_most(read: Callable[[int], bytes], limit: int) -> bytes:
    """Up to ``limit + 1`` bytes from ``read(n)`` (a file descriptor's or a stream's), in pieces of 1 MiB.

    One byte more than the limit is asked for, so that the caller can tell a
    file that is exactly at the limit from one that is larger.
    """
    chunks, remaining = [], limit + 1
    while remaining > 0:
        chunk = read(min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (links followed), at most ``limit``; else :class:`NotReadable`."""
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        raise NotReadable("does not exist", missing=True) from None
    except OSError as error:
        raise NotReadable(f"cannot be read ({error.strerror or error})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotReadable(f"is {describe_mode(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise NotReadable(f"is {info.st_size} bytes, larger than the limit of {limit}")
        data = read_at_most(lambda size: os.read(fd, size), limit)
    except OSError as error:
        raise NotReadable(f"cannot be read ({error.strerror or error})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NotReadable(f"grew past the limit of {limit} bytes while it was read")
    return data


def _escapes(lexical: Path, inside: Path | None) -> bool:
    """Whether ``lexical`` (absolute, normalized) is in ``inside`` but its links lead out of it."""
    if inside is None:
        return False
    real_base = Path(os.path.realpath(inside))
    if not (lexical.is_relative_to(Path(os.path.abspath(inside))) or lexical.is_relative_to(real_base)):
        return False  # a path the user chose outside the repository: theirs to decide
    return not Path(os.path.realpath(lexical)).is_relative_to(real_base)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_into(path: Path, data: Iterable[bytes]) -> None:
    """Write into a FIFO or a character device in place, as ``>`` does; never create or replace it."""
    import fcntl  # POSIX only, as FIFOs and device nodes are

    try:
        fd = os.open(path, os.O_WRONLY | _OPEN_FLAGS)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise RefusedWrite(path, "is a FIFO (named pipe) that nothing reads") from None
        raise
    try:
        info = os.fstat(fd)
        if not (stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)):
            raise RefusedWrite(path, f"is {describe_mode(info.st_mode)}, not a regular file; it is not replaced")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        for piece in data:
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes | Iterable[bytes], inside: Path | None = None) -> None:
    """Write ``data`` to ``path`` as the module docstring says; ``inside`` is the repository (or ``None``).

    ``data`` may come in pieces (a large SARIF log made as it is written): each
    is written as it comes, and readers still see the whole file or the old one.

    Raises :class:`RefusedWrite` (an :class:`OSError`) for a write it will not do.
    """
    lexical = Path(os.path.abspath(path))
    if _escapes(lexical, inside):
        raise RefusedWrite(path, "leads outside the repository through a symbolic link; nothing is written there")
    try:
        info: os.stat_result | None = os.stat(lexical)
    except FileNotFoundError:
        info = None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise RefusedWrite(path, "is a symbolic link loop") from None
        raise
    pieces = (data,) if isinstance(data, bytes) else data
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode):
            _write_into(lexical, pieces)
            return
        raise RefusedWrite(path, f"is {describe_mode(info.st_mode)}, not a regular file; it is not replaced")
    target = Path(os.path.realpath(lexical))  # a link (inside the repository, or the user's own) is written through
    if target != lexical and os.path.islink(target):
        raise RefusedWrite(path, "is a symbolic link loop")
    if info is None:
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = 0o666 & ~_umask()
    else:
        mode = stat.S_IMODE(info.st_mode)
    remove_leftovers(target.parent)
    handle, temporary = -1, ""
    try:
        handle, temporary = temporary_beside(target)
        with os.fdopen(handle, "wb", buffering=1 << 16, closefd=False) as stream:
            os.fchmod(handle, mode)
            for piece in pieces:
                stream.write(piece)
        os.fsync(handle)  # the bytes are on the disk before the name points at them
        os.replace(temporary, target)  # still open, so still locked: never taken for another run's leftover
        temporary = ""
        _sync_folder(target.parent)
    except BaseException:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
        raise
    finally:
        if handle >= 0:
            os.close(handle)


def _sync_folder(folder: Path) -> None:
    """Flush the rename to the disk; a folder that cannot be opened or synced (some file systems) is left."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _lock(fd: int) -> bool:
    """Take the exclusive lock of an open file without waiting; whether it was had (always, without ``fcntl``)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the age alone decides
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def remove_leftovers(folder: Path) -> list[str]:
    """Remove the temporary files a killed run left in ``folder`` (see the module docstring); their names.

    Done once per folder per process, before the first write there.
    """
    key = os.path.abspath(folder)
    if key in _cleaned:
        return []
    _cleaned.add(key)
    try:
        names = [name for name in os.listdir(folder) if TEMPORARY_NAME.fullmatch(name)]
    except OSError:
        return []
    removed = []
    for name in names:
        path = os.path.join(folder, name)
        if _is_left_over(path):
            removed.append(name)
    return removed


def _is_left_over(path: str) -> bool:
    """Remove ``path`` if it is this user's regular file, unchanged for a while and not locked; whether it was."""
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        owner = info.st_uid == os.geteuid() if hasattr(os, "geteuid") else True
        old = time.time() - info.st_mtime > STALE_AFTER
        if not (stat.S_ISREG(info.st_mode) and owner and old and _lock(fd)):
            return False
        now = os.lstat(path)
        if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
            return False  # replaced since it was opened
        os.unlink(path)  # while holding its lock: no writer can have taken it since
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def temporary_beside(target: Path) -> tuple[int, str]:
    """A new file ``.NAME.RANDOM.tmp`` next to ``target``, open for writing, readable only by its owner.

    What :func:`tempfile.mkstemp` does (an exclusive create that follows no
    link, retried on a clash), without importing :mod:`tempfile` and its
    dependencies on every run that writes a report. Also where the result cache makes its secret.
    The file is locked (``flock``) until it is closed.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temporary = str(target.parent / f".{target.name}.{os.urandom(4).hex()}.tmp")  # as long as mkstemp's
        try:
            fd = os.open(temporary, flags, 0o600)
        except FileExistsError:
            continue
        _lock(fd)  # held until the file is closed: says "in use" to :func:`remove_leftovers` of another run
        return fd, temporary
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))
