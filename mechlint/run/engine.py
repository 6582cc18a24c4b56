"""The library entry point: ``lint(paths, config) -> Report``.

It finds the files, loads each one, runs every enabled rule over it, turns a
crashing rule into a ``mechlint/internal-error`` finding, and places the
findings of each file on lines and columns. It prints nothing.

Long: the options object (one documented field a way to run), the run over
every file and one file's check are one flow that reads top to bottom.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mechlint.config import Config, EnabledRule, load_config
from mechlint.document import Document, load
from mechlint.document.views import as_object, items
from mechlint.model import (
    FileReport,
    Keep,
    Notification,
    Region,
    Report,
    Result,
    RuleInfo,
)
from mechlint.provenance.services import RunServices
from mechlint.records import Record
from mechlint.report.fingerprint import fingerprints_of_lines
from mechlint.rules.mechlint.unreadable_file import META as UNREADABLE_FILE_RULE
from mechlint.run.adoption import (
    Baseline,
    apply_baseline,
    apply_suppressions,
    context_of,
    value_hash,
)
from mechlint.run.checking import run_rules
from mechlint.run.configfindings import unused_suppressions
from mechlint.run.discovery import (
    Candidate,
    base_folder,
    find_project_root,
    is_mechanism_file,
    mechanism_files,
    read_candidate,
)
from mechlint.run.fixattach import placed_with_fixes
from mechlint.run.gctuning import PausedCollector
from mechlint.run.parallel import PARALLEL_FROM, default_jobs, run_all
from mechlint.safety.paths import display_path, relative_to_base, repository_uri

if TYPE_CHECKING:  # the result cache (and SQLite) is imported only by runs that use it
    from mechlint.model import Story
    from mechlint.run.resultcache import ResultCache


class LintOptions(Record):
    """How :func:`lint` runs, besides what it checks (``paths``) and the configuration.

    ``root``: the project root (default: the nearest folder with ``.git``).
    Source paths are relative to ``source_root`` when given, else to the git
    repository that holds each mechanism file. Findings matched by a
    configured suppression or recorded in ``baseline`` (named ``baseline_name``
    in messages) are marked suppressed, and left out unless
    ``show_suppressed``. ``jobs`` worker processes (by default, one per core
    for large runs) give the same report as one; ``progress(done, total)`` is
    called as files are finished. With ``cache`` (a folder), results of
    unchanged files are reused (see :mod:`mechlint.run.resultcache`) when the run
    checks at least ``cache_from`` files (below that, opening it costs more
    than it saves). ``fingerprints`` adds the line fingerprints and the rules' Markdown help SARIF needs.
    ``value_hashes=False`` leaves ``Result.value_hash`` and ``Result.context``
    empty (only baselines and fingerprints need them), unless a baseline or
    the cache is in use. ``keep`` says which checked files the report holds
    (:class:`~mechlint.model.Keep`): by default those with findings;
    ``Keep.FILES`` every checked file, findings or not; ``Keep.STORIES``
    every checked file with its :class:`~mechlint.document.story.Story`. ``buffer`` (a
    candidate that carries its bytes, or why they could not be read) is checked
    as if the file at its path held them: always when it is ``explicit``, else
    when the configuration selects that path; ``paths`` are then not walked.
    """

    root: Path | None = None
    source_root: Path | None = None
    show_suppressed: bool = False
    baseline: Baseline | None = None
    baseline_name: str = ""
    jobs: int | None = None
    progress: Callable[[int, int], None] | None = None
    cache: Path | None = None
    cache_from: int = 0
    fingerprints: bool = False
    value_hashes: bool = True
    keep: Keep = Keep.FINDINGS
    buffer: Candidate | None = None


def lint(
    paths: Iterable[str | os.PathLike[str]] = (".",),
    config: Config | None = None,
    options: LintOptions | None = None,
    **changes: Any,
) -> Report:
    """Check every mechanism file under ``paths`` and return the whole report.

    ``options`` (:class:`LintOptions`) says how; a keyword argument changes
    one of its fields (``lint(paths, config, root=folder)``), and an unknown
    one is a ``TypeError``. The report carries the metadata of every rule
    that ran (:class:`~mechlint.model.RuleInfo`).
    """
    unknown = sorted(set(changes) - set(LintOptions._fields))
    if unknown:
        raise TypeError(f"lint() got unknown options: {', '.join(unknown)}")
    chosen = (options or LintOptions())._replace(**changes)
    root, source_root, show_suppressed = chosen.root, chosen.source_root, chosen.show_suppressed
    baseline, baseline_name, jobs, progress = chosen.baseline, chosen.baseline_name, chosen.jobs, chosen.progress
    cache, fingerprints, value_hashes, keep = chosen.cache, chosen.fingerprints, chosen.value_hashes, chosen.keep
    buffer = chosen.buffer
    cwd = Path.cwd()
    config = config if config is not None else load_config(start=cwd)
    root = (root or find_project_root(cwd)).resolve()
    base = base_folder(config, root)
    services = RunServices(root=root, source_root=source_root, frozen_pattern=config.frozen_pattern())
    enabled = [e._replace(context=e.context._replace(services=services)) for e in config.enabled()]
    if buffer is not None:
        candidates = [buffer] if buffer.explicit or is_mechanism_file(buffer.path, config, root) else []
    else:
        candidates = mechanism_files(paths, config, root)
    services.many = len(candidates) >= PARALLEL_FROM  # workers: each would ask about a few paths one by one first
    if len(candidates) < chosen.cache_from:
        cache = None
    hashes = value_hashes or fingerprints or baseline is not None or cache is not None
    files: list[FileReport] = []
    notifications: list[Notification] = []
    used: Counter[int] = Counter()
    covered: set[int] = set()
    checked = 0

    results_cache = None
    if cache is not None:
        sources_key = services.provenance().cache_key
        from mechlint.run.resultcache import ResultCache, config_fingerprint

        results_cache = ResultCache(cache, config_fingerprint(config, enabled, services), sources_key)

    def work(candidate: Candidate) -> tuple[FileReport, list[Notification]]:
        checked = lint_file(candidate, config, enabled, root, cwd, fingerprints, results_cache, hashes, keep)
        collector.tick()
        return checked

    workers = default_jobs(len(candidates)) if jobs is None else jobs
    if workers > 1 and len(candidates) > 1:
        from mechlint.provenance import early

        early.discard()  # the workers, forked, open history themselves
    collector = PausedCollector()
    try:
        outcomes = run_all(
            candidates,
            work,
            workers,
            progress,
            flush=lambda: _flush(services, results_cache),
            lost=lambda candidate, why: lost_file(candidate, why, enabled, root, cwd),
        )
        for candidate, (report, found) in zip(candidates, outcomes, strict=True):
            checked += 1
            notifications += found
            if not config.suppressions:
                if report.results or keep >= Keep.FILES:
                    files.append(report)
                continue
            relative = relative_to_base(candidate.path, base) or report.uri
            covered.update(i for i, s in enumerate(config.suppressions) if s.covers(relative))
            if report.results or keep >= Keep.FILES:
                applied = apply_suppressions(report.results, relative, config.suppressions)
                used += applied.used
                files.append(report._replace(results=tuple(applied.results)))
    finally:
        collector.restore()
        services.close()
        if results_cache is not None:
            results_cache.prune()
            results_cache.close()
    files.sort(key=lambda f: f.path)
    if baseline is not None:
        files = apply_baseline(files, baseline, baseline_name)
    whole_tree = any(base.is_relative_to(Path(p).resolve()) for p in paths)
    files += unused_suppressions(config, enabled, used, covered, whole_tree, root, cwd, fingerprints)
    suppressed = sum(1 for f in files for r in f.results if r.suppressed is not None)
    if not show_suppressed:
        kept = [f._replace(results=tuple(r for r in f.results if r.suppressed is None)) for f in files]
        files = [f for f in kept if f.results or (keep >= Keep.FILES and f.checked)]
    return Report(
        files=tuple(files),
        files_checked=checked,
        notifications=tuple(notifications),
        rules=rule_infos(enabled, markdown=fingerprints),
        suppressed=suppressed,
    )


def lost_file(
    candidate: Candidate, why: str, enabled: Sequence[EnabledRule], root: Path, cwd: Path
) -> tuple[FileReport, list[Notification]]:
    """The report of a file whose worker process ended while checking it (killed, out of memory): not checked."""
    from mechlint.run.checking import INTERNAL_ERROR

    shown = display_path(candidate.path, cwd)
    message = (
        f"the worker process checking this file ended ({why}) before it was done: this file was not checked, "
        "the other files were; run again, or with --jobs 1 to check every file in one process"
    )
    level = next((e.level for e in enabled if e.rule.meta.id == INTERNAL_ERROR), None)
    results = () if level is None else (Result(shown, INTERNAL_ERROR, level, message, "", Region(1, 1, 1, 2)),)
    return FileReport(shown, repository_uri(candidate.path, root), results), [
        Notification(message, INTERNAL_ERROR, shown)
    ]


def _flush(services: RunServices, results_cache: ResultCache | None) -> None:
    """Write what a worker's caches hold in memory (see :func:`mechlint.run.parallel.run_all`)."""
    services.flush()
    if results_cache is not None:
        results_cache.flush()


def rule_infos(enabled: Sequence[EnabledRule], markdown: bool = True) -> tuple[RuleInfo, ...]:
    """What the report says about each rule of the run, built-in or from the configuration (``markdown``: with
    each rule's page, which only SARIF carries)."""
    from mechlint.catalog.docs import rule_info

    return tuple(rule_info(e.rule, markdown) for e in enabled)


def lint_file(
    candidate: Candidate,
    config: Config,
    enabled: Sequence[EnabledRule],
    root: Path,
    cwd: Path,
    fingerprints: bool = False,
    cache: ResultCache | None = None,
    value_hashes: bool = True,
    keep: Keep = Keep.FINDINGS,
) -> tuple[FileReport, list[Notification]]:
    """Check one file: its report, and a notification for each rule that crashed on it."""
    path = candidate.path
    shown = display_path(path, cwd)
    uri = repository_uri(path, root)
    raw = read_candidate(candidate, config, root)
    if isinstance(raw, str):
        level = next((e.level for e in enabled if e.rule.meta.id == UNREADABLE_FILE_RULE.id), None)
        if level is None:
            return FileReport(shown, uri, ()), []
        result = Result(shown, UNREADABLE_FILE_RULE.id, level, f"{shown} {raw}", "", Region(1, 1, 1, 1))
        return FileReport(shown, uri, (result,)), []
    document = load(shown, raw)
    document.location = path.absolute()
    key = cache.key(raw, cache.sources_key(document.location, source_paths(document.data))) if cache else None
    cached = cache.get(key, shown) if cache is not None and key is not None else None
    notifications: list[Notification] = []
    if cached is not None:
        results = cached
    else:
        findings, notifications = run_rules(document, enabled)
        if findings:
            document.prepare(pointer for f in findings for pointer in f.pointers())
        placed = sorted(placed_with_fixes(document, findings, enabled), key=Result.sort_key)
        if value_hashes:
            memo: dict[str, str] = {}
            placed = [
                r._replace(
                    value_hash=value_hash(document.data, r.pointer, r.message, memo),
                    context=context_of(document.data, r.pointer),
                )
                for r in placed
            ]
        results = tuple(placed)
        if cache is not None and key is not None and not notifications:
            cache.put(key, results)
    story = _story(document, config) if keep >= Keep.STORIES and document.parsed else None
    if not results:
        return FileReport(shown, uri, (), story=story), notifications
    hashes = {}
    if fingerprints:  # GitHub's line hash of the lines with results, which is all a report reads
        hashes = fingerprints_of_lines(raw.decode("utf-8", "replace"), (r.region.start_line for r in results))
    return FileReport(shown, uri, results, hashes, story=story), notifications


def _story(document: Document, config: Config) -> Story:
    """The storyboard of a document, timed with the reading rate ``a11y/reading-time`` is configured with."""
    from mechlint.document.story import DEFAULT_MINIMUM, DEFAULT_RATE, story_of
    from mechlint.rules.a11y.reading_time import META as READING_TIME_RULE

    options = config.options.get(READING_TIME_RULE.id, {})
    rate = options.get("characters-per-second", DEFAULT_RATE)
    minimum = options.get("minimum-seconds", DEFAULT_MINIMUM)
    return story_of(document.data, float(rate), float(minimum))


def source_paths(data: object) -> list[str]:
    """The ``path`` of every source that has one."""
    sources = items((as_object(data) or {}).get("sources"), "/sources")
    return [
        source["path"] for _, source, _ in sources if isinstance(source, dict) and isinstance(source.get("path"), str)
    ]


def lint_bytes(raw: bytes, path: str = "<memory>", config: Config | None = None) -> list[Result]:
    """Check one document held in memory; the results are in document order."""
    enabled = (config or Config()).enabled()
    document = load(path, raw)
    findings, _ = run_rules(document, enabled)
    return sorted(placed_with_fixes(document, findings, enabled), key=Result.sort_key)
