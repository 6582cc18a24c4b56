"""``mechlint check``: the command as typer declares it; :func:`mechlint.cli.run_check.run_check` does the work."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.run_check import CheckOptions, FailOn, Format, run_check

__all__ = ["check"]


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
