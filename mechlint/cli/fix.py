"""``mechlint fix``: apply the safe, mechanical fixes of string values; ``--diff`` only shows them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error
from mechlint.cli.inputs import ConfigOption, config_or_exit
from mechlint.cli.output import write_output
from mechlint.safety.terminal import printable_lines

__all__ = ["fix"]


def fix(
    paths: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(metavar="PATHS", help="Files and folders to fix (default: .)."),
    ] = None,
    diff: Annotated[bool, typer.Option("--diff", help="Show what would change; write nothing.")] = False,
    config_file: ConfigOption = None,
    root: Annotated[
        Path | None, typer.Option(metavar="FOLDER", help="Repository root (default: the nearest folder with .git).")
    ] = None,
) -> None:
    """Apply safe, mechanical fixes to string values (typography). With --diff, only show them."""
    from mechlint.authoring.fix import fix_paths, write_fixes
    from mechlint.run.discovery import UsageError, find_project_root

    config = config_or_exit(config_file)
    project_root = (root or find_project_root(Path.cwd())).resolve()
    try:
        fixes, skipped = fix_paths([str(p) for p in paths or [Path(".")]], config, project_root)
    except UsageError as problem:
        error(str(problem))
        raise typer.Exit(EXIT_USAGE) from None
    for reason in skipped:
        error(f"not fixed: {reason}")
    count = sum(f.count for f in fixes)
    files = f"{len(fixes)} file{'s' if len(fixes) != 1 else ''}"
    if diff:
        write_output(printable_lines("".join(f.diff() for f in fixes)), None)
        typer.echo(f"Would fix {count} problem{'s' if count != 1 else ''} in {files}.", err=True)
        raise typer.Exit(EXIT_FINDINGS if fixes else EXIT_OK)
    try:
        write_fixes(fixes, project_root)
    except OSError as problem:
        error(f"cannot write a fixed file: {problem.strerror or problem} ({problem.filename})")
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(f"Fixed {count} problem{'s' if count != 1 else ''} in {files}.", err=True)
    raise typer.Exit(EXIT_OK)
