"""Finding the mechanism files of a run, and reading them safely.

:func:`mechanism_files` is the one way every command (``check``, ``fix``,
``pin``, the language server, ``new``'s warning) decides which files are
mechanism files: folders are walked without following symbolic links to
folders; files are kept when a pattern of ``include`` matches their path
(relative to the configuration file's folder, else the project root) and
none of ``exclude`` (the default exclusions, then the configured ones) does.
A file named on the command line is always kept. Reading
(:func:`read_candidate`) never opens anything but a regular file, never more
than ``max-file-size`` bytes, and never follows a link out of the project;
a file it cannot read gives the sentence that says why, which each command
reports in its own way (``check``: a ``mechlint/unreadable-file`` finding).

Long: which files a run reads and how it reads them are one decision (the
patterns, the walk, the safe read); split, each part would need the others.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, Protocol

from mechlint.config.globs import DEFAULT_EXCLUDE, matches, matches_exactly
from mechlint.records import Record
from mechlint.safety.paths import lexical_relative
from mechlint.safety.safeio import describe_mode, read_at_most


class Candidate(Record):
    """A file to check: named on the command line (``explicit``) or found by walking a folder."""

    path: Path
    explicit: bool
    #: The bytes to check instead of reading ``path`` (a buffer from standard input), or why they cannot be.
    data: bytes | str | None = None


class Selection(Protocol):
    """What discovery reads of the configuration (:class:`mechlint.config.Config`)."""

    @property
    def source(self) -> Path | None: ...
    @property
    def root(self) -> Path: ...
    @property
    def include(self) -> tuple[str, ...]: ...
    @property
    def exclude(self) -> tuple[str, ...]: ...
    @property
    def max_file_size(self) -> int: ...


class UsageError(Exception):
    """A path on the command line that does not exist."""


def _relative(path: str, bases: tuple[str, ...]) -> str:
    """``path`` relative to the first base it is under (lexically), else its name."""
    for base in bases:
        found = lexical_relative(path, base)
        if found is not None:
            return found
    return path.rpartition("/")[2]


def discover(paths: Iterable[Path], include: Iterable[str], exclude: Iterable[str], root: Path) -> Iterator[Candidate]:
    """Every file to lint, each once, in a stable order."""
    include, exclude = tuple(include), tuple(exclude)
    seen: set[Path] = set()
    for given in paths:
        absolute = Path(os.path.abspath(given))
        if not os.path.lexists(absolute):
            raise UsageError(f"{given}: no such file or folder")
        if absolute.is_dir() and not absolute.is_symlink():
            # sorted as paths sort (folder by folder), without building a Path for each comparison
            found = sorted(_walk(str(absolute), include, exclude, (str(root), str(absolute))), key=_parts)
            for name in found:
                path = Path(name)
                if path not in seen:
                    seen.add(path)
                    yield Candidate(path, explicit=False)
        elif absolute not in seen:
            seen.add(absolute)
            yield Candidate(absolute, explicit=True)


def _parts(path: str) -> list[str]:
    return path.split("/")


def _walk(top: str, include: tuple[str, ...], exclude: tuple[str, ...], bases: tuple[str, ...]) -> Iterator[str]:
    """The paths under ``top`` to check, in no particular order (the caller sorts them).

    What ``os.walk(top, followlinks=False)`` would list, read with one
    ``scandir`` per folder and no ``lstat`` per folder (a directory entry says
    whether it is a link); a folder that cannot be listed is skipped, as
    ``os.walk`` skips it.
    """
    folders = [top]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        prefix = folder if folder.endswith("/") else folder + "/"  # the top may be "/"
        for entry in entries:
            path = prefix + entry.name
            try:
                is_folder = entry.is_dir()  # a link to a folder is listed as one, as os.walk lists it
            except OSError:
                is_folder = False
            relative = _relative(path, bases)
            if is_folder:
                if matches(relative, exclude):
                    continue
                if matches_exactly(relative, include):  # a folder named like a mechanism file is reported
                    yield path
                try:
                    is_link = entry.is_symlink()
                except OSError:
                    is_link = True
                if not is_link:  # a link to a folder is never walked
                    folders.append(path)
            elif matches_exactly(relative, include) and not matches(relative, exclude):
                yield path


def selected(path: Path, include: Iterable[str], exclude: Iterable[str], base: Path) -> bool:
    """Whether walking ``base`` would check a file at ``path`` (which need not exist): included, not excluded."""
    relative = lexical_relative(Path(os.path.abspath(path)).as_posix(), Path(os.path.abspath(base)).as_posix())
    if relative is None:
        try:  # a link on the way (a temporary folder on macOS): compare the real folders
            relative = Path(os.path.realpath(path)).relative_to(os.path.realpath(base)).as_posix()
        except ValueError:
            return False
    return matches_exactly(relative, tuple(include)) and not matches(relative, tuple(exclude))


def base_folder(config: Selection, root: Path) -> Path:
    """The folder ``include`` and ``exclude`` are relative to: the configuration file's, else the project root."""
    return config.root if config.source else root


def mechanism_files(paths: Iterable[str | os.PathLike[str]], config: Selection, root: Path) -> list[Candidate]:
    """Every mechanism file under ``paths`` (files and folders), each once, in a stable order.

    ``root`` is the project root. A path that does not exist is a :class:`UsageError`.
    """
    excluded = (*DEFAULT_EXCLUDE, *config.exclude)
    return list(discover([Path(p) for p in paths], config.include, excluded, base_folder(config, root)))


def is_mechanism_file(path: Path, config: Selection, root: Path) -> bool:
    """Whether walking the project would check a file at ``path`` (which need not exist)."""
    return selected(path, config.include, (*DEFAULT_EXCLUDE, *config.exclude), base_folder(config, root))


def read_candidate(candidate: Candidate, config: Selection, root: Path) -> bytes | str:
    """The bytes of a file to check (a buffer's own), or a sentence saying why they cannot be read."""
    if candidate.data is not None:
        return candidate.data
    return read_file(candidate.path, config.max_file_size, root)


def read_stream(stream: BinaryIO, max_size: int) -> bytes | str:
    """At most ``max_size`` bytes of a stream (standard input), or a sentence saying why they cannot be read."""
    try:
        data = read_at_most(stream.read, max_size)
    except (OSError, ValueError) as error:
        return f"cannot be read from standard input ({getattr(error, 'strerror', None) or error})"
    if len(data) > max_size:
        return f"is more than max-file-size ({max_size} bytes) on standard input; raise the limit to check it"
    return data


def read_file(path: Path, max_size: int, root: Path) -> bytes | str:
    """The bytes of a regular file, or a sentence saying why they cannot be read."""
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except (OSError, ValueError):
        link = False
    try:
        if link:
            real = Path(os.path.realpath(path))
            if not real.is_relative_to(root.resolve()):
                return "is a symbolic link that leads outside the project; it is not read"
        info = os.stat(path)
    except RecursionError:
        return "is a symbolic link loop"
    except OSError as error:
        if link:
            return "is a broken symbolic link or a symbolic link loop"
        return f"cannot be read ({error.strerror or error})"
    if not stat.S_ISREG(info.st_mode):
        return f"is {describe_mode(info.st_mode)}, not a regular file"
    if info.st_size > max_size:
        return f"is {info.st_size} bytes, larger than max-file-size ({max_size}); raise the limit to check it"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            return f"is {describe_mode(opened.st_mode)}, not a regular file"
        data = read_at_most(lambda size: os.read(fd, size), max_size)
        after = os.fstat(fd)
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    finally:
        os.close(fd)
    if len(data) > max_size:
        return f"grew past max-file-size ({max_size} bytes) while it was read"
    if len(data) != after.st_size or after.st_mtime_ns != opened.st_mtime_ns:
        return "changed while it was read; run mechlint again when it is saved"
    return data


def find_project_root(start: Path) -> Path:
    """The nearest folder above ``start`` that holds ``.git``; else ``start``."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start
