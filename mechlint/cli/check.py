"""``mechlint check``: the command as typer declares it; :func:`mechlint.cli.run_check.run_check` does the work.

The console script parses the common ``check`` command lines without typer
(:mod:`mechlint.cli.fast_check`, the fast twin of this declaration): an option
added here must be added there too (a test checks that both know the same).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.run_check import CheckOptions, FailOn, Format, run_check

__all__ = ["check"]


def _starting(incomplete: str, names: list[str]) -> list[str]:
    return [name for name in names if name.startswith(incomplete)]


def _formats(incomplete: str) -> list[str]:
    """Shell completion of ``--format``: the formats' names."""
    return _starting(incomplete, list(Format.__members__))


def _output_formats(incomplete: str) -> list[str]:
    """Shell completion of ``-o``: ``FORMAT:`` prefixes (a file name is the shell's to complete)."""
    return _starting(incomplete, [f"{name}:" for name in Format.__members__])


def _levels(incomplete: str) -> list[str]:
    return _starting(incomplete, list(FailOn.__members__))


def _rules(incomplete: str) -> list[str]:
    """Shell completion of ``--select`` and ``--ignore``: the built-in families and rule ids."""
    from mechlint.catalog.registry import rules_by_id

    ids = list(rules_by_id())
    head, comma, last = incomplete.rpartition(",")
    prefix = head + comma
    names = [*dict.fromkeys(rule_id.partition("/")[0] for rule_id in ids), *ids, "ALL"]
    return [prefix + name for name in names if name.startswith(last)]


def check(
    paths: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(metavar="PATHS", help="Files and folders to check (default: .).", show_default=False),
    ] = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help=f"Report format: {', '.join(Format.__members__)}.",
            autocompletion=_formats,
        ),
    ] = Format.text.value,
    output: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--output",
            "-o",
            metavar="[FORMAT:]FILE",
            help="FILE for the --format report, or FORMAT:FILE for one more (repeatable).",
            autocompletion=_output_formats,
        ),
    ] = None,
    select: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(metavar="RULES", help="Only these rules or families (comma-separated).", autocompletion=_rules),
    ] = None,
    ignore: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(metavar="RULES", help="Skip these rules or families (comma-separated).", autocompletion=_rules),
    ] = None,
    fail_on: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="LEVEL",
            help=f"Lowest level that makes the exit code 1: {', '.join(FailOn.__members__)} (default: error).",
            autocompletion=_levels,
        ),
    ] = None,
    config_file: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--config", metavar="FILE", help="Use this configuration file."),
    ] = None,
    root: Annotated[
        Path | None,
        typer.Option(metavar="FOLDER", help="Repository root (default: the nearest folder with .git)."),
    ] = None,
    color: Annotated[Optional[bool], typer.Option("--color/--no-color", help="Colour the text report.")] = None,  # noqa: UP045
    show_suppressed: Annotated[
        bool, typer.Option(show_default=False, help="Include suppressed findings, marked as such.")
    ] = False,
    baseline: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(metavar="FILE", help="Hide the findings recorded in this baseline file."),
    ] = None,
    update_baseline: Annotated[
        bool, typer.Option(show_default=False, help="Rewrite the --baseline file from this run.")
    ] = False,
    jobs: Annotated[
        Optional[str],  # noqa: UP045 - checked by run_check, for both parsers alike
        typer.Option("--jobs", "-j", metavar="N", help="Worker processes (default: one per core for large runs)."),
    ] = None,
    cache: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--cache/--no-cache",
            help="Reuse results of unchanged files, kept in ~/.cache/mechlint (default: for runs of 50 files or more).",
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(metavar="REV", help="Only files changed since this git revision, or whose sources changed."),
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
            "--no-show-source: under none (--format concise: one line a finding).",
        ),
    ] = None,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Count the findings per rule instead of listing them.")
    ] = False,
    quiet: Annotated[
        int,
        typer.Option(
            "--quiet",
            "-q",
            count=True,
            show_default=False,
            help="Print only the summary; -qq: nothing, only the exit code.",
        ),
    ] = 0,
    stdin_filename: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--stdin-filename",
            metavar="PATH",
            help="Check the buffer on standard input (PATH -) as if it were this file: its configuration, "
            "include patterns and repository.",
        ),
    ] = None,
    fix: Annotated[
        bool, typer.Option("--fix/--no-fix", help="Apply the safe fixes, then report what is left.")
    ] = False,
    unsafe_fixes: Annotated[
        bool,
        typer.Option(
            "--unsafe-fixes/--no-unsafe-fixes",
            help="Count the unsafe fixes as fixable too, and apply them with --fix or show them with --diff.",
        ),
    ] = False,
    diff: Annotated[
        bool,
        typer.Option(
            "--diff", help="Print a unified diff of what --fix would change; write nothing (exit 1 if anything would)."
        ),
    ] = False,
    show_fixes: Annotated[
        bool, typer.Option("--show-fixes/--no-show-fixes", help="List the fixes applied, per file and rule.")
    ] = False,
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
                fail_on=fail_on,
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
                fix=fix,
                unsafe_fixes=unsafe_fixes,
                diff=diff,
                show_fixes=show_fixes,
            )
        )
    )
