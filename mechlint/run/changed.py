"""``--since REV``: the mechanism files a change touches, for fast pull-request runs.

A mechanism file is selected when it changed since the revision (committed,
staged, unstaged or new), or when one of its sources did: a source edit makes
its mechanism stale. git runs with fixed arguments, as in provenance: the
revision is checked to be a revision (never an option) and resolved to a
commit id first; the working tree is compared by mechlint itself
(:mod:`mechlint.provenance.worktree`), never by ``git diff``.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Container, Iterable
from pathlib import Path

from mechlint.provenance.errors import GitError
from mechlint.provenance.git import CatFile, Git
from mechlint.provenance.resolve import git_toplevel
from mechlint.provenance.worktree import Changes, changes_since
from mechlint.run.discovery import Candidate, UsageError


def _check_revision(revision: str) -> None:
    if not revision or revision.startswith("-") or len(revision) > 256:
        raise UsageError(f"--since {revision!r}: not a revision")
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in revision):
        raise UsageError("--since: the revision contains control characters")


def changed_paths(folder: Path, revision: str) -> tuple[Path, Changes]:
    """The repository's top folder and the paths (relative to it) changed since ``revision``.

    Changed means committed, staged, changed in the working tree (its bytes as
    git stores them, :mod:`mechlint.provenance.stored`, compared by hashing:
    ``git diff`` would run the repository's clean filters), or new in the
    working tree (not in the index: an ignored file too, which only checks
    more). A path absent at the revision, in the index and in the working
    tree is unchanged. The caller closes the result (:meth:`Changes.close`).
    """
    _check_revision(revision)
    top = git_toplevel(folder.resolve())
    if top is None:
        raise UsageError("--since needs a git repository")
    git = Git(top)
    cat = CatFile(git)
    try:
        resolved = git.run(
            "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}", check=False
        )
        commit = resolved.decode("ascii", "replace").strip()
        if len(commit) not in (40, 64) or not all(c in "0123456789abcdef" for c in commit):
            raise UsageError(f"--since {revision!r}: no such commit in this repository")
        return top, changes_since(git, cat, top, commit)
    except GitError as error:
        cat.close()
        raise UsageError(f"--since: {error}") from None
    except BaseException:
        cat.close()
        raise


def _source_paths(path: Path) -> list[str]:
    try:
        if path.stat().st_size > 10 * 1024 * 1024:
            return []
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return []
    sources = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(sources, list):
        return []
    return [s["path"] for s in sources if isinstance(s, dict) and isinstance(s.get("path"), str)]


def select_changed(
    candidates: Iterable[Candidate], top: Path, changed: Container[str], source_root: Path | None
) -> list[Path]:
    """The candidates that changed, or whose sources changed."""
    base = (source_root or top).resolve()
    prefix: str | None = None
    if base == top:
        prefix = ""
    elif base.is_relative_to(top):
        prefix = base.relative_to(top).as_posix() + "/"
    asked: list[tuple[Path, list[str]]] = []
    for candidate in candidates:
        try:
            relative = candidate.path.resolve().relative_to(top).as_posix()
        except ValueError:
            continue
        sources = [prefix + source for source in _source_paths(candidate.path)] if prefix is not None else []
        asked.append((candidate.path, [relative, *sources]))
    if isinstance(changed, Changes):
        changed.prepare(path for _, paths in asked for path in paths)  # git is asked once for them all
    return [path for path, paths in asked if any(p in changed for p in paths)]
