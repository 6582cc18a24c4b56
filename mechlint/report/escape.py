"""Text from input made visible in a report: every character that would act, or could not be carried, is written out.

A file name can hold any byte but NUL and ``/`` (an escape sequence, a bell, a
line break, a bidirectional override, a byte that is not UTF-8); a message
quotes values from the JSON, which can hold any code point, lone surrogates
included. Reports that are read by people, or by tools that cannot carry such
characters (XML, a CI runner's log, HTML text), show them as backslash escapes,
the way ``ls -b`` and Python do:

* ``\\t``, ``\\n``, ``\\r``, and ``\\xNN`` for the other C0 controls and DEL;
* ``\\xNN`` for a byte of a file name that is not UTF-8 (Python reads it as the
  lone surrogate U+DC\\ *NN*, see :pep:`383`), so the escape names the byte on disk;
* ``\\uNNNN`` or ``\\UNNNNNNNN`` for any other character that is not printable
  (C1 controls, line and paragraph separators, bidirectional and other format
  characters, other lone surrogates, noncharacters, private use, unassigned).

:func:`visible_name` also doubles every backslash of a file name, so that the
shown name maps back to exactly one name on disk (``a\\x1b`` is the escape,
``a\\\\x1b`` the four characters). Messages keep their backslashes
(:func:`visible`): they are for reading, and their quoted values already come
from the document.
"""

from __future__ import annotations

__all__ = ["report_path", "visible", "visible_name"]

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every character that is not printable written as a backslash escape; the rest unchanged."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def visible_name(name: str) -> str:
    """A file name as :func:`visible` shows it, with backslashes doubled: one shown name for one name on disk."""
    if "\\" in name:
        name = name.replace("\\", "\\\\")
    return visible(name)


def report_path(uri: str) -> str:
    """The path a report names a file by: relative to the repository, or the path of its ``file://`` URI outside it.

    The URI's percent-escapes are the bytes on disk: a byte that is not UTF-8
    comes back as the lone surrogate Python reads it as (:pep:`383`), never U+FFFD.
    """
    if not uri.startswith("file://"):
        return uri
    from urllib.parse import unquote, urlsplit

    return unquote(urlsplit(uri).path, errors="surrogateescape")
