"""JSON Schema's ``pattern``: ECMA-262 regular expressions, translated to Python's ``re``.

JSON Schema 2020-12 (§6.3.3) says a pattern is an ECMA-262 regular
expression, and the two dialects differ where it matters: ECMA's ``$`` is the
end of the string (Python's also matches before a final newline, so
``^[0-9a-f]{64}$`` would accept a digest followed by ``\\n``); ``\\d``, ``\\w``
and ``\\b`` are ASCII (Python's are Unicode); ``\\s`` is ECMA's own set of
white space and line terminators; ``.`` stops at ``\\r``, U+2028 and U+2029
too; ``[^]`` is any character and ``[]`` none; ``\\cC`` is a control
character. :func:`translate` rewrites a pattern into Python syntax with
ECMA's meaning, with Unicode (``u`` flag) semantics: characters are code
points. ``\\p{…}`` (a Unicode property) is translated only when asked
(``properties=True``), for the General_Category values, from
:mod:`unicodedata`; the compiled validator (:mod:`mechlint.schema.fastschema`) does
not ask, so a schema that uses one falls back to the plain validator.
Anything else outside this dialect raises :class:`UnsupportedPattern`.
``tests/test_ecmaregex.py`` holds the translation to the
JSON-Schema-Test-Suite's pattern cases.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache

#: ECMA-262 WhiteSpace and LineTerminator (the ``\s`` class), as the inside of a Python character class.
WHITE_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_WORD = "A-Za-z0-9_"
_CLASS_ESCAPES = {"d": "0-9", "w": _WORD, "s": WHITE_SPACE}
_CONTROL = {"t": "\\t", "n": "\\n", "v": "\\x0b", "f": "\\x0c", "r": "\\r"}
_SYNTAX = frozenset("^$\\.*+?()[]{}|/-")
_QUANTIFIER = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_HEX = frozenset("0123456789abcdefABCDEF")
_BOUNDARY = (
    f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
)
# General_Category: long names (and the "digit" the test suite writes) to the short ones.
_CATEGORY_NAMES = {
    "letter": "L", "cased_letter": "LC", "uppercase_letter": "Lu", "lowercase_letter": "Ll",
    "titlecase_letter": "Lt", "modifier_letter": "Lm", "other_letter": "Lo", "mark": "M", "nonspacing_mark": "Mn",
    "spacing_mark": "Mc", "enclosing_mark": "Me", "number": "N", "decimal_number": "Nd", "digit": "Nd",
    "letter_number": "Nl", "other_number": "No", "punctuation": "P", "connector_punctuation": "Pc",
    "dash_punctuation": "Pd", "open_punctuation": "Ps", "close_punctuation": "Pe", "initial_punctuation": "Pi",
    "final_punctuation": "Pf", "other_punctuation": "Po", "symbol": "S", "math_symbol": "Sm",
    "currency_symbol": "Sc", "modifier_symbol": "Sk", "other_symbol": "So", "separator": "Z",
    "space_separator": "Zs", "line_separator": "Zl", "paragraph_separator": "Zp", "other": "C", "control": "Cc",
    "format": "Cf", "surrogate": "Cs", "private_use": "Co", "unassigned": "Cn",
}  # fmt: skip
_SHORT = {short.lower(): short for short in _CATEGORY_NAMES.values()}


class UnsupportedPattern(ValueError):
    """The pattern is not ECMA-262, or uses a construct this translation does not cover."""


def translate(pattern: str, *, properties: bool = False) -> str:
    """``pattern`` (ECMA-262, ``u`` flag) as a Python ``re`` pattern that matches the same strings."""
    return _Translator(pattern, properties).run()


@cache
def compile_ecma(pattern: str) -> re.Pattern[str]:
    """The compiled Python twin of an ECMA-262 ``pattern``, Unicode properties included."""
    try:
        return re.compile(translate(pattern, properties=True))
    except re.error as error:
        raise UnsupportedPattern(f"invalid regular expression {pattern!r}: {error}") from None


class _Translator:
    def __init__(self, pattern: str, properties: bool) -> None:
        self.text = pattern
        self.pos = 0
        self.properties = properties

    def fail(self, what: str) -> UnsupportedPattern:
        return UnsupportedPattern(f"{what} at offset {self.pos} of the pattern {self.text!r}")

    def run(self) -> str:
        out: list[str] = []
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char == "\\":
                out.append(self.escape(in_class=False))
                continue
            if char == "[":
                out.append(self.character_class())
                continue
            if char == "(" and text.startswith("(?", self.pos):
                out.append(self.group())
                continue
            if char == "{":
                quantifier = _QUANTIFIER.match(text, self.pos)
                if quantifier is None:
                    raise self.fail("a lone '{' (write '\\{')")
                out.append(quantifier.group())
                self.pos = quantifier.end()
                continue
            if char in "]}":
                raise self.fail(f"a lone {char!r}")
            self.pos += 1
            out.append({"$": "\\Z", ".": "[^\\n\\r\\u2028\\u2029]"}.get(char, char))
        return "".join(out)

    def group(self) -> str:
        text = self.text
        for opening in ("(?:", "(?=", "(?!", "(?<=", "(?<!"):
            if text.startswith(opening, self.pos):
                self.pos += len(opening)
                return opening
        name = re.compile(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>").match(text, self.pos)
        if name is None:
            raise self.fail("a group construct ECMA-262 does not have")
        self.pos = name.end()
        return f"(?P<{name.group(1)}>"

    def escape(self, *, in_class: bool) -> str:
        text = self.text
        if self.pos + 1 >= len(text):
            raise self.fail("a pattern that ends with '\\'")
        char = text[self.pos + 1]
        self.pos += 2
        if char in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[char] if in_class else f"[{_CLASS_ESCAPES[char]}]"
        if char in "DWS":
            if in_class:
                raise self.fail(f"'\\{char}' inside a character class")
            return f"[^{_CLASS_ESCAPES[char.lower()]}]"
        if char in "bB":
            return "\\x08" if in_class and char == "b" else _BOUNDARY[char == "B"]
        if char in _CONTROL:
            return _CONTROL[char]
        if char == "c" and self.pos < len(text) and text[self.pos].isascii() and text[self.pos].isalpha():
            self.pos += 1
            return f"\\x{ord(text[self.pos - 1]) % 32:02x}"
        if char == "0" and not text[self.pos : self.pos + 1].isdigit():
            return "\\x00"
        if char in "123456789" and not in_class:
            digits = re.compile(r"[0-9]*").match(text, self.pos)
            assert digits is not None
            self.pos = digits.end()
            return f"(?:\\{char}{digits.group()})"
        if char == "x" and len(text) >= self.pos + 2 and set(text[self.pos : self.pos + 2]) <= _HEX:
            self.pos += 2
            return f"\\x{text[self.pos - 2 : self.pos]}"
        if char == "u":
            return self.unicode_escape()
        if char in "pP":
            return self.property(negated=char == "P", in_class=in_class)
        if char == "k" and not in_class:
            name = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>").match(text, self.pos)
            if name is None:
                raise self.fail("'\\k' without a group name")
            self.pos = name.end()
            return f"(?P={name.group(1)})"
        if char in _SYNTAX:
            return "/" if char == "/" else "\\" + char
        raise self.fail(f"the escape '\\{char}', which ECMA-262 does not have with the u flag")

    def unicode_escape(self) -> str:
        text = self.text
        braced = re.compile(r"\{([0-9a-fA-F]{1,6})\}").match(text, self.pos)
        if braced is not None and int(braced.group(1), 16) <= sys.maxunicode:
            self.pos = braced.end()
            return f"\\U{int(braced.group(1), 16):08x}"
        if len(text) >= self.pos + 4 and set(text[self.pos : self.pos + 4]) <= _HEX:
            self.pos += 4
            return f"\\u{text[self.pos - 4 : self.pos]}"
        raise self.fail("'\\u' without four hex digits or {code point}")

    def property(self, *, negated: bool, in_class: bool) -> str:
        found = re.compile(r"\{([A-Za-z_]+)(?:=([A-Za-z_]+))?\}").match(self.text, self.pos)
        if found is None or not self.properties:
            raise self.fail("a Unicode property escape")
        name, value = found.groups()
        if value is not None and name not in ("General_Category", "gc"):
            raise self.fail(f"the Unicode property {name!r} (only General_Category values are known)")
        name = value or name
        category = _CATEGORY_NAMES.get(name.lower()) or _SHORT.get(name.lower())
        if category is None:
            raise self.fail(f"the Unicode property {name!r} (only General_Category values are known)")
        if negated and in_class:
            raise self.fail("'\\P' inside a character class")
        self.pos = found.end()
        ranges = _category_ranges(category)
        if in_class:
            return ranges
        return f"[{'^' if negated else ''}{ranges}]"

    def character_class(self) -> str:
        text = self.text
        self.pos += 1
        negated = text.startswith("^", self.pos)
        if negated:
            self.pos += 1
        if text.startswith("]", self.pos):  # ECMA: [] matches nothing, [^] anything
            self.pos += 1
            return "(?s:.)" if negated else "(?!)"
        out = ["[^" if negated else "["]
        while self.pos < len(text) and text[self.pos] != "]":
            char = text[self.pos]
            if char == "\\":
                out.append(self.escape(in_class=True))
            else:
                self.pos += 1
                out.append(char if char.isalnum() or char == "-" or not char.isascii() else "\\" + char)
        if self.pos >= len(text):
            raise self.fail("a character class without its ']'")
        self.pos += 1
        return "".join(out) + "]"


@cache
def _category_ranges(category: str) -> str:
    """The code points of a General_Category (``Lu``, or ``L`` for all letters) as class ranges."""
    wanted = (
        {"Lu", "Ll", "Lt"}
        if category == "LC"
        else {category}
        if len(category) == 2
        else {c for c in _SHORT.values() if len(c) == 2 and c[0] == category}
    )
    parts: list[str] = []
    start = -1
    for code in range(sys.maxunicode + 2):
        inside = code <= sys.maxunicode and unicodedata.category(chr(code)) in wanted
        if inside and start < 0:
            start = code
        elif not inside and start >= 0:
            parts.append(f"\\U{start:08x}" + (f"-\\U{code - 1:08x}" if code - 1 > start else ""))
            start = -1
    return "".join(parts)
