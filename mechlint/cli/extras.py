"""Commands that need an optional part of mechlint (an *extra*) say which one, and how to install it.

``pip install mechlint`` installs what ``check`` needs. The language server
(``mechlint server``) needs ``mechlint[lsp]`` and the signed attestations
(``keygen``, ``attest``, ``verify``) need ``mechlint[attest]``;
``mechlint[all]`` is both. A command whose extra is missing prints one line
naming the extra and exits 2, before it imports anything that would fail.
"""

from __future__ import annotations

from importlib.util import find_spec

import typer

from mechlint.cli.exits import EXIT_USAGE, error

__all__ = ["EXTRAS", "missing", "require"]

#: Each extra, the top-level modules it brings, and what it is for (as a user would name it).
EXTRAS: dict[str, tuple[tuple[str, ...], str]] = {
    "lsp": (("pygls", "lsprotocol"), "the language server"),
    "attest": (("cryptography",), "the signing library"),
}


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here, in the order the extra lists them."""
    modules, _ = EXTRAS[extra]
    return [name for name in modules if _absent(name)]


def _absent(name: str) -> bool:
    """Whether the top-level module ``name`` cannot be found (a broken finder counts as absent)."""
    try:
        return find_spec(name) is None
    except (ImportError, ValueError):
        return True


def require(extra: str, command: str) -> None:
    """Exit 2 with one line naming ``extra`` when ``command`` cannot run without it."""
    absent = missing(extra)
    if absent:
        _, what = EXTRAS[extra]
        verb = "is" if len(absent) == 1 else "are"
        error(
            f"{command} needs {what} ({' and '.join(absent)} {verb} not installed): pip install 'mechlint[{extra}]'"
            " (or 'mechlint[all]')"
        )
        raise typer.Exit(EXIT_USAGE)
