"""``mechlint pin``: after review, set each source's sha256 to its current bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error
from mechlint.cli.inputs import RootOption, config_or_exit, provenance_or_exit
from mechlint.safety.terminal import printable

__all__ = ["pin"]


def pin(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATHS",
            help="Mechanism files, and folders walked as check walks them (same include and exclude).",
            show_default=False,
        ),
    ],
    check: Annotated[bool, typer.Option("--check", help="Only report what would change (exit 1 if anything).")] = False,
    root: RootOption = None,
) -> None:
    """Pin each source's sha256 to its current bytes, after review. Only those values change."""
    from mechlint.authoring.pin import pin_file, write_pins

    found = _mechanism_files(files)
    provenance = provenance_or_exit(root)
    results = []
    try:
        for path, raw in found:
            results.append(pin_file(path, str(path), raw, provenance))
    finally:
        provenance.close()
    problems = 0
    for result in results:
        for change in result.changes:
            typer.echo(printable(f"{result.shown}: {change}"))
        for problem in result.problems:
            problems += 1
            error(f"{result.shown}: {problem}")
    changed = [r for r in results if r.text is not None]
    if check:
        raise typer.Exit(EXIT_FINDINGS if changed or problems else EXIT_OK)
    try:
        write_pins(changed)
    except OSError as problem:
        error(f"cannot write: {problem.strerror or problem} ({problem.filename})")
        raise typer.Exit(EXIT_USAGE) from None
    count = sum(len(r.changes) for r in results)
    typer.echo(
        f"Pinned {count} source{'s' if count != 1 else ''} in {len(changed)} file{'s' if len(changed) != 1 else ''}.",
        err=True,
    )
    raise typer.Exit(EXIT_FINDINGS if problems else EXIT_OK)


def _mechanism_files(paths: list[Path]) -> list[tuple[Path, bytes]]:
    """The files ``check`` would check for ``paths`` (the same discovery, include, exclude and max-file-size),
    each with its bytes; exit 2 for a path that does not exist, or naming every file that cannot be read."""
    from mechlint.run.discovery import UsageError, find_project_root, mechanism_files, read_candidate

    config = config_or_exit()
    cwd = Path.cwd()
    project_root = find_project_root(cwd)
    try:
        found = mechanism_files(paths, config, project_root)
    except UsageError as problem:
        error(str(problem))
        raise typer.Exit(EXIT_USAGE) from None
    read: list[tuple[Path, bytes]] = []
    unreadable = False
    for candidate in found:
        path = candidate.path.relative_to(cwd) if candidate.path.is_relative_to(cwd) else candidate.path
        raw = read_candidate(candidate, config, project_root)
        if isinstance(raw, str):
            error(f"{path} {raw}")
            unreadable = True
        else:
            read.append((path, raw))
    if unreadable:
        raise typer.Exit(EXIT_USAGE)
    return read
