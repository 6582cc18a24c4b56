"""Text from input made inert before it reaches a terminal, a log or a CI runner.

File names, configuration keys and values, rule ids and summaries from rule
files, git's output and the contents of mechanism files are all written by
someone else. Everything mechlint prints passes through one of these helpers,
so that no escape sequence (``ESC [ 2 J``, a window title ``ESC ] 0 ; … BEL``),
carriage return, line break or bidirectional override read from input can
move the cursor, rewrite a line, fake a line of output or reorder text.
"""

from __future__ import annotations

import re

#: Replaces a character that would act instead of being shown.
REPLACEMENT = "\ufffd"


def printable(text: str) -> str:
    """``text`` with every character that is not printable (tabs excepted) replaced by U+FFFD.

    Control characters (C0, DEL, C1), line and paragraph separators, format
    characters (bidirectional overrides, zero-width joiners) and unassigned
    code points are replaced one for one, so columns stay where they were.
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char == "\t" else REPLACEMENT for char in text)


def printable_lines(text: str) -> str:
    """:func:`printable` for each line of a multi-line text; line ends (``\\n``, ``\\r\\n``) are kept."""
    return "\n".join(_printable_line(line) for line in text.split("\n"))


def _printable_line(line: str) -> str:
    return printable(line[:-1]) + "\r" if line.endswith("\r") else printable(line)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def inert_json(text: str) -> str:
    """JSON text with the characters a terminal could act on written as ``\\uXXXX`` escapes.

    ``json.dumps`` already escapes C0 controls; with ``ensure_ascii=False`` it
    leaves DEL, the C1 controls (``U+009B`` is a one-character CSI) and
    bidirectional controls raw. They can only occur inside strings, where the
    escape means the same character: the data is unchanged.
    """
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
