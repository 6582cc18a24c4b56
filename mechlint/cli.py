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
from typing import Annotated, Optional

import typer

from mechlint import __version__

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


@app.command()
def check(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Files and folders to check (default: .).")] = None,  # noqa: UP045
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Report format.")] = Format.text,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to this file.")] = None,  # noqa: UP045
    select: Annotated[Optional[list[str]], typer.Option(help="Only these rules or families (comma-separated).")] = None,  # noqa: UP045
    ignore: Annotated[Optional[list[str]], typer.Option(help="Skip these rules or families (comma-separated).")] = None,  # noqa: UP045
    fail_on: Annotated[Optional[FailOn], typer.Option(help="Lowest level that makes the exit code 1.")] = None,  # noqa: UP045
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
    root: Annotated[Path | None, typer.Option(help="Repository root (default: the nearest folder with .git).")] = None,
    color: Annotated[Optional[bool], typer.Option("--color/--no-color", help="Colour the text report.")] = None,  # noqa: UP045
) -> None:
    """Check mechanism files and report what is wrong with them."""
    from mechlint.config import load_config
    from mechlint.discovery import UsageError, find_project_root
    from mechlint.engine import lint
    from mechlint.errors import ConfigError
    from mechlint.report import OutputOptions, reporter

    try:
        config = load_config(config_file).with_flags(
            select=_split(select), ignore=_split(ignore), fail_on=fail_on.value if fail_on else None
        )
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        raise typer.Exit(EXIT_USAGE) from None
    if root is not None and not root.is_dir():
        _error(f"--root {root}: not a folder")
        raise typer.Exit(EXIT_USAGE)
    project_root = (root or find_project_root(Path.cwd())).resolve()
    try:
        report = lint(
            [str(p) for p in paths or [Path(".")]],
            config,
            root=project_root,
            fingerprints=output_format is Format.sarif,
            source_root=root,
        )
    except UsageError as error:
        _error(str(error))
        raise typer.Exit(EXIT_USAGE) from None
    options = OutputOptions(
        color=output is None and output_format is Format.text and _use_color(color),
        root_uri=project_root.as_uri().rstrip("/") + "/",
        tool_version=__version__,
    )
    try:
        write_output(reporter(output_format.value)(report, options), output)
    except OSError as error:
        _error(f"cannot write {output}: {error.strerror or error}")
        raise typer.Exit(EXIT_USAGE) from None
    worst, threshold = report.worst(), config.fail_level
    failed = worst is not None and threshold is not None and worst >= threshold
    raise typer.Exit(EXIT_FINDINGS if failed else EXIT_OK)


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
