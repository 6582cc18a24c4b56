"""A character as a message names it: ``U+2003 EM SPACE``, ``U+001F INFORMATION SEPARATOR ONE``.

:func:`unicodedata.name` has no name for the C0 and C1 control characters
(their names are aliases in Unicode's ``NameAliases.txt``), nor for
unassigned, private-use and surrogate code points. A message must still say
what the character is: controls get their alias, the others their kind.
"""

from __future__ import annotations

import unicodedata

# The control aliases of NameAliases.txt, U+0000 to U+001F, U+007F and U+0080 to U+009F.
# fmt: off
_C0 = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY",
    "ACKNOWLEDGE", "ALERT", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED",
    "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO",
    "DEVICE CONTROL THREE", "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE",
    "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE", "INFORMATION SEPARATOR FOUR",
    "INFORMATION SEPARATOR THREE", "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
)
_C1 = (
    "PADDING CHARACTER", "HIGH OCTET PRESET", "BREAK PERMITTED HERE", "NO BREAK HERE", "INDEX", "NEXT LINE",
    "START OF SELECTED AREA", "END OF SELECTED AREA", "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION", "LINE TABULATION SET", "PARTIAL LINE FORWARD",
    "PARTIAL LINE BACKWARD", "REVERSE LINE FEED", "SINGLE SHIFT TWO", "SINGLE SHIFT THREE", "DEVICE CONTROL STRING",
    "PRIVATE USE ONE", "PRIVATE USE TWO", "SET TRANSMIT STATE", "CANCEL CHARACTER", "MESSAGE WAITING",
    "START OF GUARDED AREA", "END OF GUARDED AREA", "START OF STRING", "SINGLE GRAPHIC CHARACTER INTRODUCER",
    "SINGLE CHARACTER INTRODUCER", "CONTROL SEQUENCE INTRODUCER", "STRING TERMINATOR", "OPERATING SYSTEM COMMAND",
    "PRIVACY MESSAGE", "APPLICATION PROGRAM COMMAND",
)
# fmt: on
_KINDS = {"Co": "a private-use character", "Cs": "a surrogate", "Cn": "an unassigned code point"}


def char_name(char: str) -> str:
    """The Unicode name of ``char``, the alias of a control character, or what kind of code point it is."""
    code = ord(char)
    if code < 0x20:
        return _C0[code]
    if code == 0x7F:
        return "DELETE"
    if 0x80 <= code < 0xA0:
        return _C1[code - 0x80]
    return unicodedata.name(char, "") or _KINDS.get(unicodedata.category(char), "a character without a name")


def described(char: str) -> str:
    """``U+001F INFORMATION SEPARATOR ONE``: the code point and its name."""
    return f"U+{ord(char):04X} {char_name(char)}"


def is_invisible(char: str) -> bool:
    """Whether ``char`` draws nothing: white space, a control or a format character (a zero-width space)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def is_white_space(char: str) -> bool:
    """Whether ``char`` is white space: a space of any width, a tab or a line break, but not one of the
    information separators (U+001C to U+001F) that Python also counts as space."""
    return char.isspace() and (unicodedata.category(char) != "Cc" or char in "\t\n\v\f\r")
