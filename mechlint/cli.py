"""The command line: parse arguments, call the library, print a report.

``main(argv) -> int`` is the entry point; it never lets a traceback reach the
user. Exit codes: 0 nothing at or above ``--fail-on``, 1 findings, 2 usage or
configuration error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint import __version__
from mechlint.commands import (
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    CheckOptions,
    FailOn,
    Format,
    _error,
    _split,
    guarded,
    run_check,
    write_output,
)
from mechlint.terminal import printable, printable_lines

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "_error",
    "_split",
    "app",
    "main",
    "write_output",
]

app = typer.Typer(
    name="mechlint",
    help="Check the mechanism files of a technical blog: schema, references and more.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


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
    jobs: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--jobs", "-j", min=1, help="Worker processes (default: one per core for large runs)."),
    ] = None,
    cache: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--cache/--no-cache",
            help="Reuse results of unchanged files, kept in ~/.cache/mechlint (default: for runs of 50 files or more).",
        ),
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="Only files changed since this git revision, or whose sources changed.")
    ] = None,
    changed_files: Annotated[
        bool,
        typer.Option(
            "--changed-files",
            help="The PATHS are changed files (as a pre-commit hook passes them): check the mechanism files "
            "among them and every mechanism of the project whose sources are among them.",
        ),
    ] = False,
    show_source: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--show-source/--no-show-source",
            help="Show the source line under every finding, notes too (default: errors and warnings); "
            "--no-show-source: one line a finding.",
        ),
    ] = None,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Count the findings per rule instead of listing them.")
    ] = False,
    quiet: Annotated[
        int, typer.Option("--quiet", "-q", count=True, help="Print only the summary; -qq: nothing, only the exit code.")
    ] = 0,
    stdin_filename: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--stdin-filename",
            help="Check the buffer on standard input (PATH -) as if it were this file: its configuration, "
            "include patterns and repository.",
        ),
    ] = None,
) -> None:
    """Check mechanism files and report what is wrong with them."""
    raise typer.Exit(
        run_check(
            CheckOptions(
                paths=[str(p) for p in paths or []],
                output_format=output_format,
                outputs=output or [],
                select=select or [],
                ignore=ignore or [],
                fail_on=fail_on.value if fail_on else None,
                config_file=config_file,
                root=root,
                color=color,
                show_suppressed=show_suppressed,
                baseline=baseline,
                update_baseline=update_baseline,
                since=since,
                changed_files=changed_files,
                jobs=jobs,
                cache=cache,
                show_source=show_source,
                statistics=statistics,
                quiet=quiet,
                stdin_filename=stdin_filename,
            )
        )
    )


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
        write_output(printable_lines("".join(f.diff() for f in fixes)), None)
        typer.echo(f"Would fix {count} problem{'s' if count != 1 else ''} in {files}.", err=True)
        raise typer.Exit(EXIT_FINDINGS if fixes else EXIT_OK)
    try:
        write_fixes(fixes, project_root)
    except OSError as error:
        _error(f"cannot write a fixed file: {error.strerror or error} ({error.filename})")
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(f"Fixed {count} problem{'s' if count != 1 else ''} in {files}.", err=True)
    raise typer.Exit(EXIT_OK)


@app.command("new")
def new_file(
    path: Annotated[Path, typer.Argument(help="The mechanism file to create; it must not exist.")],
    title: Annotated[Optional[str], typer.Option(help="The title (default: a placeholder).")] = None,  # noqa: UP045
    language: Annotated[str, typer.Option(help="The BCP 47 language tag of the prose.")] = "en",
    schema: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help='The "$schema" value, a URL or a relative path (default: the published URL; "" for none).'),
    ] = None,
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
) -> None:
    """Write a new, valid mechanism file with placeholders (TODO: …) to fill in; never overwrites a file."""
    from mechlint.new import run_new

    raise typer.Exit(run_new(path, title, language, schema, config_file))


@app.command("schema")
def print_schema() -> None:
    """Print the JSON Schema of mechanism files (for an editor that should not fetch it: save it in the repository)."""
    from mechlint.resources import data_folder

    write_output((data_folder("schemas") / "mechanism.schema.json").read_text(encoding="utf-8"), None)


@app.command("rules")
def list_rules(
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
) -> None:
    """List every rule (built-in and from the configuration) with its level (as configured) and summary."""
    from mechlint.config import load_config
    from mechlint.errors import ConfigError

    try:
        config = load_config(config_file)
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        raise typer.Exit(EXIT_USAGE) from None
    levels = {entry.rule.meta.id: entry.level.label for entry in config.enabled()}
    rules = list(config.known_rules().values())
    width = max(len(rule.meta.id) for rule in rules)
    for rule in rules:
        level = levels.get(rule.meta.id, "off")
        typer.echo(printable(f"{rule.meta.id:<{width}}  {level:<7}  {rule.meta.summary}"))


@app.command("rule")
def show_rule(
    rule_id: Annotated[str, typer.Argument(help="A rule id such as reference/unknown-target.")],
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
) -> None:
    """Print the full documentation of one rule, built-in or from the configuration (an invariant)."""
    from mechlint.config import load_config
    from mechlint.docs import rule_markdown
    from mechlint.errors import ConfigError
    from mechlint.lookalike import closest, explain
    from mechlint.registry import rules_by_id

    rules = rules_by_id()
    try:
        rules = load_config(config_file).known_rules()
    except ConfigError as error:
        if rule_id not in rules:  # a built-in rule is documented even when the configuration is broken
            _error(f"{error} [mechlint/invalid-config]")
            raise typer.Exit(EXIT_USAGE) from None
    if rule_id not in rules:
        close = closest(rule_id, list(rules))
        alike = f" ({explain(rule_id, close)})" if close and explain(rule_id, close) else ""
        hint = f"; did you mean {close}?{alike}" if close else "; `mechlint rules` lists them"
        _error(f"no rule {rule_id!r}{hint}")
        raise typer.Exit(EXIT_USAGE)
    typer.echo(printable_lines(rule_markdown(rules[rule_id])), nl=False)


@app.command()
def server(
    root: Annotated[
        Path | None, typer.Option(help="Source paths are relative to this folder (as check --root).")
    ] = None,
) -> None:
    """Run the language server (LSP over standard input and output) for editors."""
    from mechlint.lsp.server import main as serve

    raise typer.Exit(serve(root))


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code instead of raising."""
    return guarded(lambda: _run_app(argv))


def _run_app(argv: list[str] | None) -> int:
    try:
        result = app(args=argv, prog_name="mechlint", standalone_mode=False)
    except typer.Exit as done:
        result = int(done.exit_code)
    except typer.TyperException as error:  # usage errors: unknown option, bad value
        show = getattr(error, "show", None)
        if callable(show):
            show()
        else:
            _error(error.format_message())
        return EXIT_USAGE
    except typer.Abort:
        raise KeyboardInterrupt from None
    if result == EXIT_INTERRUPTED:  # typer turns Ctrl-C inside a command into a silent Exit(130)
        raise KeyboardInterrupt
    return result if isinstance(result, int) else EXIT_OK


def run() -> None:
    sys.exit(main())


# The commands that read sources live in their own module; importing it registers them.
from mechlint import cli_sources  # noqa: E402, F401
