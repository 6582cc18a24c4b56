"""``mechlint completion SHELL``: print the shell completion script (bash, zsh or fish).

The script calls ``mechlint`` back with typer's environment variables
(``_MECHLINT_COMPLETE``); the console script (:mod:`mechlint.cli.entry`) sends
those calls to the typer app, never to the fast path of ``check``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from mechlint.cli.exits import EXIT_USAGE, error

__all__ = ["SHELLS", "completion"]

SHELLS = ("bash", "zsh", "fish")


def _shells(incomplete: str) -> list[str]:
    return [shell for shell in SHELLS if shell.startswith(incomplete)]


def completion(
    shell: Annotated[
        str, typer.Argument(metavar="SHELL", help="bash, zsh or fish.", autocompletion=_shells, show_default=False)
    ],
) -> None:
    """Print the shell completion script. For bash, put `eval "$(mechlint completion bash)"` in ~/.bashrc."""
    from typer._completion_shared import get_completion_script

    if shell not in SHELLS:
        from mechlint.text.lookalike import suggestion

        error(f"unknown shell {shell!r}; choose {', '.join(SHELLS)}{suggestion(shell, list(SHELLS))}")
        raise typer.Exit(EXIT_USAGE)
    typer.echo(get_completion_script(prog_name="mechlint", complete_var="_MECHLINT_COMPLETE", shell=shell))
