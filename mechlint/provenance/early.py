"""History asked early: a check of a few files starts git's work before Python loads its rules.

A check of one file in a new clone waits about 25 ms for git (HEAD, the
refs, the log of each source whose file is gone or changed) and spends about
70 ms importing its rules and loading its data, and neither needs the other
(in a clone that has run mechlint before, the logs' answers are kept in
``.git/mechlint/``, and only HEAD and the refs are asked early).
:func:`begin`, the first thing ``check`` does, vets the repository (as any
opening does, before git reads its configuration), *starts* those commands
and returns: git runs on another core while mechlint loads. The run's
:class:`~mechlint.provenance.repository.Repository` takes that history
(:func:`take`), and each command's output is read, and checked, when the run
asks that very question (:meth:`~mechlint.provenance.git.History.prefetch`).
A guess that turns out wrong (a ``source-root`` in the configuration,
provenance rules switched off) costs a git command, never a different
answer: the run asks git itself, and what nobody asked is stopped when the
history closes, or at exit. No thread is involved.

:func:`begin` reads what the run reads, the same way: mechanism files inside
the repository (``safeio.read_regular`` after the path is resolved inside
it) and source files through ``paths.hash_source``. Only :data:`FEW` files or
fewer named on the command line, all in one repository, are looked at early;
folders, standard input, ``--since`` and worker processes open history the
usual way (:func:`discard` runs before workers are forked).
"""

from __future__ import annotations

import atexit
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.git import History

__all__ = ["FEW", "begin", "discard", "take"]

#: At most this many files named on the command line are looked at early (a pre-commit run, an editor's save).
FEW = 8
#: The largest mechanism file read early: the default ``max-file-size`` (the run applies the configured one).
_MAX_MECHANISM = 10 * 1024 * 1024

#: The history opened early for each repository top folder (or the error opening it raised), and by which process.
opened_early: dict[Path, tuple[int, History | GitError]] = {}


def begin(files: Sequence[str]) -> None:
    """Open the history of the repository holding ``files`` (paths as given) and start git's work on it."""
    if not files or len(files) > FEW:
        return
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.gitdir import git_toplevel

    tops: set[Path] = set()
    paths: list[Path] = []
    for name in files:
        path = Path(os.path.abspath(name))
        if not path.is_file():
            return  # a folder (many files) or something that is not a file: the usual way
        top = git_toplevel(path.parent)
        if top is None:
            return
        tops.add(top.resolve())
        paths.append(path)
    if len(tops) != 1:
        return
    top = tops.pop()
    if top in opened_early:
        return
    from mechlint.provenance.git import open_history

    try:
        asked = list(_gone_or_changed(top, paths))
    except Exception:  # the run reads these files itself, and says what is wrong with them
        return
    try:
        history = open_history(top, wait=False)
        if not (history.common_dir / "mechlint" / "blobs.sqlite3").exists():
            history.prefetch(asked)  # a used clone has kept the logs' answers: none is asked early there
        opened: History | GitError = history
    except GitError as error:
        opened = error
    except Exception:  # the run opens history itself, and meets the same problem there
        return
    if not opened_early:
        atexit.register(discard)
    opened_early[top] = (os.getpid(), opened)


def take(toplevel: Path) -> History | None:
    """The history :func:`begin` opened for ``toplevel``, once; ``None`` when it opened none.

    Raises the :class:`GitError` that opening it raised, or that HEAD's
    command, started early and checked now, raises.
    """
    pid, opened = opened_early.pop(toplevel, (0, None))
    if opened is None or pid != os.getpid():
        return None
    if isinstance(opened, Exception):
        raise opened
    try:
        opened.state()
    except BaseException:
        opened.close()
        raise
    return opened


def discard() -> None:
    """Stop what :func:`begin` started and nobody took (at exit, and before worker processes are forked)."""
    for top in list(opened_early):
        pid, opened = opened_early.pop(top)
        if pid == os.getpid() and not isinstance(opened, Exception):
            opened.close()


def _gone_or_changed(top: Path, files: list[Path]) -> Iterator[str]:
    """The source paths of ``files`` whose working-tree file is not the pinned one: the run will ask their history."""
    from mechlint.provenance.paths import hash_source, path_problem
    from mechlint.safety.paths import lexical_relative
    from mechlint.safety.safeio import NotReadable, read_regular

    seen: set[str] = set()
    for file in files:
        try:
            real = os.path.realpath(file, strict=True)
            if lexical_relative(real, os.fspath(top)) in (None, "."):
                continue  # the file resolves outside the repository: the run refuses it, and so does this
            data: Any = json.loads(read_regular(Path(real), _MAX_MECHANISM))
        except (NotReadable, OSError, RuntimeError, ValueError, RecursionError):
            continue  # the run reads it itself and says what is wrong with it; the other files are still asked
        sources = data.get("sources") if isinstance(data, dict) else None
        for source in sources if isinstance(sources, list) else ():
            if not isinstance(source, dict):
                continue
            path, digest = source.get("path"), source.get("sha256")
            if not isinstance(path, str) or not isinstance(digest, str) or path in seen or path_problem(path):
                continue
            seen.add(path)
            state = hash_source(top, path)
            if state.kind == "absent" or (state.kind == "file" and state.sha256 != digest):
                yield path
