"""Regular expressions from rule files, matched in linear time.

Rule files can be hostile, and a pattern like ``(a+)+$`` makes a
backtracking engine take exponential time. Patterns from rule files are
compiled with RE2 (``google-re2``), whose matching time is linear in the
text, with a memory cap. Constructs RE2 cannot run in linear time
(backreferences, lookaround) are refused with a message. If RE2 cannot be
imported, Python's ``re`` is used, and patterns with nested quantifiers are
refused as well, so no pattern can backtrack catastrophically either way.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Protocol

MAX_PATTERN = 1000
_NESTED = re.compile(r"\((?:[^()\\]|\\.)*[*+}](?:[^()\\]|\\.)*\)[*+{]|\((?:[^()\\]|\\.)*\|(?:[^()\\]|\\.)*\)[*+{]")
_UNSUPPORTED = re.compile(r"\\[1-9]|\(\?<?[=!]|\(\?P=|\(\?\(")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class Matcher(Protocol):
    def search(self, text: str, pos: int = 0) -> Any: ...


class UnsafePattern(ValueError):
    """The pattern is invalid, or cannot be matched in linear time."""


def _re2() -> Any:
    try:
        import re2  # type: ignore[import-untyped]
    except ImportError:
        return None
    return re2


@cache
def compile_pattern(pattern: str) -> Matcher:
    """Compile a rule file's pattern; :class:`UnsafePattern` says why it cannot be used."""
    if len(pattern) > MAX_PATTERN:
        raise UnsafePattern(f"the pattern is longer than {MAX_PATTERN} characters")
    if _UNSUPPORTED.search(pattern):
        raise UnsafePattern("backreferences and lookaround are not supported (they cannot run in linear time)")
    re2 = _re2()
    if re2 is not None:
        options = re2.Options()
        options.log_errors = False
        options.max_mem = 8 << 20
        try:
            return re2.compile(pattern, options)  # type: ignore[no-any-return]
        except re2.error as error:
            message = (
                error.args[0].decode("utf-8", "replace")
                if error.args and isinstance(error.args[0], bytes)
                else str(error)
            )
            raise UnsafePattern(f"invalid regular expression: {message}") from None
    if _NESTED.search(pattern):
        raise UnsafePattern("nested quantifiers such as (a+)+ can take exponential time; rewrite the pattern")
    try:
        return re.compile(pattern)
    except re.error as error:
        raise UnsafePattern(f"invalid regular expression: {error}") from None


def searchable(text: str) -> str:
    """``text`` with each lone surrogate as U+FFFD, at the same place: what a pattern can search.

    JSON may hold a lone surrogate (``"\\ud800"``, half of a pair), and so may a
    step's text; RE2 reads UTF-8, which cannot hold one, and fails on it.
    """
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)
