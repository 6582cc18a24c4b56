"""``mechlint new`` (a first mechanism file with placeholders) and ``mechlint schema`` (the editor schema)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.output import write_output

__all__ = ["new_file", "print_schema"]


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
    """Write a new mechanism file to fill in. It is valid, has TODO placeholders and never overwrites a file."""
    from mechlint.authoring.new import run_new

    raise typer.Exit(run_new(path, title, language, schema, config_file))


def print_schema() -> None:
    """Print the JSON Schema of mechanism files. Save it in the repository for an editor that should not fetch it."""
    from mechlint.resources import data_folder

    write_output((data_folder("schemas") / "mechanism.schema.json").read_text(encoding="utf-8"), None)
