"""Writing what a command prints: to standard output or to a file, and how the text report looks there."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = ["text_width", "use_color", "write_output", "write_output_chunks"]


def use_color(choice: bool | None) -> bool:
    """``--color/--no-color``, else ``NO_COLOR`` / ``FORCE_COLOR``, else whether standard output is a terminal."""
    if choice is not None:
        return choice
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def text_width(to_terminal: bool) -> int:
    """Columns for the text report: ``COLUMNS``, else the terminal's (on one), else a default; at least 40."""
    from mechlint.report import DEFAULT_WIDTH

    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and int(columns) > 0:
        return max(int(columns), 40)
    if to_terminal and sys.stdout.isatty():
        import shutil  # only here: it imports bz2 and lzma, a noticeable part of a one-file run

        return max(shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns, 40)
    return DEFAULT_WIDTH


def write_output(text: str, output: Path | None, inside: Path | None = None) -> None:
    """Write to stdout, or to ``output`` (``inside``: the repository).

    See :func:`mechlint.safety.safeio.write_atomically`.
    """
    data = text.encode("utf-8", "backslashreplace")
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    from mechlint.safety.safeio import write_atomically

    write_atomically(output, data, inside)


def write_output_chunks(chunks: Iterable[str], output: Path | None, inside: Path | None = None) -> None:
    """:func:`write_output` for a text made in pieces (a large SARIF log): each piece is written as it comes."""
    pieces = (chunk.encode("utf-8", "backslashreplace") for chunk in chunks)
    if output is None:
        sys.stdout.flush()
        for piece in pieces:
            sys.stdout.buffer.write(piece)
        sys.stdout.flush()
        return
    from mechlint.safety.safeio import write_atomically

    write_atomically(output, pieces, inside)
