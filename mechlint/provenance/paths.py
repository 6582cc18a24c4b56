"""Source paths, checked before the disk is touched, and hashed without trusting the file.

:func:`path_problem` refuses what a source path must never be (absolute,
``..``, ``.git``, control or invisible characters, a backslash, a leading
``-``). :func:`hash_source` then resolves the path inside the repository,
refuses links that lead out and anything that is not a regular file, and
streams the bytes through SHA-256 with a size cap; a FIFO or a device is
never opened for reading.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import unicodedata
from pathlib import Path
from typing import Literal

from mechlint.records import Record
from mechlint.safety.paths import lexical_relative
from mechlint.safety.safeio import describe_mode

MAX_SOURCE_SIZE = 256 * 1024 * 1024
#: Files up to this size are kept in memory to explain a mismatch (line endings, LFS pointers).
KEEP_BYTES = 4 * 1024 * 1024


_ASCII_CONTROL = re.compile("[\x00-\x1f\x7f]")


def path_problem(path: str) -> str | None:
    """Why ``path`` may not be used as a source path, or ``None``."""
    if not path:
        return "the path is empty"
    if path.isascii():  # among ASCII characters only the controls are Cc, and none is Cf, Zl or Zp
        control = _ASCII_CONTROL.search(path)
        if control is not None:
            return f"the path contains the control or invisible character U+{ord(control.group()):04X}"
    else:
        for char in path:
            category = unicodedata.category(char)
            if category in ("Cc", "Cf", "Zl", "Zp"):
                return f"the path contains the control or invisible character U+{ord(char):04X}"
            if category == "Cs":  # "\ud800" in JSON: half of a UTF-16 pair, not a character
                return f"the path contains U+{ord(char):04X}, a lone surrogate that no file name can hold"
    if "\\" in path:
        return "the path contains a backslash; use / between folders"
    if path.startswith("-"):
        return "the path starts with '-'"
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return "the path is absolute; write it relative to the repository root"
    for part in path.split("/"):
        if part in ("", "."):
            return "the path has an empty or '.' component"
        if part == "..":
            return "the path has a '..' component"
        if part.rstrip(". ").casefold() == ".git":
            return "the path goes into .git"
    return None


Kind = Literal["file", "absent", "special", "outside", "unreadable"]


class FileState(Record):
    """What is at a source path in the working tree."""

    kind: Kind
    sha256: str = ""
    size: int = 0
    data: bytes | None = None
    detail: str = ""
    git_blob: str = ""
    #: Whether the bytes hold a CRLF pair: git may store them converted (:mod:`mechlint.provenance.stored`).
    crlf: bool = False
    #: Whether the working tree leaves the path out (a sparse checkout): these are its bytes in HEAD, or (kind
    #: ``"absent"``) a partial clone left those out too.
    sparse: bool = False


def real_path(top: str, path: str) -> str:
    """``os.path.realpath(top/path, strict=True)`` for a ``path`` that passed :func:`path_problem`, ``top`` resolved.

    Only the components below ``top`` are looked at (one ``lstat`` each);
    a symbolic link among them sends the whole path through ``realpath``.
    """
    current = top.rstrip("/")
    for part in path.split("/"):
        current = f"{current}/{part}"
        if stat.S_ISLNK(os.lstat(current).st_mode):
            return os.path.realpath(os.path.join(top, path), strict=True)
    return current


def hash_source(
    root: Path,
    path: str,
    max_size: int = MAX_SOURCE_SIZE,
    *,
    blob_id: bool = False,
    keep: int = KEEP_BYTES,
    object_format: str = "sha1",
) -> FileState:
    """Hash the working-tree file at ``root/path``; ``root`` is resolved, ``path`` passed :func:`path_problem`.

    With ``blob_id`` the git blob id of the bytes is computed too (attestations need it), with the repository's
    ``object_format`` (``"sha1"`` or ``"sha256"``). The bytes are
    kept (``data``) up to ``keep`` bytes. These are the bytes as they are: the bytes of a source, as git
    stores them, are ``Repository.file_state``'s.
    """
    top = os.fspath(root)
    candidate = os.path.join(top, path)
    try:
        real = real_path(top, path)
    except FileNotFoundError:
        if os.path.lexists(candidate):
            return FileState("outside", detail="is a broken symbolic link")
        return FileState("absent")
    except OSError as error:  # ELOOP is 40 on Linux, 62 on macOS and the BSDs
        if error.errno == errno.ELOOP:
            return FileState("outside", detail="is a symbolic link loop")
        return FileState("unreadable", detail=f"cannot be read ({error.strerror or error})")
    if lexical_relative(real, top) is None:
        return FileState("outside", detail="resolves, through a symbolic link, to a place outside the repository")
    try:
        info = os.stat(real)
    except OSError as error:
        return FileState("unreadable", detail=f"cannot be read ({error.strerror or error})")
    if not stat.S_ISREG(info.st_mode):
        return FileState("special", detail=f"is {describe_mode(info.st_mode)}, not a regular file; it is not read")
    if info.st_size > max_size:
        return FileState("unreadable", detail=f"is {info.st_size} bytes, more than the {max_size}-byte limit")
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        return FileState("unreadable", detail=f"cannot be read ({error.strerror or error})")
    digest = hashlib.sha256()
    blob = hashlib.new(object_format, b"blob %d\0" % info.st_size, usedforsecurity=False) if blob_id else None
    kept: list[bytes] = []
    size = 0
    crlf = False
    last = b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return FileState("special", detail="changed into a special file while it was opened; it is not read")
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > max_size:
                return FileState("unreadable", detail=f"grew past the {max_size}-byte limit while it was read")
            digest.update(chunk)
            if blob is not None:
                blob.update(chunk)
            crlf = crlf or b"\r\n" in chunk or (last == b"\r" and chunk[:1] == b"\n")
            last = chunk[-1:]
            if size <= keep:
                kept.append(chunk)
    except OSError as error:
        return FileState("unreadable", detail=f"cannot be read ({error.strerror or error})")
    finally:
        os.close(fd)
    if size != info.st_size:
        return FileState("unreadable", detail="changed size while it was read; run again")
    data = b"".join(kept) if size <= keep else None
    git_blob = blob.hexdigest() if blob is not None else ""
    return FileState("file", digest.hexdigest(), size, data, git_blob=git_blob, crlf=crlf)


def git_blob_id(data: bytes, object_format: str = "sha1") -> str:
    """The object id git gives these bytes as a blob, in a repository whose ids are ``object_format``."""
    return hashlib.new(object_format, b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def lfs_oid(data: bytes | None) -> str | None:
    """The ``oid sha256:`` of a Git LFS pointer file, or ``None`` when ``data`` is not one."""
    if data is None or len(data) > 1024 or not data.startswith(b"version https://git-lfs.github.com/spec/v1\n"):
        return None
    for line in data.split(b"\n"):
        if line.startswith(b"oid sha256:"):
            oid = line[len(b"oid sha256:") :].decode("ascii", "replace")
            if len(oid) == 64 and all(c in "0123456789abcdef" for c in oid):
                return oid
    return None


def line_ending_variants(data: bytes | None) -> dict[str, str]:
    """SHA-256 of ``data`` with CRLF made LF and LF made CRLF, by how they were made."""
    if data is None or b"\0" in data[:8000]:
        return {}
    variants = {}
    if b"\r\n" in data:
        variants[hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()] = "with LF line endings"
    if b"\n" in data:
        crlf = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        if crlf != data:
            variants[hashlib.sha256(crlf).hexdigest()] = "with CRLF line endings"
    return variants
