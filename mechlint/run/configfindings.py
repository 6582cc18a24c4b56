"""Findings located in the configuration rather than in a mechanism file.

``mechlint/unused-suppression``: an ``[[ignore]]`` entry of the configuration
file that matched nothing in the run, at the line of its entry.

``mechlint/invalid-config``: configuration that cannot be used stops the run
before any file is checked (exit code 2), and :func:`invalid_config_report`
is the report of that run: one finding per mistake, at the file that holds
it (the configuration file, a word-list or invariant file it names, the
baseline) and its line, so that every report a user asked for (SARIF for code
scanning, JUnit, JSON) is still written and shows what to fix. A mistake of
the command line (``--select`` naming no rule) has no file to point at: it
stays an error message only, as every other usage error does.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from mechlint.config import MAX_CONFIG_FILE, Config, EnabledRule, each_error
from mechlint.errors import ConfigError
from mechlint.model import FileReport, Region, Report, Result
from mechlint.report.fingerprint import fingerprints_of_lines
from mechlint.rules.mechlint.invalid_config import META as INVALID_CONFIG_RULE
from mechlint.rules.mechlint.unused_suppression import META as UNUSED_SUPPRESSION_RULE
from mechlint.run.checking import excerpt
from mechlint.safety.paths import display_path, repository_uri
from mechlint.safety.safeio import NotReadable, read_regular

__all__ = ["invalid_config_report", "unused_suppressions"]


def _text_of(path: Path) -> str | None:
    """The text of a configuration or rule file, read as loading read it (a regular file, within the limit)."""
    try:
        return read_regular(path, MAX_CONFIG_FILE).decode("utf-8", "replace")
    except (NotReadable, ValueError):
        return None


def unused_suppressions(
    config: Config,
    enabled: Sequence[EnabledRule],
    used: Counter[int],
    covered: set[int],
    whole_tree: bool,
    root: Path,
    cwd: Path,
    fingerprints: bool = False,
) -> list[FileReport]:
    """A finding for each suppression no result matched (``used``: how many results each one matched, by number).

    A run over some files only (``whole_tree`` false) judges only the
    suppressions that cover a checked file (``covered``).
    """
    level = next((e.level for e in enabled if e.rule.meta.id == UNUSED_SUPPRESSION_RULE.id), None)
    if level is None or config.source is None:
        return []
    results = []
    shown = display_path(config.source, cwd)
    for number, suppression in enumerate(config.suppressions):
        if used[number] or (number not in covered and not whole_tree):
            continue
        why = "no finding matched it" if number in covered else "no checked file matches its path"
        line = suppression.line or 1
        message = (
            f"the suppression of {suppression.rule} in {suppression.path!r} is unused ({why}); "
            "remove it or fix its path, rule or pointer"
        )
        context = f"ignore[{suppression.path}][{suppression.rule}][{suppression.pointer or ''}]"
        region = Region(line, 1, line, 2)
        results.append(Result(shown, UNUSED_SUPPRESSION_RULE.id, level, message, "", region, context=context))
    if not results:
        return []
    hashes: dict[int, str] = {}
    if fingerprints:
        text = _text_of(config.source)
        hashes = fingerprints_of_lines(text, (r.region.start_line for r in results)) if text is not None else {}
    return [FileReport(shown, repository_uri(config.source, root), tuple(results), hashes, checked=False)]


def invalid_config_report(
    problem: ConfigError, root: Path, cwd: Path | None = None, fingerprints: bool = False
) -> Report | None:
    """The report of a run stopped by ``problem``: each of its mistakes as a ``mechlint/invalid-config`` finding.

    ``None`` when no mistake names a file (all are mistakes of the command
    line). ``root`` is the project root (report URIs are relative to it);
    ``fingerprints`` adds the line hashes SARIF uses.
    """
    from mechlint.catalog.docs import rule_info
    from mechlint.catalog.registry import rules_by_id

    cwd = cwd or Path.cwd()
    by_file: dict[Path, list[ConfigError]] = {}
    for error in each_error(problem):
        if error.path is not None:
            by_file.setdefault(Path(os.path.abspath(error.path)), []).append(error)
    if not by_file:
        return None
    files = []
    for path, errors in by_file.items():
        text = _text_of(path)
        lines = text.split("\n") if text is not None else []
        shown = display_path(path, cwd)
        results = []
        for error in sorted(errors, key=lambda e: e.line or 1):
            line = error.line or 1
            start, source = excerpt(lines[line - 1], 0) if line <= len(lines) else (0, "")
            region = Region(line, 1, line, 2)
            level = INVALID_CONFIG_RULE.level
            results.append(
                Result(shown, INVALID_CONFIG_RULE.id, level, error.message, "", region, source, source_start=start)
            )
        hashes = fingerprints_of_lines(text, (r.region.start_line for r in results)) if fingerprints and text else {}
        files.append(FileReport(shown, repository_uri(path, root), tuple(results), hashes, checked=False))
    files.sort(key=lambda f: f.path)
    rule = rules_by_id()[INVALID_CONFIG_RULE.id]
    why = "the configuration cannot be used; fix what the findings above say and run again"
    return Report(files=tuple(files), files_checked=0, rules=(rule_info(rule),), stopped=why)
