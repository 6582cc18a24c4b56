"""Text wrapped at word boundaries to a terminal's width, measured in the columns a terminal gives each character.

Used by the text report's full layout (:mod:`mechlint.report.text`): a line is
broken only between words, never inside one; a single word wider than the
line (a long path, a URL) is the only thing that may overflow, on a line of
its own. Words keep their colour codes: the width is measured on the text
without them.
"""

from __future__ import annotations

import unicodedata

__all__ = ["cells", "split_words", "text_width", "wrap_words"]


def cells(char: str) -> int:
    """Terminal columns a character takes: 2 for wide (CJK, most emoji), 0 for combining marks."""
    if char.isascii():
        return 1
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def text_width(text: str) -> int:
    """Terminal columns of ``text`` (no colour codes in it)."""
    return len(text) if text.isascii() else sum(cells(char) for char in text)


def wrap_words(words: list[tuple[str, str]], width: int, indent: str = "") -> list[str]:
    """``words`` (each as ``(plain, shown)``: the text measured and the text written, colour codes and all) laid out
    in lines of at most ``width`` columns, broken between words only.

    Lines after the first start with ``indent``; words are separated by one
    space. A word wider than a line is alone on its line. Linear in the number
    of words.
    """
    lines: list[str] = []
    current: list[str] = []
    used = 0
    for plain, shown in words:
        size = text_width(plain)
        if current and used + 1 + size > width:
            lines.append(" ".join(current))
            current, used = [indent + shown], len(indent) + size
        elif current:
            current.append(shown)
            used += 1 + size
        else:
            current, used = [shown], size
    if current:
        lines.append(" ".join(current))
    return lines


def split_words(text: str) -> list[tuple[str, str]]:
    """``text``'s words, each as ``(plain, shown)`` without colour: runs of spaces separate words."""
    return [(word, word) for word in text.split(" ") if word]
