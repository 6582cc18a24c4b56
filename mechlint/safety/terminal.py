"""Text from input made inert before it reaches a terminal, a log or a CI runner.

File names, configuration keys and values, rule ids and summaries from rule
files, git's output and the contents of mechanism files are all written by
someone else. Everything mechlint prints passes through one of these helpers,
so that no escape sequence (``ESC [ 2 J``, a window title ``ESC ] 0 ; … BEL``),
carriage return, line break or bidirectional override read from input can
move the cursor, rewrite a line, fake a line of output or reorder text.
The reports show the same characters as backslash escapes instead, so that a
file name stays one name (:mod:`mechlint.report.escape`).
"""

from __future__ import annotations

import re
from functools import cache

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


#: Printable characters common in text (ASCII, Latin, Greek, Cyrillic, punctuation, arrows, CJK, pictographs):
#: :func:`inert_json` looks closer only at runs of other characters. Checked to be printable in the tests.
PRINTABLE_RANGES = (
    "\n\x20-\x7e\xa1-\xac\xae-\u0377\u0391-\u03a1\u03a3-\u03ff\u0400-\u052f"
    "\u2010-\u2027\u2030-\u205e\u2070-\u2071\u20a0-\u20bf\u2100-\u214f\u2190-\u23ff\u2500-\u27bf"
    "\u3001-\u303f\u4e00-\u9fef\U0001f300-\U0001f5ff"
)


@cache
def _uncommon() -> re.Pattern[str]:
    """Runs of characters outside :data:`PRINTABLE_RANGES` (compiled when first needed: it takes milliseconds)."""
    return re.compile(f"[^{PRINTABLE_RANGES}]+")


def _json_escape(char: str) -> str:
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes a character beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _inert_run(match: re.Match[str]) -> str:
    run = match.group()
    return run if run.isprintable() else "".join(c if c.isprintable() else _json_escape(c) for c in run)


def inert_json(text: str) -> str:
    """JSON text with every character that is not printable written as a ``\\uXXXX`` escape.

    ``json.dumps`` already escapes C0 controls; with ``ensure_ascii=False`` it
    leaves DEL, the C1 controls (``U+009B`` is a one-character CSI),
    bidirectional and other format characters, line and paragraph separators
    and lone surrogates (from a file name that is not UTF-8, or a ``\\udcff``
    in the document) raw: a terminal could act on them, and a lone surrogate
    cannot even be written as UTF-8. They can only occur inside strings, where
    the escape means the same character: the data is unchanged.
    """
    if text.replace("\n", "").isprintable():  # the usual case: nothing to escape, and no pattern to compile
        return text
    return _uncommon().sub(_inert_run, text)
