"""How paths are shown and compared: relative to the working folder, the project root, a base folder."""

from __future__ import annotations

from pathlib import Path

__all__ = ["display_path", "lexical_relative", "relative_posix", "relative_to_base", "repository_uri"]


def lexical_relative(path: str, base: str) -> str | None:
    """``PurePosixPath(path).relative_to(base).as_posix()`` for normalised paths, or ``None``; with strings, cheaper."""
    if path == base:
        return "."
    if base == ".":
        return None if path.startswith("/") else path
    prefix = base if base.endswith("/") else base + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def relative_posix(path: Path, base: Path) -> str | None:
    """``path.relative_to(base).as_posix()`` (lexical, as pathlib does it), or ``None``; with strings, so cheaper."""
    return lexical_relative(path.as_posix(), base.as_posix())


def display_path(path: Path, cwd: Path) -> str:
    """How a person refers to ``path``: relative to the working folder if inside it."""
    return relative_posix(path, cwd) or path.as_posix()


def repository_uri(path: Path, root: Path) -> str:
    """The path relative to the project root, for SARIF and GitHub; absolute if outside."""
    relative = relative_posix(path, root)
    return relative if relative is not None else path.as_uri()


def relative_to_base(path: Path, base: Path) -> str | None:
    """``path`` relative to ``base`` (lexically, else with links resolved), or ``None`` when outside."""
    found = relative_posix(path.absolute(), base)
    if found is not None:
        return found
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return None
