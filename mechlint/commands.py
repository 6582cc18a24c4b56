"""What ``mechlint check`` does once its arguments are parsed, without typer.

Both the full command line (:mod:`mechlint.cli`, on typer) and the fast entry
point (:mod:`mechlint.entry`, which parses the common ``check`` invocations
itself so that a pre-commit run does not pay for importing typer) call
:func:`run_check`, so the two cannot behave differently.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mechlint import __version__
from mechlint.terminal import printable

if TYPE_CHECKING:
    from mechlint.config import Config
    from mechlint.discovery import Candidate

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
#: Without --cache or --no-cache, the result cache is used for runs of this many files or more;
#: for fewer, opening it costs more than it saves (see docs/benchmarks.md).
CACHE_FROM = 50


class Format(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    html = "html"
    gitlab = "gitlab"
    junit = "junit"


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    note = "note"
    never = "never"


@dataclass
class CheckOptions:
    paths: list[str] = field(default_factory=list)
    output_format: Format = Format.text
    outputs: list[str] = field(default_factory=list)
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fail_on: str | None = None
    config_file: Path | None = None
    root: Path | None = None
    color: bool | None = None
    show_suppressed: bool = False
    baseline: Path | None = None
    update_baseline: bool = False
    since: str | None = None
    changed_files: bool = False
    jobs: int | None = None
    cache: bool | None = None  # None: on for runs of CACHE_FROM files or more
    show_source: bool | None = None
    statistics: bool = False
    quiet: int = 0
    stdin_filename: Path | None = None


def _error(message: str) -> None:
    """The one place that prints an error: one line, with anything read from input made inert."""
    sys.stdout.flush()
    sys.stderr.write(f"mechlint: {printable(message)}\n")
    sys.stderr.flush()


def _split(values: list[str] | None) -> list[str]:
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _use_color(choice: bool | None) -> bool:
    if choice is not None:
        return choice
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def _text_width(to_terminal: bool) -> int:
    """Columns for the text report: ``COLUMNS``, else the terminal's (on one), else a default; at least 40."""
    import shutil

    from mechlint.report import DEFAULT_WIDTH

    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and int(columns) > 0:
        return max(int(columns), 40)
    if to_terminal and sys.stdout.isatty():
        return max(shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns, 40)
    return DEFAULT_WIDTH


def write_output(text: str, output: Path | None, inside: Path | None = None) -> None:
    """Write to stdout, or to ``output`` (see :func:`mechlint.safeio.write_atomically`; ``inside``: the repository)."""
    data = text.encode("utf-8", "backslashreplace")
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    from mechlint.safeio import write_atomically

    write_atomically(output, data, inside)


def guarded(run: Callable[[], int]) -> int:
    """Run a command; an interruption, a closed pipe or a bug becomes an exit code, never a traceback."""
    try:
        return run()
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as error:  # the last line of defence: never a traceback
        _error(f"internal error ({type(error).__name__}: {error}); please report it")
        return EXIT_USAGE


class _Usage(Exception):
    pass


def parse_outputs(values: list[str]) -> tuple[Path | None, list[tuple[Format, Path]]]:
    """``-o FILE`` (the --format report) and ``-o FORMAT:FILE`` (one more report)."""
    main_output: Path | None = None
    extra: list[tuple[Format, Path]] = []
    for value in values:
        name, colon, rest = value.partition(":")
        if colon and name in Format.__members__ and rest:
            extra.append((Format(name), Path(rest)))
        elif main_output is None:
            main_output = Path(value)
        else:
            raise _Usage(f"-o: only one FILE for the --format report; got {value!r} too (use FORMAT:FILE for more)")
    return main_output, extra


def _changed_targets(
    targets: list[str], since: str, config: Config, project_root: Path, root: Path | None
) -> list[str]:
    from mechlint.changed import changed_paths, select_changed
    from mechlint.config import DEFAULT_EXCLUDE
    from mechlint.discovery import discover

    base = config.root if config.source else project_root
    top, changed = changed_paths(Path.cwd(), since)
    candidates = discover([Path(t) for t in targets], config.include, (*DEFAULT_EXCLUDE, *config.exclude), base)
    return [str(p) for p in select_changed(candidates, top, changed, root)]


def result_cache_folder(project_root: Path) -> Path | None:
    """Where ``check`` keeps its result cache for this project: the user's cache folder, never the repository.

    ``None`` (run without the cache) when there is no home folder, or when the
    cache folder is inside the project, where a repository could carry it.
    """
    import hashlib

    from mechlint.sqlite import user_cache_folder

    folder = user_cache_folder()
    if folder is None or Path(os.path.realpath(folder)).is_relative_to(project_root):
        return None
    return folder / "results" / hashlib.sha256(os.fsencode(project_root)).hexdigest()[:16]


def _given_files_targets(targets: list[str], config: Config, project_root: Path, root: Path | None) -> list[str]:
    """``--changed-files``: the mechanism files among ``targets``, and every mechanism of the project pinning one.

    What a pre-commit hook needs: it passes every staged file, and an edit of
    a source makes the mechanism that pins it stale. Only files that match
    the include patterns are checked; a given path that is gone (a deleted
    source) still selects the mechanisms that pin it.
    """
    from mechlint.changed import select_changed
    from mechlint.config import DEFAULT_EXCLUDE
    from mechlint.discovery import discover
    from mechlint.provenance.resolve import git_toplevel

    base = config.root if config.source else project_root
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
    candidates = discover([base], config.include, (*DEFAULT_EXCLUDE, *config.exclude), base)
    return [str(p) for p in select_changed(candidates, top, changed, root)]


def _progress_delay() -> float:
    """Seconds before the progress bar appears: 2, or ``MECHLINT_PROGRESS_AFTER``."""
    try:
        return max(float(os.environ.get("MECHLINT_PROGRESS_AFTER", "2")), 0.0)
    except ValueError:
        return 2.0


class _ProgressBar:
    """A rich progress bar on stderr (a terminal), shown once a run has taken two seconds."""

    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.delay = _progress_delay()
        self.started = self.clock()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if self.clock() - self.started < self.delay or done >= total:
                return
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("checking", total=total)
        self.bar.update(self.task, completed=done)
        if done >= total:
            self.bar.stop()


def _progress_bar() -> Callable[[int, int], None] | None:
    """The progress bar, or nothing in CI, when stderr is not a terminal, or on a dumb terminal."""
    if os.environ.get("CI") or not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return None
    return _ProgressBar()


def _stdin_conflict(options: CheckOptions) -> str | None:
    """Why standard input cannot be checked with these options, or ``None``."""
    name = options.stdin_filename
    if name is not None and (name.name in ("", ".", "..") or "\x00" in str(name)):
        return f"--stdin-filename {printable(str(name))!r}: give the path of a file, to check standard input as"
    if any(path != "-" for path in options.paths) or len(options.paths) > 1:
        return "standard input (-, --stdin-filename) is checked alone: give no other path"
    if options.since is not None or options.changed_files:
        return "--since and --changed-files select files on disk; they do not go with standard input"
    if options.update_baseline:
        return "--update-baseline records the findings of the whole project; it does not go with standard input"
    return None


def _project_root(start: Path | None) -> Path:
    """The repository of ``start`` (the folder of --stdin-filename), else of the working folder."""
    from mechlint.discovery import find_project_root

    cwd = Path.cwd()
    if start is None:
        return find_project_root(cwd)
    found = find_project_root(start)
    if (found / ".git").exists() or not start.resolve().is_relative_to(cwd.resolve()):
        return found
    return find_project_root(cwd)  # no repository: the working folder, as for a file on disk


def _read_stdin(name: Path | None, max_size: int) -> Candidate:
    """The buffer on standard input (at most ``max_size`` bytes) at the path it is checked as.

    Without ``--stdin-filename`` it is ``-`` in the working folder, and always checked.
    """
    from mechlint.discovery import Candidate, read_stream

    path = Path(os.path.abspath(name if name is not None else "-"))
    return Candidate(path, explicit=name is None, data=read_stream(sys.stdin.buffer, max_size))


def run_check(options: CheckOptions) -> int:
    """Run ``mechlint check``; the exit code."""
    from mechlint.adoption import BASELINE_VERSION, baseline_text, load_baseline
    from mechlint.config import load_config
    from mechlint.discovery import UsageError
    from mechlint.engine import lint
    from mechlint.errors import ConfigError
    from mechlint.model import Keep
    from mechlint.report import OutputOptions, reporter

    try:
        main_output, extra_outputs = parse_outputs(options.outputs)
    except _Usage as error:
        _error(str(error))
        return EXIT_USAGE
    baseline = options.baseline
    if options.update_baseline and baseline is None:
        _error("--update-baseline needs --baseline FILE")
        return EXIT_USAGE
    stdin = options.stdin_filename is not None or "-" in options.paths
    if stdin and (problem := _stdin_conflict(options)):
        _error(problem)
        return EXIT_USAGE
    # a buffer is checked as if it were at --stdin-filename: configuration and repository are found from there
    start = Path(os.path.abspath(options.stdin_filename)).parent if options.stdin_filename is not None else None
    try:
        config = load_config(options.config_file, start=start).with_flags(
            select=_split(options.select), ignore=_split(options.ignore), fail_on=options.fail_on
        )
        known = load_baseline(baseline) if baseline is not None and not options.update_baseline else None
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        return EXIT_USAGE
    if known is not None and known.version != BASELINE_VERSION and options.quiet < 2:
        sys.stderr.write(
            f"mechlint: {baseline} is a version {known.version} baseline, matched on JSON pointers: an element "
            "inserted above a finding shows it again. Rewrite it with --update-baseline.\n"
        )
    if options.update_baseline and (options.since is not None or options.changed_files):
        _error("--update-baseline records the findings of the whole project; run it without --since or --changed-files")
        return EXIT_USAGE
    if options.since is not None and options.changed_files:
        _error("--since and --changed-files: use one (--changed-files takes the changed files as its paths)")
        return EXIT_USAGE
    root = options.root
    if root is not None and not root.is_dir():
        _error(f"--root {root}: not a folder")
        return EXIT_USAGE
    output_format = options.output_format
    if options.statistics and output_format is not Format.text:
        _error(f"--statistics counts findings in the text report; --format {output_format.value} has every finding")
        return EXIT_USAGE
    project_root = (root or _project_root(start)).resolve()
    targets = options.paths or ["."]
    buffer = _read_stdin(options.stdin_filename, config.max_file_size) if stdin else None
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
            jobs=options.jobs,
            cache=result_cache_folder(project_root) if options.cache is not False and buffer is None else None,
            cache_from=CACHE_FROM if options.cache is None else 0,
            progress=_progress_bar() if options.quiet < 2 else None,
            # only a baseline and fingerprints need them (a given baseline and SARIF turn them on)
            value_hashes=options.update_baseline or Format.gitlab in formats,
            buffer=buffer,
        )
    except UsageError as error:
        _error(str(error))
        return EXIT_USAGE
    if buffer is not None and not report.files_checked:
        nothing = (
            f"{printable(str(options.stdin_filename))} is not a mechanism file by the include and exclude "
            "patterns of the configuration; nothing checked."
        )
        sys.stderr.write(nothing + "\n")
    plain = OutputOptions(
        root_uri=project_root.as_uri().rstrip("/") + "/",
        tool_version=__version__,
        width=_text_width(to_terminal=False),
        show_source=options.show_source,
    )
    shown = replace(
        plain,
        color=main_output is None and output_format is Format.text and _use_color(options.color),
        width=_text_width(to_terminal=main_output is None),
        statistics=options.statistics,
        quiet=options.quiet if main_output is None else 0,  # -q quiets standard output; files are complete
    )
    writes = [(output_format, main_output, shown), *((f, p, plain) for f, p in extra_outputs)]
    if options.quiet >= 2 and main_output is None:
        writes = writes[1:]  # -qq: nothing on standard output, only the exit code (files are still written)
    for kind, target, how in writes:
        if nothing and not targets and kind is Format.text:
            if target is None:
                continue  # the line on stderr is the whole text report
            text = nothing + "\n"
        else:
            text = reporter(kind.value)(report, how)
        try:
            write_output(text, target, project_root)
        except OSError as error:
            _error(f"cannot write {target}: {error.strerror or error}")
            return EXIT_USAGE
    if options.update_baseline and baseline is not None:
        try:
            write_output(baseline_text(report.files), baseline, project_root)
        except OSError as error:
            _error(f"cannot write {baseline}: {error.strerror or error}")
            return EXIT_USAGE
        if options.quiet < 2:
            sys.stderr.write(f"Wrote {len(report.results)} findings to the baseline {printable(str(baseline))}.\n")
        return EXIT_OK
    worst, threshold = report.worst(), config.fail_level
    failed = worst is not None and threshold is not None and worst >= threshold
    return EXIT_FINDINGS if failed else EXIT_OK
