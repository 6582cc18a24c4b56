"""``mechlint server``: the language server for editors (:mod:`mechlint.lsp`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["server"]


def server(
    root: Annotated[
        Path | None, typer.Option(metavar="FOLDER", help="Source paths are relative to this folder (as check --root).")
    ] = None,
) -> None:
    """Run the language server for editors. It speaks LSP over standard input and output; it needs mechlint[lsp]."""
    from mechlint.cli.extras import require

    require("lsp", "mechlint server")
    from mechlint.lsp.server import main as serve

    raise typer.Exit(serve(root))
