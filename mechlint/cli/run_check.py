"""What ``mechlint check`` does once its arguments are parsed, without typer.

Both the typer command (:mod:`mechlint.cli.check`) and the fast path
(:mod:`mechlint.cli.fast_check`, which parses the common ``check`` invocations
itself so that a pre-commit run does not pay for importing typer) build a
:class:`CheckOptions` and call :func:`run_check`, so the two cannot behave
differently.

Long: ``run_check`` is one flow from parsed options to the exit code (inputs, the run, every report,
the baseline); its option checks sit beside it so that both parsers share them, and the writing of the
reports beside it so that a run stopped by invalid configuration writes them as a full run does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, config_error, error
from mechlint.cli.output import text_width, use_color, write_output, write_output_chunks
from mechlint.cli.stdin import project_root_for, read_stdin, stdin_conflict
from mechlint.records import Record
from mechlint.safety.terminal import printable
from mechlint.version import __version__

if TYPE_CHECKING:
    from mechlint.config import Config
    from mechlint.errors import ConfigError
    from mechlint.model import Report
    from mechlint.report import OutputOptions

__all__ = [
    "CACHE_FROM",
    "CheckOptions",
    "FailOn",
    "Format",
    "format_named",
    "jobs_number",
    "level_named",
    "parse_outputs",
    "run_check",
    "split_commas",
]

#: Without --cache or --no-cache, the result cache is used for runs of this many files or more;
#: for fewer, opening it costs more than it saves (see docs/benchmarks.md).
CACHE_FROM = 50


class Format(StrEnum):
    text = "text"
    concise = "concise"
    json = "json"
    github = "github"
    sarif = "sarif"
    html = "html"
    gitlab = "gitlab"
    junit = "junit"


#: The text report's layouts: full (the default) and concise (one line a finding).
TEXT_FORMATS = (Format.text, Format.concise)


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    note = "note"
    never = "never"


#: The reports of a run: each one's format, file (``None``: standard output) and drawing options.
Writes = list[tuple[Format, "Path | None", "OutputOptions"]]


class CheckOptions(Record):
    """The arguments of ``check`` as typed: names and numbers are checked by :func:`run_check`, so that both
    parsers give the same message for a mistake."""

    paths: Sequence[str] = ()
    output_format: Format | str = Format.text
    outputs: Sequence[str] = ()
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    fail_on: str | None = None
    config_file: Path | None = None
    root: Path | None = None
    color: bool | None = None
    show_suppressed: bool = False
    baseline: Path | None = None
    update_baseline: bool = False
    since: str | None = None
    changed_files: bool = False
    jobs: int | str | None = None
    cache: bool | None = None  # None: on for runs of CACHE_FROM files or more
    show_source: bool | None = None
    statistics: bool = False
    quiet: int = 0
    stdin_filename: Path | None = None
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    show_fixes: bool = False


def split_commas(values: Sequence[str] | None) -> list[str]:
    """``--select a,b --select c`` → ``[a, b, c]``."""
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _choose(kind: str, value: str, choices: list[str]) -> str:
    """``unknown format 'sarf'; choose text, json, … (did you mean "sarif"?)``."""
    from mechlint.text.lookalike import suggestion

    return f"unknown {kind} {value!r}; choose {', '.join(choices)}{suggestion(value, choices)}"


def format_named(value: str) -> Format:
    """The report format ``value`` names; ValueError with the user's message (and a suggestion) otherwise."""
    if value in Format.__members__:
        return Format(value)
    raise ValueError(f"--format: {_choose('format', value, list(Format.__members__))}")


def level_named(value: str | None) -> str | None:
    """The ``--fail-on`` level; ValueError with the user's message otherwise."""
    if value is None or value in FailOn.__members__:
        return value
    raise ValueError(f"--fail-on: {_choose('level', value, list(FailOn.__members__))}")


def jobs_number(value: int | str | None) -> int | None:
    """The ``--jobs`` count: a whole number, at least 1; ValueError with the user's message otherwise."""
    if value is None:
        return None
    text = str(value).strip()
    if text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= 1:
        return int(text)
    raise ValueError(f"--jobs takes a whole number of worker processes, 1 or more; got {str(value)[:40]!r}")


def parse_outputs(values: Sequence[str]) -> tuple[Path | None, list[tuple[Format, Path]]]:
    """``-o FILE`` (the --format report) and ``-o FORMAT:FILE`` (one more report); ValueError for a second FILE
    or for ``NAME:FILE`` where NAME is close to a format's name (``sarf:out.sarif``)."""
    from mechlint.text.lookalike import closest

    main_output: Path | None = None
    extra: list[tuple[Format, Path]] = []
    for value in values:
        name, colon, rest = value.partition(":")
        if colon and name in Format.__members__:
            extra.append((Format(name), Path(_file_name(value, rest))))
        elif colon and rest and name.isalpha() and closest(name, list(Format.__members__)) is not None:
            raise ValueError(f"-o {value}: {_choose('format', name, list(Format.__members__))}")
        elif main_output is None:
            main_output = Path(_file_name(value, value))
        else:
            raise ValueError(f"-o: only one FILE for the --format report; got {value!r} too (use FORMAT:FILE for more)")
    return main_output, extra


def _file_name(value: str, name: str) -> str:
    """``name``, the file of ``-o value``, if it names a file; ValueError otherwise.

    An empty name (``-o sarif:$UNSET``) or one that ends in a separator
    (``-o sarif:out/new/``, which the path would quietly turn into a file ``new``)
    names no file.
    """
    if not name:
        return _no_file(value, "gives no file name (an unset variable?); write FORMAT:FILE")
    if name.replace(os.sep, "/").rsplit("/", 1)[-1] in ("", ".", ".."):
        return _no_file(value, "names a folder, not a file; give the report's file name (FORMAT:FOLDER/FILE)")
    return name


def _no_file(value: str, reason: str) -> str:
    raise ValueError(f"-o {printable(value)!r} {reason}")


def _changed_targets(
    targets: Sequence[str], since: str, config: Config, project_root: Path, root: Path | None
) -> list[str]:
    from mechlint.run.changed import changed_paths, select_changed
    from mechlint.run.discovery import mechanism_files

    top, changed = changed_paths(Path.cwd(), since)
    try:
        candidates = mechanism_files(targets, config, project_root)
        return [str(p) for p in select_changed(candidates, top, changed, root)]
    finally:
        changed.close()


def _given_files_targets(targets: Sequence[str], config: Config, project_root: Path, root: Path | None) -> list[str]:
    """``--changed-files``: the mechanism files among ``targets``, and every mechanism of the project pinning one.

    What a pre-commit hook needs: it passes every staged file, and an edit of
    a source makes the mechanism that pins it stale. Only files that match
    the include patterns are checked; a given path that is gone (a deleted
    source) still selects the mechanisms that pin it.
    """
    from mechlint.provenance.resolve import git_toplevel
    from mechlint.run.changed import select_changed
    from mechlint.run.discovery import base_folder, mechanism_files

    top = git_toplevel(project_root) or project_root
    changed = set()
    for target in targets:
        absolute = Path(os.path.abspath(target))
        relative = absolute.relative_to(top) if absolute.is_relative_to(top) else None
        if relative is None:
            try:
                relative = absolute.resolve().relative_to(top)
            except ValueError:
                continue
        changed.add(relative.as_posix())
    candidates = mechanism_files([base_folder(config, project_root)], config, project_root)
    return [str(p) for p in select_changed(candidates, top, changed, root)]


def run_check(options: CheckOptions) -> int:
    """Run ``mechlint check``; the exit code."""
    named = options.paths and options.stdin_filename is None and "-" not in options.paths
    if not named or options.since is not None or options.changed_files:
        return _run_check(options)
    from mechlint.provenance import early

    early.begin(options.paths)  # git works while the rules load (a few files named)
    try:
        return _run_check(options)
    finally:
        early.discard()  # a run stopped before it needed history (a configuration error) leaves nothing running


def _run_check(options: CheckOptions) -> int:
    from mechlint.cli.progress import progress_bar
    from mechlint.config import load_config
    from mechlint.errors import ConfigError
    from mechlint.model import Keep
    from mechlint.run.adoption import BASELINE_VERSION, baseline_text, load_baseline
    from mechlint.run.discovery import UsageError
    from mechlint.run.engine import lint
    from mechlint.run.resultcache import result_cache_folder

    try:
        output_format = format_named(str(options.output_format))
        fail_on = level_named(options.fail_on)
        jobs = jobs_number(options.jobs)
        main_output, extra_outputs = parse_outputs(options.outputs)
    except ValueError as problem:
        error(str(problem))
        return EXIT_USAGE
    baseline = options.baseline
    if options.update_baseline and baseline is None:
        error("--update-baseline needs --baseline FILE")
        return EXIT_USAGE
    stdin = options.stdin_filename is not None or "-" in options.paths
    conflict = stdin_conflict(options) if stdin else None
    if stdin and (options.fix or options.diff):
        conflict = (
            "--fix and --diff change files on disk; a buffer on standard input has none (use the language server)"
        )
    if options.update_baseline and (options.fix or options.diff):
        conflict = "--update-baseline records the findings as they are; run --fix first, then --update-baseline"
    if conflict:
        error(conflict)
        return EXIT_USAGE
    # a buffer is checked as if it were at --stdin-filename: configuration and repository are found from there
    start = Path(os.path.abspath(options.stdin_filename)).parent if options.stdin_filename is not None else None
    try:
        config = load_config(options.config_file, start=start).with_flags(
            select=split_commas(options.select), ignore=split_commas(options.ignore), fail_on=fail_on
        )
        known = load_baseline(baseline) if baseline is not None and not options.update_baseline else None
    except ConfigError as problem:
        config_error(problem)
        _write_invalid_config_reports(problem, options, start, output_format, main_output, extra_outputs)
        return EXIT_USAGE
    if known is not None and known.version != BASELINE_VERSION and options.quiet < 2:
        sys.stderr.write(
            f"mechlint: {baseline} is a version {known.version} baseline, matched on JSON pointers: an element "
            "inserted above a finding shows it again. Rewrite it with --update-baseline.\n"
        )
    if options.update_baseline and (options.since is not None or options.changed_files):
        error("--update-baseline records the findings of the whole project; run it without --since or --changed-files")
        return EXIT_USAGE
    if options.since is not None and options.changed_files:
        error("--since and --changed-files: use one (--changed-files takes the changed files as its paths)")
        return EXIT_USAGE
    root = options.root
    if root is not None and not root.is_dir():
        error(f"--root {root}: not a folder")
        return EXIT_USAGE
    if options.statistics and output_format not in TEXT_FORMATS:
        error(f"--statistics counts findings in the text report; --format {output_format.value} has every finding")
        return EXIT_USAGE
    project_root = (root or project_root_for(start)).resolve()
    targets = options.paths or ["."]
    buffer = read_stdin(options.stdin_filename, config.max_file_size) if stdin else None
    if buffer is not None:
        targets = []
    formats = {output_format, *(f for f, _ in extra_outputs)}
    try:
        nothing = ""
        if options.since is not None:
            targets = _changed_targets(targets, options.since, config, project_root, root)
            nothing = f"No mechanism file changed since {printable(options.since)}, and no source of one."
        elif options.changed_files:
            targets = _given_files_targets(options.paths, config, project_root, root)
            nothing = "No mechanism file among the given files, and none whose source is among them."
        if nothing and not targets and options.quiet < 2:
            sys.stderr.write(nothing + "\n")
        if options.fix or options.diff:
            from mechlint.cli.fixing import fix_step

            ended = fix_step(
                targets,
                config,
                project_root,
                root,
                unsafe=options.unsafe_fixes,
                diff=options.diff,
                show_fixes=options.show_fixes,
                quiet=options.quiet,
            )
            if ended is not None:
                return ended
        report = lint(
            targets,
            config,
            root=project_root,
            fingerprints=Format.sarif in formats,
            keep=Keep.STORIES if Format.html in formats else Keep.FILES if Format.junit in formats else Keep.FINDINGS,
            source_root=root,
            show_suppressed=options.show_suppressed,
            baseline=known,
            baseline_name=str(baseline or ""),
            jobs=jobs,
            cache=result_cache_folder(project_root) if options.cache is not False and buffer is None else None,
            cache_from=CACHE_FROM if options.cache is None else 0,
            progress=progress_bar() if options.quiet < 2 else None,
            # only a baseline and fingerprints need them (a given baseline and SARIF turn them on)
            value_hashes=options.update_baseline or Format.gitlab in formats,
            buffer=buffer,
        )
    except UsageError as problem:
        error(str(problem))
        return EXIT_USAGE
    if buffer is not None and not report.files_checked:
        nothing = (
            f"{printable(str(options.stdin_filename))} is not a mechanism file by the include and exclude "
            "patterns of the configuration; nothing checked."
        )
        sys.stderr.write(nothing + "\n")
    writes = _writes(options, output_format, main_output, extra_outputs, project_root)
    if Format.html in formats:
        writes = _with_run_facts(writes, report, project_root, root, config)
    empty = bool(nothing) and not targets  # the line on stderr is the whole text report
    if not _write_reports(report, writes, project_root, quiet_text=empty, text=nothing + "\n" if empty else None):
        return EXIT_USAGE
    if options.update_baseline and baseline is not None:
        try:
            write_output(baseline_text(report.files), baseline, project_root)
        except OSError as problem:
            error(f"cannot write {baseline}: {problem.strerror or problem}")
            return EXIT_USAGE
        if options.quiet < 2:
            sys.stderr.write(f"Wrote {len(report.results)} findings to the baseline {printable(str(baseline))}.\n")
        return EXIT_OK
    worst, threshold = report.worst(), config.fail_level
    failed = worst is not None and threshold is not None and worst >= threshold
    return EXIT_FINDINGS if failed else EXIT_OK


def _writes(
    options: CheckOptions,
    output_format: Format,
    main_output: Path | None,
    extra_outputs: list[tuple[Format, Path]],
    project_root: Path,
) -> Writes:
    """Each report to write: its format, its file (``None``: standard output) and how it is drawn."""
    from mechlint.report import OutputOptions

    plain = OutputOptions(
        root_uri=project_root.as_uri().rstrip("/") + "/",
        tool_version=__version__,
        width=text_width(to_terminal=False),
        show_source=options.show_source,
        unsafe_fixes=options.unsafe_fixes,
    )
    shown = plain._replace(
        color=main_output is None and output_format in TEXT_FORMATS and use_color(options.color),
        width=text_width(to_terminal=main_output is None),
        statistics=options.statistics,
        quiet=options.quiet if main_output is None else 0,  # -q quiets standard output; files are complete
    )
    writes: Writes = [(output_format, main_output, shown), *((f, p, plain) for f, p in extra_outputs)]
    if options.quiet >= 2 and main_output is None:
        writes = writes[1:]  # -qq: nothing on standard output, only the exit code (files are still written)
    return writes


def _with_run_facts(writes: Writes, report: Report, project_root: Path, root: Path | None, config: Config) -> Writes:
    """The HTML report's options with the run's facts: its header, and the diff of each changed source."""
    from mechlint.provenance.resolve import DEFAULT_FROZEN, Provenance
    from mechlint.review.forreport import run_facts

    provenance = Provenance(root, config.frozen_pattern() or DEFAULT_FROZEN, fallback=project_root)
    try:
        facts = run_facts(report, project_root, provenance, config.source)
    finally:
        provenance.close()
    return [(kind, target, how._replace(run=facts) if kind is Format.html else how) for kind, target, how in writes]


def _write_reports(report: Report, writes: Writes, project_root: Path, quiet_text: bool, text: str | None) -> bool:
    """Write every report; False, after an error line, when one cannot be written.

    ``quiet_text``: the text report is not written on standard output (what
    standard error already says is all of it); ``text``: the text report's
    content, instead of the report's.
    """
    from mechlint.report import reporter

    for kind, target, how in writes:
        if kind in TEXT_FORMATS and target is None and quiet_text:
            continue
        try:
            if kind in TEXT_FORMATS and text is not None:
                write_output(text, target, project_root)
            elif kind is Format.sarif:  # written as it is made: a large log is never held whole
                from mechlint.report.sarif import render_chunks

                write_output_chunks(render_chunks(report, how), target, project_root)
            else:
                write_output(reporter(kind.value)(report, how), target, project_root)
        except OSError as problem:
            error(f"cannot write {target}: {problem.strerror or problem}")
            return False
    return True


def _write_invalid_config_reports(
    problem: ConfigError,
    options: CheckOptions,
    start: Path | None,
    output_format: Format,
    main_output: Path | None,
    extra_outputs: list[tuple[Format, Path]],
) -> None:
    """A run stopped by its configuration still writes every report asked for, with each mistake as a finding.

    The text report on standard output is the error lines already printed;
    a mistake of the command line alone (no file to point at) writes nothing,
    as any other usage error.
    """
    from mechlint.run.configfindings import invalid_config_report

    root = options.root if options.root is not None and options.root.is_dir() else None
    project_root = (root or project_root_for(start)).resolve()
    formats = {output_format, *(f for f, _ in extra_outputs)}
    report = invalid_config_report(problem, project_root, fingerprints=Format.sarif in formats)
    if report is not None:
        writes = _writes(options, output_format, main_output, extra_outputs, project_root)
        _write_reports(report, writes, project_root, quiet_text=True, text=None)
