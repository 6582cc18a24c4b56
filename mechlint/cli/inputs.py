"""What commands read: the configuration, a mechanism file, the sources' resolver.

Each failure prints one error line and exits 2 (``typer.Exit``), so that a
command reads as its happy path. The options that name these inputs
(``--config``, ``--root``) are declared here once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from mechlint.cli.exits import EXIT_USAGE, config_error, error

if TYPE_CHECKING:
    from mechlint.config import Config
    from mechlint.provenance.resolve import Provenance

__all__ = ["ConfigOption", "RootOption", "config_or_exit", "provenance_or_exit", "read_or_exit"]

ConfigOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs Optional on Python 3.11
    typer.Option("--config", metavar="FILE", help="Use this configuration file."),
]
RootOption = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--root", metavar="FOLDER", help="Folder that source paths are relative to (default: the git repository's top)."
    ),
]


def config_or_exit(config_file: Path | None = None) -> Config:
    """The configuration (``config_file``, else the one found from here), or an error and exit 2."""
    from mechlint.config import load_config
    from mechlint.errors import ConfigError

    try:
        return load_config(config_file)
    except ConfigError as problem:
        config_error(problem)
        raise typer.Exit(EXIT_USAGE) from None


def provenance_or_exit(root: Path | None) -> Provenance:
    """Sources resolved as ``check`` resolves them: the same frozen-copy pattern, from the same configuration."""
    from mechlint.provenance.resolve import DEFAULT_FROZEN, Provenance
    from mechlint.run.discovery import find_project_root

    frozen = config_or_exit().frozen_pattern() or DEFAULT_FROZEN
    return Provenance(root, frozen, fallback=find_project_root(Path.cwd()))


def read_or_exit(path: Path) -> bytes:
    """The bytes of a file the user named (within the size limit, inside the repository), or an error and exit 2."""
    from mechlint.config import DEFAULT_MAX_FILE_SIZE
    from mechlint.run.discovery import find_project_root, read_file

    raw = read_file(path, DEFAULT_MAX_FILE_SIZE, find_project_root(path.absolute().parent))
    if isinstance(raw, str):
        error(f"{path} {raw}")
        raise typer.Exit(EXIT_USAGE)
    return raw
