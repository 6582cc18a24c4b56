"""The run facts an HTML report shows: the repository, branch, commit, time, configuration and command line,
and what changed since the pin in each source a finding calls changed.

Computed only when an HTML report is written, after the run: the sources are
read again through the same provenance facts ``mechlint diff`` uses (git's
answers are cached from the run), and only those that a finding of
``provenance/stale-source``, ``digest-mismatch`` or ``gone-source`` points at.
A mechanism file is read back through the same safe reader ``check`` uses;
one that cannot be read simply gets no diff.
"""

from __future__ import annotations

import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.records import Record
from mechlint.report.runfacts import RunFacts, SourceDiff

if TYPE_CHECKING:
    from mechlint.model import FileReport, Report
    from mechlint.provenance.resolve import Provenance

__all__ = ["GitFacts", "run_facts"]


class GitFacts(Record):
    repository: str = ""
    branch: str = ""
    commit: str = ""


def run_facts(report: Report, project_root: Path, provenance: Provenance, config: Path | None) -> RunFacts:
    """The facts of this run for the HTML report's header, and the diffs of its changed sources."""
    git = _git_facts(provenance, project_root)
    command = shlex.join(["mechlint", *sys.argv[1:]])
    shown_config = ""
    if config is not None:
        shown_config = (
            config.relative_to(project_root).as_posix() if config.is_relative_to(project_root) else str(config)
        )
    diffs: list[SourceDiff] = []
    for file in report.files:
        diffs += _file_diffs(file, provenance, project_root)
    time = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return RunFacts(git.repository, git.branch, git.commit, time, shown_config, command, tuple(diffs))


def _git_facts(provenance: Provenance, project_root: Path) -> GitFacts:
    """The repository's folder name, the branch checked out and the commit of HEAD (through the hardened git)."""
    from mechlint.provenance.errors import GitError

    repository = provenance.repository(project_root / "report")  # the repository of a file in that folder
    history = repository.history()
    top = repository.toplevel
    if top is None or not history.exists:
        return GitFacts()
    head = history.state().head or ""
    try:
        branch = history.git.run("symbolic-ref", "--short", "-q", "HEAD", check=False).decode("utf-8", "replace")
    except GitError:
        branch = ""
    return GitFacts(top.name, branch.strip() or ("(detached HEAD)" if head else ""), head)


def _file_diffs(file: FileReport, provenance: Provenance, project_root: Path) -> list[SourceDiff]:
    from mechlint.review.drift import CHANGED_RULES, source_pointer

    changed = (r for r in file.results if r.rule_id in CHANGED_RULES and r.suppressed is None)
    pointers = {source_pointer(r.pointer) for r in changed}
    pointers.discard("")
    if not pointers or not file.uri:
        return []
    from mechlint.config import DEFAULT_MAX_FILE_SIZE
    from mechlint.document import load
    from mechlint.report.escape import report_path
    from mechlint.review.drift import drift_of
    from mechlint.review.render import Cited, diff_lines, plain_diff, review, side_lines, summary_lines
    from mechlint.run.discovery import read_file

    # the file's path relative to the project root, or its file:// URI outside it (``paths.repository_uri``)
    location = Path(report_path(file.uri)) if file.uri.startswith("file://") else project_root / file.uri
    raw = read_file(location, DEFAULT_MAX_FILE_SIZE, project_root)
    if isinstance(raw, str):
        return []
    document = load(file.path, raw)
    if not document.parsed:
        return []
    found = []
    for sourced in provenance.sources(document.data, location):
        if sourced.pointer not in pointers:
            continue
        drift = drift_of(sourced.source)
        if drift is None:
            continue
        reviewed = review(drift, (Cited(file.path, sourced.pointer),))
        sides = tuple(side_lines(reviewed)) if reviewed.hunks is None else ()
        images = _drawings(drift.pinned, drift.current, drift.current_path or drift.path)
        diff = SourceDiff(file.path, sourced.pointer, tuple(summary_lines(reviewed)), plain_diff(reviewed), sides)
        found.append(diff._replace(lines=tuple(diff_lines(reviewed)), pinned_image=images[0], current_image=images[1]))
    return found


def _drawings(pinned: bytes | None, current: bytes | None, path: str) -> tuple[str, str]:
    """Both versions of an SVG source, sanitised, as data URIs; ``("", "")`` unless both can be shown."""
    from mechlint.review.svgsafe import data_uri, is_svg

    if pinned is None or current is None or not is_svg(path):
        return "", ""
    before, after = data_uri(pinned), data_uri(current)
    return (before, after) if before and after else ("", "")
