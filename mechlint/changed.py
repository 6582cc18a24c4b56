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

from mechlint.discovery import Candidate, UsageError
from mechlint.provenance.errors import GitError
from mechlint.provenance.git import Git
from mechlint.provenance.resolve import git_toplevel
from mechlint.provenance.worktree import Changes, changes_since


def _check_revision(revision: str) -> None:
    if not revision or revision.startswith("-") or len(revision) > 256:
        raise UsageError(f"--since {revision!r}: not a revision")
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in revision):
        raise UsageError("--since: the revision contains control characters")


def changed_paths(folder: Path, revision: str) -> tuple[Path, Changes]:
    """The repository's top folder and the paths (relative to it) changed since ``revision``.

    Changed means committed, staged, changed in the working tree (compared by
    hashing its bytes: ``git diff`` would run the repository's clean filters),
    or not in the index at all (a new file; an ignored one too, which only
    checks more).
    """
    _check_revision(revision)
    top = git_toplevel(folder.resolve())
    if top is None:
        raise UsageError("--since needs a git repository")
    try:
        git = Git(top)
        resolved = git.run(
            "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}", check=False
        )
        commit = resolved.decode("ascii", "replace").strip()
        if len(commit) not in (40, 64) or not all(c in "0123456789abcdef" for c in commit):
            raise UsageError(f"--since {revision!r}: no such commit in this repository")
        changes = changes_since(git, top, commit)
    except GitError as error:
        raise UsageError(f"--since: {error}") from None
    return top, changes


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
    selected = []
    for candidate in candidates:
        try:
            relative = candidate.path.resolve().relative_to(top).as_posix()
        except ValueError:
            continue
        if relative in changed or (
            prefix is not None and any(prefix + source in changed for source in _source_paths(candidate.path))
        ):
            selected.append(candidate.path)
    return selected
