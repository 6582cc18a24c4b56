"""``check --stdin-filename PATH -``: the buffer on standard input, checked as if it were the file at PATH.

Without typer: the fast path for ``check`` uses it too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from mechlint.safety.terminal import printable

if TYPE_CHECKING:
    from mechlint.run.discovery import Candidate

__all__ = ["StdinOptions", "project_root_for", "read_stdin", "stdin_conflict"]


class StdinOptions(Protocol):
    """What :func:`stdin_conflict` reads of ``check``'s options (a ``CheckOptions`` of :mod:`mechlint.cli.run_check`,
    which imports this module)."""

    @property
    def stdin_filename(self) -> Path | None: ...
    @property
    def paths(self) -> Sequence[str]: ...
    @property
    def since(self) -> str | None: ...
    @property
    def changed_files(self) -> bool: ...
    @property
    def update_baseline(self) -> bool: ...


def stdin_conflict(options: StdinOptions) -> str | None:
    """Why standard input cannot be checked with these options, or ``None``."""
    name = options.stdin_filename
    if sys.stdin is None:  # Python's standard input when file descriptor 0 is closed (``<&-``)
        return "standard input is closed: there is no buffer to check (pipe one in, or name the files to check)"
    if name is not None and (name.name in ("", ".", "..") or "\x00" in str(name)):
        return f"--stdin-filename {printable(str(name))!r}: give the path of a file, to check standard input as"
    if any(path != "-" for path in options.paths) or len(options.paths) > 1:
        return "standard input (-, --stdin-filename) is checked alone: give no other path"
    if options.since is not None or options.changed_files:
        return "--since and --changed-files select files on disk; they do not go with standard input"
    if options.update_baseline:
        return "--update-baseline records the findings of the whole project; it does not go with standard input"
    return None


def project_root_for(start: Path | None) -> Path:
    """The repository of ``start`` (the folder of --stdin-filename), else of the working folder."""
    from mechlint.run.discovery import find_project_root

    cwd = Path.cwd()
    if start is None:
        return find_project_root(cwd)
    found = find_project_root(start)
    if (found / ".git").exists() or not start.resolve().is_relative_to(cwd.resolve()):
        return found
    return find_project_root(cwd)  # no repository: the working folder, as for a file on disk


def read_stdin(name: Path | None, max_size: int) -> Candidate:
    """The buffer on standard input (at most ``max_size`` bytes) at the path it is checked as.

    Without ``--stdin-filename`` it is ``-`` in the working folder, and always checked.
    """
    from mechlint.run.discovery import Candidate, read_stream

    path = Path(os.path.abspath(name if name is not None else "-"))
    return Candidate(path, explicit=name is None, data=read_stream(sys.stdin.buffer, max_size))
