"""The column of a ``text(...)`` atom: whether its pattern finds a match in each step's text.

:func:`text_column_plain` searches each text; :func:`text_column` gives the
same with fewer searches (most patterns match in few steps, and a search
costs mostly its call). A test holds them equal.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from mechlint.safety.saferegex import compile_pattern

__all__ = ["may_anchor", "text_column", "text_column_plain"]

Text = TypeVar("Text", str, bytes)


def text_column_plain(pattern: str, texts: list[str]) -> list[bool]:
    """Whether ``pattern`` finds a match in each text: one search per text."""
    search = compile_pattern(pattern).search
    return [search(text) is not None for text in texts]


def text_column(pattern: str, texts: list[str]) -> list[bool]:
    """What :func:`text_column_plain` gives, with one search over the joined texts for the steps without a match.

    Most patterns match in few steps, and a search costs mostly its call. In
    the texts joined by line breaks every match a text has is still a match
    (to ``\\b`` and ``\\B`` a line break is a non-word character, as the edge
    of a text is), unless the pattern has an anchor: a pattern that may have
    one (``^``, ``$``, ``\\A``, ``\\z``, see :func:`may_anchor`) is searched
    text by text. So the first match from the start of a text on says that
    the texts before the one it starts in have none; that one is searched on
    its own (the match may run on into the next text), and the search goes on
    from the next text.
    """
    if len(texts) < 2 or may_anchor(pattern):
        return text_column_plain(pattern, texts)
    matcher = compile_pattern(pattern)
    try:
        if isinstance(matcher, re.Pattern):
            return _column(matcher.search, texts, "\n")
        # RE2 reads UTF-8: given bytes it reads them as they are, without converting positions at every search
        search_bytes: Callable[[bytes, int], Any] = matcher.search  # type: ignore[assignment]
        return _column(search_bytes, [text.encode("utf-8") for text in texts], b"\n")
    except UnicodeError:  # (a lone surrogate) the plain way says where, in which text
        return text_column_plain(pattern, texts)


def _column(search: Callable[[Text, int], Any], texts: list[Text], separator: Text) -> list[bool]:
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    joined = separator.join(texts)
    column = [False] * len(texts)
    index = 0
    while index < len(texts) and (found := search(joined, starts[index])) is not None:
        index = bisect_right(starts, found.start()) - 1
        column[index] = search(texts[index], 0) is not None
        index += 1
    return column


@cache
def may_anchor(pattern: str) -> bool:
    """Whether ``pattern`` may hold ``^``, ``$``, ``\\A``, ``\\z`` or ``\\Z`` outside a class; ``True`` when unsure."""
    if "^" not in pattern and "$" not in pattern and "\\" not in pattern:
        return False
    index, end = 0, len(pattern)
    while index < end:
        char = pattern[index]
        if char == "\\":
            if pattern[index + 1 : index + 2] in ("A", "z", "Z", "Q", ""):
                return True  # an anchor (\Z: Python's re), a quoted run (\Q...\E) or a dangling backslash
            index += 2
        elif char == "[":  # a class: ^ and $ in it are characters; it ends at the first ] not escaped or first
            index += 1
            index += pattern[index : index + 1] == "^"
            index += pattern[index : index + 1] == "]"
            while index < end and pattern[index] != "]":
                index += 2 if pattern[index] == "\\" else 1
            if index >= end:
                return True
            index += 1
        elif char in "^$":
            return True
        else:
            index += 1
    return False
