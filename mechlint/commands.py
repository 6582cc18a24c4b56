"""What ``mechlint check`` does once its arguments are parsed, without typer.

Both the full command line (:mod:`mechlint.cli`, on typer) and the fast entry
point (:mod:`mechlint.entry`, which parses the common ``check`` invocations
itself so that a pre-commit run does not pay for importing typer) call
:func:`run_check`, so the two cannot behave differently.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mechlint import __version__

if TYPE_CHECKING:
    from mechlint.config import Config

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class Format(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    html = "html"


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
    cache: bool = False


def _error(message: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"mechlint: {message}\n")
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


def write_output(text: str, output: Path | None) -> None:
    """Write to stdout, or atomically to ``output`` (a temporary file, then rename)."""
    data = text.encode("utf-8", "backslashreplace")
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    from mechlint.edit import write_atomically

    write_atomically(output, data)


def write_output_chunks(chunks: Iterable[str], output: Path | None) -> None:
    """:func:`write_output` for a text made in pieces (a large SARIF log): each piece is written as it comes.

    A file is written the same way, to a temporary file in its folder that
    replaces it at the end (keeping its mode), so a reader never sees half a log.
    """
    if output is None:
        sys.stdout.flush()
        for chunk in chunks:
            sys.stdout.buffer.write(chunk.encode("utf-8", "backslashreplace"))
        sys.stdout.flush()
        return
    import stat
    import tempfile

    folder = output.resolve().parent
    folder.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(output.stat().st_mode)
    except OSError:
        mode = None
    handle, temporary = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb", buffering=1 << 16) as stream:
            for chunk in chunks:
                stream.write(chunk.encode("utf-8", "backslashreplace"))
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, output)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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


def _cache_folder(project_root: Path) -> Path:
    return project_root / ".mechlint_cache"


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


def run_check(options: CheckOptions) -> int:
    """Run ``mechlint check``; the exit code."""
    from mechlint.adoption import BASELINE_VERSION, baseline_text, load_baseline
    from mechlint.config import load_config
    from mechlint.discovery import UsageError, find_project_root
    from mechlint.engine import lint
    from mechlint.errors import ConfigError
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
    try:
        config = load_config(options.config_file).with_flags(
            select=_split(options.select), ignore=_split(options.ignore), fail_on=options.fail_on
        )
        known = load_baseline(baseline) if baseline is not None and not options.update_baseline else None
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        return EXIT_USAGE
    if known is not None and known.version != BASELINE_VERSION:
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
    project_root = (root or find_project_root(Path.cwd())).resolve()
    targets = options.paths or ["."]
    output_format = options.output_format
    try:
        nothing = ""
        if options.since is not None:
            targets = _changed_targets(targets, options.since, config, project_root, root)
            nothing = f"No mechanism file changed since {options.since}, and no source of one."
        elif options.changed_files:
            targets = _given_files_targets(options.paths, config, project_root, root)
            nothing = "No mechanism file among the given files, and none whose source is among them."
        if nothing and not targets:
            sys.stderr.write(nothing + "\n")
        report = lint(
            targets,
            config,
            root=project_root,
            fingerprints=output_format is Format.sarif or any(f is Format.sarif for f, _ in extra_outputs),
            stories=output_format is Format.html or any(f is Format.html for f, _ in extra_outputs),
            source_root=root,
            show_suppressed=options.show_suppressed,
            baseline=known,
            baseline_name=str(baseline or ""),
            jobs=options.jobs,
            cache=_cache_folder(project_root) if options.cache else None,
            progress=_progress_bar(),
            value_hashes=options.update_baseline,  # only a baseline needs them (a given one turns them on)
        )
    except UsageError as error:
        _error(str(error))
        return EXIT_USAGE
    shown = OutputOptions(
        color=main_output is None and output_format is Format.text and _use_color(options.color),
        root_uri=project_root.as_uri().rstrip("/") + "/",
        tool_version=__version__,
    )
    plain = OutputOptions(root_uri=shown.root_uri, tool_version=__version__)
    writes = [(output_format, main_output, shown), *((f, p, plain) for f, p in extra_outputs)]
    for kind, target, how in writes:
        if nothing and not targets and kind is Format.text:
            if target is None:
                continue  # the line on stderr is the whole text report
            text = nothing + "\n"
        elif kind is Format.sarif:  # written as it is made: a large log is never held whole
            from mechlint.report.sarif import render_chunks

            try:
                write_output_chunks(render_chunks(report, how), target)
            except OSError as error:
                _error(f"cannot write {target}: {error.strerror or error}")
                return EXIT_USAGE
            continue
        else:
            text = reporter(kind.value)(report, how)
        try:
            write_output(text, target)
        except OSError as error:
            _error(f"cannot write {target}: {error.strerror or error}")
            return EXIT_USAGE
    if options.update_baseline and baseline is not None:
        try:
            write_output(baseline_text(report.files), baseline)
        except OSError as error:
            _error(f"cannot write {baseline}: {error.strerror or error}")
            return EXIT_USAGE
        sys.stderr.write(f"Wrote {len(report.results)} findings to the baseline {baseline}.\n")
        return EXIT_OK
    worst, threshold = report.worst(), config.fail_level
    failed = worst is not None and threshold is not None and worst >= threshold
    return EXIT_FINDINGS if failed else EXIT_OK
