"""The command line: parse arguments, call the library, print a report.

``main(argv) -> int`` is the entry point; it never lets a traceback reach the
user. Exit codes: 0 nothing at or above ``--fail-on``, 1 findings, 2 usage or
configuration error.
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from mechlint import __version__

if TYPE_CHECKING:
    pass

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

app = typer.Typer(
    name="mechlint",
    help="Check the mechanism files of a technical blog: schema, references and more.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    note = "note"
    never = "never"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mechlint {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        Optional[bool],  # noqa: UP045 - typer needs Optional on Python 3.11
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """mechlint: a linter for mechanism files."""


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


def _error(message: str) -> None:
    typer.echo(f"mechlint: {message}", err=True)


def _parse_outputs(values: list[str], default: Format) -> tuple[Path | None, list[tuple[Format, Path]]]:
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
            raise typer.BadParameter(f"only one -o FILE for the --format report; got {value!r} too", param_hint="-o")
    return main_output, extra


@app.command()
def check(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Files and folders to check (default: .).")] = None,  # noqa: UP045
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Report format.")] = Format.text,
    output: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--output", "-o", help="FILE for the --format report, or FORMAT:FILE for one more (repeatable)."),
    ] = None,
    select: Annotated[Optional[list[str]], typer.Option(help="Only these rules or families (comma-separated).")] = None,  # noqa: UP045
    ignore: Annotated[Optional[list[str]], typer.Option(help="Skip these rules or families (comma-separated).")] = None,  # noqa: UP045
    fail_on: Annotated[Optional[FailOn], typer.Option(help="Lowest level that makes the exit code 1.")] = None,  # noqa: UP045
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
    root: Annotated[Path | None, typer.Option(help="Repository root (default: the nearest folder with .git).")] = None,
    color: Annotated[Optional[bool], typer.Option("--color/--no-color", help="Colour the text report.")] = None,  # noqa: UP045
    show_suppressed: Annotated[bool, typer.Option(help="Include suppressed findings, marked as such.")] = False,
    baseline: Annotated[Optional[Path], typer.Option(help="Hide the findings recorded in this baseline file.")] = None,  # noqa: UP045
    update_baseline: Annotated[bool, typer.Option(help="Rewrite the --baseline file from this run.")] = False,
    since: Annotated[
        str | None, typer.Option(help="Only files changed since this git revision, or whose sources changed.")
    ] = None,
) -> None:
    """Check mechanism files and report what is wrong with them."""
    from mechlint.adoption import baseline_text, load_baseline
    from mechlint.config import load_config
    from mechlint.discovery import UsageError, find_project_root
    from mechlint.engine import lint
    from mechlint.errors import ConfigError
    from mechlint.report import OutputOptions, reporter

    main_output, extra_outputs = _parse_outputs(output or [], output_format)
    if update_baseline and baseline is None:
        _error("--update-baseline needs --baseline FILE")
        raise typer.Exit(EXIT_USAGE)
    try:
        config = load_config(config_file).with_flags(
            select=_split(select), ignore=_split(ignore), fail_on=fail_on.value if fail_on else None
        )
        known = load_baseline(baseline) if baseline is not None and not update_baseline else None
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        raise typer.Exit(EXIT_USAGE) from None
    if root is not None and not root.is_dir():
        _error(f"--root {root}: not a folder")
        raise typer.Exit(EXIT_USAGE)
    project_root = (root or find_project_root(Path.cwd())).resolve()
    targets = [str(p) for p in paths or [Path(".")]]
    try:
        if since is not None:
            targets = _changed_targets(targets, since, config, project_root, root)
            if not targets:
                typer.echo(f"No mechanism file changed since {since}, and no source of one.", err=True)
                raise typer.Exit(EXIT_OK)
        report = lint(
            targets,
            config,
            root=project_root,
            fingerprints=output_format is Format.sarif or any(f is Format.sarif for f, _ in extra_outputs),
            source_root=root,
            show_suppressed=show_suppressed,
            baseline=known,
            baseline_name=str(baseline or ""),
        )
    except UsageError as error:
        _error(str(error))
        raise typer.Exit(EXIT_USAGE) from None
    options = OutputOptions(
        color=main_output is None and output_format is Format.text and _use_color(color),
        root_uri=project_root.as_uri().rstrip("/") + "/",
        tool_version=__version__,
    )
    plain = OutputOptions(root_uri=options.root_uri, tool_version=__version__)
    writes = [(output_format, main_output, options), *((f, p, plain) for f, p in extra_outputs)]
    for kind, target, how in writes:
        try:
            write_output(reporter(kind.value)(report, how), target)
        except OSError as error:
            _error(f"cannot write {target}: {error.strerror or error}")
            raise typer.Exit(EXIT_USAGE) from None
    if update_baseline and baseline is not None:
        try:
            write_output(baseline_text(report.files), baseline)
        except OSError as error:
            _error(f"cannot write {baseline}: {error.strerror or error}")
            raise typer.Exit(EXIT_USAGE) from None
        typer.echo(f"Wrote {len(report.results)} findings to the baseline {baseline}.", err=True)
        raise typer.Exit(EXIT_OK)
    worst, threshold = report.worst(), config.fail_level
    failed = worst is not None and threshold is not None and worst >= threshold
    raise typer.Exit(EXIT_FINDINGS if failed else EXIT_OK)


def _changed_targets(
    targets: list[str], since: str, config: object, project_root: Path, root: Path | None
) -> list[str]:
    from mechlint.changed import changed_paths, select_changed
    from mechlint.config import DEFAULT_EXCLUDE, Config
    from mechlint.discovery import discover

    assert isinstance(config, Config)
    base = config.root if config.source else project_root
    top, changed = changed_paths(Path.cwd(), since)
    candidates = discover([Path(t) for t in targets], config.include, (*DEFAULT_EXCLUDE, *config.exclude), base)
    return [str(p) for p in select_changed(candidates, top, changed, root)]


@app.command()
def fix(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Files and folders to fix (default: .).")] = None,  # noqa: UP045
    diff: Annotated[bool, typer.Option("--diff", help="Show what would change; write nothing.")] = False,
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
    root: Annotated[Path | None, typer.Option(help="Repository root (default: the nearest folder with .git).")] = None,
) -> None:
    """Apply safe, mechanical fixes to string values (typography); --diff only shows them."""
    from mechlint.config import load_config
    from mechlint.discovery import UsageError, find_project_root
    from mechlint.errors import ConfigError
    from mechlint.fix import fix_paths, write_fixes

    try:
        config = load_config(config_file)
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        raise typer.Exit(EXIT_USAGE) from None
    project_root = (root or find_project_root(Path.cwd())).resolve()
    try:
        fixes, skipped = fix_paths([str(p) for p in paths or [Path(".")]], config, project_root)
    except UsageError as error:
        _error(str(error))
        raise typer.Exit(EXIT_USAGE) from None
    for problem in skipped:
        _error(f"not fixed: {problem}")
    count = sum(f.count for f in fixes)
    files = f"{len(fixes)} file{'s' if len(fixes) != 1 else ''}"
    if diff:
        write_output("".join(f.diff() for f in fixes), None)
        typer.echo(f"Would fix {count} problem{'s' if count != 1 else ''} in {files}.", err=True)
        raise typer.Exit(EXIT_FINDINGS if fixes else EXIT_OK)
    try:
        write_fixes(fixes)
    except OSError as error:
        _error(f"cannot write a fixed file: {error.strerror or error} ({error.filename})")
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(f"Fixed {count} problem{'s' if count != 1 else ''} in {files}.", err=True)
    raise typer.Exit(EXIT_OK)


@app.command("rules")
def list_rules(
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
) -> None:
    """List every rule with its level (as configured) and summary."""
    from mechlint.config import load_config
    from mechlint.errors import ConfigError
    from mechlint.registry import all_rules

    try:
        config = load_config(config_file)
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        raise typer.Exit(EXIT_USAGE) from None
    levels = {entry.rule.meta.id: entry.level.label for entry in config.enabled()}
    width = max(len(rule.meta.id) for rule in all_rules())
    for rule in all_rules():
        level = levels.get(rule.meta.id, "off")
        typer.echo(f"{rule.meta.id:<{width}}  {level:<7}  {rule.meta.summary}")


@app.command("rule")
def show_rule(rule_id: Annotated[str, typer.Argument(help="A rule id such as reference/unknown-target.")]) -> None:
    """Print the full documentation of one rule."""
    import difflib

    from mechlint.docs import rule_markdown
    from mechlint.registry import rules_by_id

    rules = rules_by_id()
    if rule_id not in rules:
        close = difflib.get_close_matches(rule_id, list(rules), n=1)
        hint = f"; did you mean {close[0]}?" if close else "; `mechlint rules` lists them"
        _error(f"no rule {rule_id!r}{hint}")
        raise typer.Exit(EXIT_USAGE)
    typer.echo(rule_markdown(rules[rule_id]), nl=False)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code instead of raising."""
    try:
        result = app(args=argv, prog_name="mechlint", standalone_mode=False)
    except typer.Exit as done:
        return int(done.exit_code)
    except typer.TyperException as error:  # usage errors: unknown option, bad value
        show = getattr(error, "show", None)
        if callable(show):
            show()
        else:
            _error(error.format_message())
        return EXIT_USAGE
    except (KeyboardInterrupt, typer.Abort):
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as error:  # the last line of defence: never a traceback
        _error(f"internal error ({type(error).__name__}: {error}); please report it")
        return EXIT_USAGE
    return result if isinstance(result, int) else EXIT_OK


def run() -> None:
    sys.exit(main())


# The commands that read sources live in their own module; importing it registers them.
from mechlint import cli_sources  # noqa: E402, F401
