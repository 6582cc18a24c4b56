"""The library entry point: ``lint(paths, config) -> Report``.

It finds the files, loads each one, runs every enabled rule over it, turns a
crashing rule into a ``mechlint/internal-error`` finding, and places the
findings of each file on lines and columns. It prints nothing.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.adoption import (
    UNUSED_SUPPRESSION,
    Baseline,
    apply_baseline,
    apply_suppressions,
    context_of,
    value_hash,
)
from mechlint.config import DEFAULT_EXCLUDE, Config, EnabledRule, load_config
from mechlint.discovery import Candidate, discover, find_project_root, lexical_relative, read_file
from mechlint.document import Document, load
from mechlint.model import FileReport, Finding, Level, LocatedTrace, Notification, Region, Report, Result, RuleInfo
from mechlint.parallel import default_jobs, run_all
from mechlint.report.fingerprint import fingerprints_of_lines
from mechlint.rules.schema.unsupported_version import unsupported
from mechlint.run import Run
from mechlint.views import as_object, items

if TYPE_CHECKING:  # the result cache (and SQLite) is imported only by runs that use it
    from mechlint.model import Story
    from mechlint.resultcache import ResultCache

INTERNAL_ERROR = "mechlint/internal-error"
UNREADABLE_FILE = "mechlint/unreadable-file"
#: Changes whenever the cached form of a result changes (2: results carry their context).
RESULTS_FORMAT = 2
_STAGE_ORDER = {"load": 0, "version": 1, "document": 2}


def relative_posix(path: Path, base: Path) -> str | None:
    """``path.relative_to(base).as_posix()`` (lexical, as pathlib does it), or ``None``; with strings, so cheaper."""
    return lexical_relative(path.as_posix(), base.as_posix())


def display_path(path: Path, cwd: Path) -> str:
    """How a person refers to ``path``: relative to the working folder if inside it."""
    return relative_posix(path, cwd) or path.as_posix()


def repository_uri(path: Path, root: Path) -> str:
    """The path relative to the project root, for SARIF and GitHub; absolute if outside."""
    relative = relative_posix(path, root)
    return relative if relative is not None else path.as_uri()


def lint(
    paths: Iterable[str | os.PathLike[str]] = (".",),
    config: Config | None = None,
    *,
    root: Path | None = None,
    fingerprints: bool = False,
    source_root: Path | None = None,
    show_suppressed: bool = False,
    baseline: Baseline | None = None,
    baseline_name: str = "",
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    cache: Path | None = None,
    value_hashes: bool = True,
    stories: bool = False,
) -> Report:
    """Check every mechanism file under ``paths`` and return the whole report.

    Source paths are relative to ``source_root`` when given, else to the git
    repository that holds each mechanism file. Findings matched by a
    configured suppression or recorded in ``baseline`` are marked suppressed,
    and left out unless ``show_suppressed``. ``jobs`` worker processes (by
    default, one per core for large runs) give the same report as one;
    ``progress(done, total)`` is called as files are finished. With ``cache``
    (a folder), results of unchanged files are reused (see :mod:`mechlint.resultcache`).
    ``value_hashes=False`` leaves ``Result.value_hash`` and ``Result.context``
    empty (only baselines and fingerprints need them), unless a baseline,
    fingerprints or the cache is in use. The report carries the metadata of
    every rule that ran (:class:`~mechlint.model.RuleInfo`). ``stories=True`` keeps
    every checked file in the report with its :class:`~mechlint.story.Story`
    (what the HTML report draws), findings or not.
    """
    hashes = value_hashes or fingerprints or baseline is not None or cache is not None
    cwd = Path.cwd()
    config = config if config is not None else load_config(start=cwd)
    root = (root or find_project_root(cwd)).resolve()
    base = config.root if config.source else root
    run = Run(root=root, source_root=source_root, frozen_pattern=_frozen_pattern(config))
    enabled = [replace(e, context=replace(e.context, run=run)) for e in config.enabled()]
    candidates = list(discover([Path(p) for p in paths], config.include, (*DEFAULT_EXCLUDE, *config.exclude), base))
    files: list[FileReport] = []
    notifications: list[Notification] = []
    used: Counter[int] = Counter()
    covered: set[int] = set()
    checked = 0

    results_cache = None
    if cache is not None:
        sources_key = run.provenance().cache_key
        from mechlint.resultcache import ResultCache

        results_cache = ResultCache(cache, config_fingerprint(config, enabled, run), sources_key)

    def work(candidate: Candidate) -> tuple[FileReport, list[Notification]]:
        found: list[Notification] = []
        report = lint_file(candidate, config, enabled, root, cwd, found, fingerprints, results_cache, hashes, stories)
        collector.tick()
        return report, found

    workers = default_jobs(len(candidates)) if jobs is None else jobs
    collector = _Collector()
    try:
        for candidate, (report, found) in zip(candidates, run_all(candidates, work, workers, progress), strict=True):
            checked += 1
            notifications += found
            if not config.suppressions:
                if report.results or report.story is not None:
                    files.append(report)
                continue
            relative = _relative(candidate.path, base) or report.uri
            covered.update(i for i, s in enumerate(config.suppressions) if s.covers(relative))
            if report.results or report.story is not None:
                results = apply_suppressions(report.results, relative, config.suppressions, used)
                files.append(replace(report, results=tuple(results)))
    finally:
        collector.restore()
        run.close()
        if results_cache is not None:
            results_cache.prune()
            results_cache.close()
    files.sort(key=lambda f: f.path)
    if baseline is not None:
        files = apply_baseline(files, baseline, baseline_name)
    whole_tree = any(base.is_relative_to(Path(p).resolve()) for p in paths)
    files += _unused_suppressions(config, enabled, used, covered, whole_tree, root, cwd, fingerprints)
    suppressed = sum(1 for f in files for r in f.results if r.suppressed is not None)
    if not show_suppressed:
        kept = [replace(f, results=tuple(r for r in f.results if r.suppressed is None)) for f in files]
        files = [f for f in kept if f.results or f.story is not None]
    return Report(
        files=tuple(files),
        files_checked=checked,
        notifications=tuple(notifications),
        rules=rule_infos(enabled),
        suppressed=suppressed,
    )


def rule_infos(enabled: Sequence[EnabledRule]) -> tuple[RuleInfo, ...]:
    """What the report says about each rule of the run, built-in or from the configuration."""
    from mechlint.docs import rule_info

    return tuple(rule_info(e.rule) for e in enabled)


class _Collector:
    """The garbage collector's automatic runs paused while files are checked, and run by count instead.

    What exists before the run (modules, compiled rules, configuration) lives
    as long as the run, so it is frozen out of every collection. The rules
    make many short-lived objects and almost no cycles (refcounting frees
    them), so instead of collecting every few hundred allocations, the young
    generations are collected once every :attr:`EVERY` files: memory stays
    flat, and the run is about 5 % faster. The previous state comes back after.
    """

    EVERY = 256

    def __init__(self) -> None:
        self.enabled = gc.isenabled()
        self.files = 0
        gc.freeze()
        gc.disable()

    def tick(self) -> None:
        self.files += 1
        if self.files % self.EVERY == 0:
            gc.collect(1)

    def restore(self) -> None:
        gc.unfreeze()
        if self.enabled:
            gc.enable()


def _relative(path: Path, base: Path) -> str | None:
    found = relative_posix(path.absolute(), base)
    if found is not None:
        return found
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return None


def _unused_suppressions(
    config: Config,
    enabled: Sequence[EnabledRule],
    used: Counter[int],
    covered: set[int],
    whole_tree: bool,
    root: Path,
    cwd: Path,
    fingerprints: bool = False,
) -> list[FileReport]:
    level = next((e.level for e in enabled if e.rule.meta.id == UNUSED_SUPPRESSION), None)
    if level is None or config.source is None:
        return []
    results = []
    for number, suppression in enumerate(config.suppressions):
        if used[number] or (number not in covered and not whole_tree):
            continue
        why = "no finding matched it" if number in covered else "no checked file matches its path"
        line = suppression.line or 1
        message = (
            f"the suppression of {suppression.rule} in {suppression.path!r} is unused ({why}); "
            "remove it or fix its path, rule or pointer"
        )
        shown = display_path(config.source, cwd)
        context = f"ignore[{suppression.path}][{suppression.rule}][{suppression.pointer or ''}]"
        region = Region(line, 1, line, 2)
        results.append(Result(shown, UNUSED_SUPPRESSION, level, message, "", region, context=context))
    if not results:
        return []
    shown, uri = display_path(config.source, cwd), repository_uri(config.source, root)
    hashes: dict[int, str] = {}
    if fingerprints:
        try:
            text = config.source.read_bytes().decode("utf-8", "replace")
            hashes = fingerprints_of_lines(text, (r.region.start_line for r in results))
        except OSError:
            hashes = {}
    return [FileReport(shown, uri, tuple(results), hashes, checked=False)]


def lint_file(
    candidate: Candidate,
    config: Config,
    enabled: Sequence[EnabledRule],
    root: Path,
    cwd: Path,
    notifications: list[Notification],
    fingerprints: bool = False,
    cache: ResultCache | None = None,
    value_hashes: bool = True,
    stories: bool = False,
) -> FileReport:
    path = candidate.path
    shown = display_path(path, cwd)
    uri = repository_uri(path, root)
    raw = read_file(path, config.max_file_size, root)
    if isinstance(raw, str):
        level = next((e.level for e in enabled if e.rule.meta.id == UNREADABLE_FILE), None)
        if level is None:
            return FileReport(shown, uri, ())
        result = Result(shown, UNREADABLE_FILE, level, f"{shown} {raw}", "", Region(1, 1, 1, 1))
        return FileReport(shown, uri, (result,))
    document = load(shown, raw)
    document.location = path.absolute()
    key = cache.key(raw, cache.sources_key(document.location, source_paths(document.data))) if cache else None
    cached = cache.get(key) if cache is not None and key is not None else None
    if cached is not None:
        from mechlint.resultcache import decode

        results = decode(cached, shown)
    else:
        crashed = len(notifications)
        findings = run_rules(document, enabled, notifications)
        if findings:
            document.prepare(pointer for f in findings for pointer in (f.pointer, *(t.pointer for t in f.trace)))
        placed = sorted((place(document, finding) for finding in findings), key=Result.sort_key)
        if value_hashes:
            placed = [
                replace(
                    r,
                    value_hash=value_hash(document.data, r.pointer, r.message),
                    context=context_of(document.data, r.pointer),
                )
                for r in placed
            ]
        results = tuple(placed)
        if cache is not None and key is not None and len(notifications) == crashed:
            from mechlint.resultcache import encode

            cache.put(key, encode(results))
    story = _story(document, config) if stories and document.parsed else None
    if not results:
        return FileReport(shown, uri, (), story=story)
    hashes = {}
    if fingerprints:  # GitHub's line hash of the lines with results, which is all a report reads
        hashes = fingerprints_of_lines(raw.decode("utf-8", "replace"), (r.region.start_line for r in results))
    return FileReport(shown, uri, results, hashes, story=story)


def _story(document: Document, config: Config) -> Story:
    """The storyboard of a document, timed with the reading rate ``a11y/reading-time`` is configured with."""
    from mechlint.story import DEFAULT_MINIMUM, DEFAULT_RATE, story_of

    options = config.options.get("a11y/reading-time", {})
    rate = options.get("characters-per-second", DEFAULT_RATE)
    minimum = options.get("minimum-seconds", DEFAULT_MINIMUM)
    return story_of(document.data, float(rate), float(minimum))


def source_paths(data: object) -> list[str]:
    """The ``path`` of every source that has one."""
    sources = items((as_object(data) or {}).get("sources"), "/sources")
    return [
        source["path"] for _, source, _ in sources if isinstance(source, dict) and isinstance(source.get("path"), str)
    ]


def config_fingerprint(config: Config, enabled: Sequence[EnabledRule], run: Run) -> str:
    """Everything besides a file's bytes and sources that its results depend on."""
    from mechlint import __version__

    source = b""
    if config.source is not None:
        try:
            source = config.source.read_bytes()
        except OSError:
            source = b"unreadable"
    rules = [
        (
            e.rule.meta.id,
            int(e.level),
            sorted((k, repr(v)) for k, v in e.options.items()),
            e.rule.doc,
            repr(e.rule.meta),
        )
        for e in enabled
    ]
    lists = enabled[0].context.lists if enabled else None
    words = sorted(repr(s) for s in lists.substitutions) if lists else []
    allow = sorted(lists.allow) if lists else []
    from mechlint.resultcache import fingerprint

    return fingerprint(
        [
            __version__,
            RESULTS_FORMAT,
            source,
            rules,
            words,
            allow,
            str(run.root),
            str(run.source_root),
            run.frozen_pattern,
        ]
    )


def _frozen_pattern(config: Config) -> str | None:
    pattern = config.options.get("provenance/frozen-copy-mismatch", {}).get("pattern")
    return pattern if isinstance(pattern, str) else None


def lint_bytes(raw: bytes, path: str = "<memory>", config: Config | None = None) -> list[Result]:
    """Check one document held in memory; the results are in document order."""
    enabled = (config or Config()).enabled()
    document = load(path, raw)
    findings = run_rules(document, enabled, [])
    return sorted((place(document, finding) for finding in findings), key=Result.sort_key)


def run_rules(document: Document, enabled: Sequence[EnabledRule], notifications: list[Notification]) -> list[Finding]:
    """Apply each rule whose stage the document reached; a crash is a finding."""
    reached = 0
    if document.parsed:
        reached = 1 if unsupported(document.data) else 2
    findings: list[Finding] = []
    internal = next((e for e in enabled if e.rule.meta.id == INTERNAL_ERROR), None)
    for entry in enabled:
        meta = entry.rule.meta
        if meta.stage == "engine" or _STAGE_ORDER[meta.stage] > reached:
            continue
        try:
            found = list(entry.rule.check(document, entry.context))
        except Exception as error:  # a crashing rule must not stop the others
            message = f"the rule {meta.id} crashed on this file ({type(error).__name__}: {error}); the other rules ran"
            notifications.append(Notification(message, meta.id, document.path))
            if internal is not None:
                findings.append(Finding(INTERNAL_ERROR, message, level=internal.level))
            continue
        level = entry.level  # a finding may raise its own level above the configured one, never lower it
        findings.extend(f if f.level == level else _with_level(f, max(level, f.level or level)) for f in found)
    return findings


def _with_level(f: Finding, level: Level) -> Finding:
    """The finding at the configured level (a plain constructor call: ``dataclasses.replace`` is slower)."""
    return Finding(
        rule_id=f.rule_id,
        message=f.message,
        pointer=f.pointer,
        on_key=f.on_key,
        offset=f.offset,
        span=f.span,
        trace=f.trace,
        level=level,
    )


def place(document: Document, finding: Finding) -> Result:
    """Attach line, column and the source line to a finding."""
    region = document.region(finding)
    lines = document.lines
    source_line = lines[region.start_line - 1].rstrip("\r") if region.start_line <= len(lines) else ""
    trace = tuple(
        LocatedTrace(document.region(Finding(finding.rule_id, step.message, step.pointer)), step.message, step.pointer)
        for step in finding.trace
    )
    assert finding.level is not None
    return Result(
        path=document.path,
        rule_id=finding.rule_id,
        level=finding.level,
        message=finding.message,
        pointer=finding.pointer,
        region=region,
        source_line=source_line,
        trace=trace,
    )
