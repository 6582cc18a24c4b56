"""``mechlint fix``: the short form of ``mechlint check --fix``, without the report of what is left.

It applies the safe fixes (``--unsafe-fixes``: the unsafe ones too) to every
mechanism file under the paths, and says how many it applied; ``--diff``
only shows them (exit 1 if anything would change), as ``check --diff`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.exits import EXIT_OK, EXIT_USAGE, error
from mechlint.cli.inputs import ConfigOption, config_or_exit

__all__ = ["fix"]


def fix(
    paths: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(metavar="PATHS", help="Files and folders to fix (default: .)."),
    ] = None,
    diff: Annotated[bool, typer.Option("--diff", help="Show what would change; write nothing.")] = False,
    unsafe_fixes: Annotated[
        bool, typer.Option("--unsafe-fixes", help="Apply the unsafe fixes too (they need a reader's judgement).")
    ] = False,
    show_fixes: Annotated[
        bool, typer.Option("--show-fixes", help="List the fixes applied, per file and rule.")
    ] = False,
    config_file: ConfigOption = None,
    root: Annotated[
        Path | None, typer.Option(metavar="FOLDER", help="Repository root (default: the nearest folder with .git).")
    ] = None,
) -> None:
    """Apply the safe fixes (as check --fix, without the report). With --diff, only show them."""
    from mechlint.cli.fixing import fix_step
    from mechlint.run.discovery import UsageError, find_project_root

    config = config_or_exit(config_file)
    project_root = (root or find_project_root(Path.cwd())).resolve()
    try:
        ended = fix_step(
            [str(p) for p in paths or [Path(".")]],
            config,
            project_root,
            root,
            unsafe=unsafe_fixes,
            diff=diff,
            show_fixes=show_fixes,
            quiet=0,
        )
    except UsageError as problem:
        error(str(problem))
        raise typer.Exit(EXIT_USAGE) from None
    raise typer.Exit(EXIT_OK if ended is None else ended)
