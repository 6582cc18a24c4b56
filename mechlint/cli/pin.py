"""``mechlint pin``: after review, set each source's sha256 to its current bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error
from mechlint.cli.inputs import RootOption, provenance_or_exit, read_or_exit
from mechlint.terminal import printable

__all__ = ["pin"]


def pin(
    files: Annotated[list[Path], typer.Argument(help="Mechanism files to pin.")],
    check: Annotated[bool, typer.Option("--check", help="Only report what would change (exit 1 if anything).")] = False,
    root: RootOption = None,
) -> None:
    """After review, set each source's sha256 to its current bytes; only those values change."""
    from mechlint.pin import pin_file, write_pins

    provenance = provenance_or_exit(root)
    results = []
    try:
        for path in files:
            results.append(pin_file(path, str(path), read_or_exit(path), provenance))
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
