"""What a glob of the configuration matches (``include``, ``exclude``, a suppression's ``path``), and the defaults.

A glob is matched against a POSIX path relative to the base folder, lexically. :mod:`mechlint.run.discovery`
walks the folders with these; the configuration and its suppressions are read with them.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["DEFAULT_EXCLUDE", "DEFAULT_INCLUDE", "glob_regex", "matches", "matches_exactly"]

DEFAULT_INCLUDE = ("**/mechanisms/*.json", "**/*.mechanism.json")
#: Never walked into, whatever the configuration says (its ``exclude`` adds to these).
DEFAULT_EXCLUDE = (
    ".git",
    ".mechlint_cache",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".nox",
)


@cache
def glob_regex(pattern: str) -> re.Pattern[str]:
    """Compile a glob with ``**`` into a regex over POSIX relative paths.

    ``*`` and ``?`` stay inside one folder, ``**`` crosses folders, ``[...]``
    is a character class. A pattern without ``/`` matches a name at any depth.
    The group ``rest`` holds what follows a folder that matched.
    """
    return re.compile(_glob_body(pattern) + r"(?P<rest>/.*)?\Z", re.DOTALL)


@cache
def _any_regex(patterns: tuple[str, ...], exact: bool) -> re.Pattern[str]:
    """One regex for "one of the globs matches the path" (``exact``) or "the path or a folder above it"."""
    bodies = "|".join(f"(?:{_glob_body(pattern)})" for pattern in patterns) or "(?!)"
    return re.compile(f"(?:{bodies})" + ("" if exact else "(?:/.*)?") + r"\Z", re.DOTALL)


def _glob_body(pattern: str) -> str:
    pattern = pattern.strip("/")
    if "/" not in pattern:
        pattern = "**/" + pattern
    out = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:[^/]*/)*")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", index + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[index + 1 : end]
                negate = body.startswith("!")
                body = body[1:] if negate else body
                out.append(("[^" if negate else "[") + body.replace("\\", "\\\\") + "]")
                index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def matches(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether the path, or a folder above it, matches one of the patterns."""
    return _any_regex(patterns, False).match(relative) is not None


def matches_exactly(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether the path itself (not only a folder above it) matches a pattern."""
    return _any_regex(patterns, True).match(relative) is not None
