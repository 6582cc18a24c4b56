"""A strict RFC 8259 scanner that knows where every value is.

The fast path of loading uses the C parser of the standard library. This
scanner runs only for files that have findings (or that failed to parse): it
finds the exact place of a syntax error, every repeated key, and the span of
each value and member name, addressed by JSON pointer. It is iterative, so
deep nesting cannot exhaust the stack.

Long: one hand-written scanner, a state machine over the text; split, its states would be spread over
modules that only make sense together.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_NON_JSON_WORDS = ("NaN", "-NaN", "Infinity", "-Infinity", "+Infinity")
_LITERALS = (("true", 4), ("false", 5), ("null", 4))
# Python refuses to convert integers longer than 4,300 digits in one go (CVE-2020-10735: the conversion is
# quadratic). A JSON integer of any length is still an integer: longer ones are converted in halves.
_MAX_INT_DIGITS = 4000


class LongInt(int):
    """An integer too long for Python's decimal text: ``repr`` and ``str`` give its length, not a ValueError,
    so that a message that shows the value (jsonschema's "… is less than the minimum") still reads."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"a {digit_count(self)}-digit number"

    __str__ = __repr__


def digit_count(value: int) -> int:
    """How many decimal digits ``abs(value)`` has, without converting it to a string."""
    value = abs(value)
    if value == 0:
        return 1
    estimate = int(value.bit_length() * 0.30102999566398120)  # log10(2)
    return estimate + 1 if value >= 10**estimate else estimate


def parse_int(text: str) -> int:
    """A JSON integer of any length (``-`` and digits), without the interpreter's digit limit."""
    if len(text) <= _MAX_INT_DIGITS:
        return int(text)
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    value = _int_of_digits(digits)
    return LongInt(-value if negative else value)


def _int_of_digits(digits: str) -> int:
    if len(digits) <= _MAX_INT_DIGITS:
        return int(digits)
    half = len(digits) // 2
    low = len(digits) - half
    scale: int = 10**low
    return _int_of_digits(digits[:half]) * scale + _int_of_digits(digits[half:])


class JsonSyntaxError(Exception):
    """The text is not JSON; ``offset`` is a character offset into it."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class ScanResult:
    """Spans are ``(start, end)`` character offsets, end exclusive."""

    __slots__ = ("duplicates", "keys", "values")

    def __init__(self) -> None:
        self.values: dict[str, tuple[int, int]] = {}
        self.keys: dict[str, tuple[int, int]] = {}
        self.duplicates: list[tuple[str, int, int]] = []


class _Frame:
    __slots__ = ("index", "is_object", "pointer", "seen", "start")

    def __init__(self, is_object: bool, pointer: str, start: int) -> None:
        self.is_object = is_object
        self.pointer = pointer
        self.start = start
        self.index = 0
        self.seen: set[str] = set()


def escape_token(token: str) -> str:
    """Escape one reference token of a JSON pointer (RFC 6901)."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def pointer_join(pointer: str, token: str | int) -> str:
    if type(token) is int:
        return f"{pointer}/{token}"
    return f"{pointer}/{escape_token(str(token))}"


def _describe(text: str, pos: int) -> str:
    if pos >= len(text):
        return "the end of the file"
    char = text[pos]
    if char.isprintable() and not char.isspace():
        return repr(char)
    return f"U+{ord(char):04X}"


def _read_string(text: str, pos: int) -> int:
    """Return the offset just past the string literal that opens at ``pos``."""
    try:
        _, end = json.decoder.scanstring(text, pos + 1, True)  # type: ignore[attr-defined]
    except json.JSONDecodeError as error:
        message = error.msg
        if message.startswith("Invalid control character"):
            message = "a control character must be escaped inside a string (write \\n, \\t or \\u00XX)"
        elif message.startswith("Unterminated string"):
            message = "the string is not closed with a double quote"
        elif message.startswith("Invalid \\escape") or message.startswith("Invalid \\u"):
            message = "invalid escape sequence in a string"
        raise JsonSyntaxError(error.pos, message) from None
    return int(end)


def _value_error(text: str, pos: int) -> JsonSyntaxError:
    for word in _NON_JSON_WORDS:
        if text.startswith(word, pos):
            return JsonSyntaxError(pos, f"{word} is not a JSON number; write a finite number or null")
    if pos < len(text) and text[pos] == "'":
        return JsonSyntaxError(pos, "strings must use double quotes, not single quotes")
    if pos < len(text) and text[pos] in "]}":
        return JsonSyntaxError(pos, f"expected a value before {text[pos]!r} (a trailing comma is not allowed)")
    return JsonSyntaxError(pos, f"expected a JSON value, found {_describe(text, pos)}")


def scan(text: str, *, max_depth: int = 100_000) -> ScanResult:
    """Scan ``text`` strictly; raise :class:`JsonSyntaxError` at the first error.

    The plain twin of :func:`locate`, which finds the spans of a few pointers
    without walking the whole text.
    """
    result = ScanResult()
    n = len(text)
    stack: list[_Frame] = []
    first = 1 if text.startswith("\ufeff") else 0  # a BOM is reported by the loader
    pos = _WS.match(text, first).end()  # type: ignore[union-attr]
    if pos >= n:
        raise JsonSyntaxError(pos, "the file is empty; a mechanism file is one JSON object")
    pointer = ""
    while True:
        # One value at ``pos``, addressed by ``pointer``.
        char = text[pos] if pos < n else ""
        if char in ("{", "["):
            if len(stack) >= max_depth:
                raise JsonSyntaxError(
                    pos, f"nesting is deeper than {max_depth} levels; JSON this deep cannot be parsed"
                )
            frame = _Frame(char == "{", pointer, pos)
            stack.append(frame)
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
            closing = "}" if frame.is_object else "]"
            if pos < n and text[pos] == closing:
                stack.pop()
                pos += 1
                result.values[frame.pointer] = (frame.start, pos)
            elif frame.is_object:
                pos, pointer = _read_key(text, pos, frame, result)
                continue
            else:
                pointer = pointer_join(frame.pointer, 0)
                continue
        elif char == '"':
            end = _read_string(text, pos)
            result.values[pointer] = (pos, end)
            pos = end
        else:
            match = _NUMBER.match(text, pos)
            if match and match.end() > pos:
                result.values[pointer] = (pos, match.end())
                pos = match.end()
            else:
                for word, length in _LITERALS:
                    if text.startswith(word, pos):
                        result.values[pointer] = (pos, pos + length)
                        pos += length
                        break
                else:
                    raise _value_error(text, pos)
        # After a value: close containers, or move to the next member.
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if not stack:
                if pos < n:
                    raise JsonSyntaxError(pos, f"unexpected {_describe(text, pos)} after the end of the JSON value")
                return result
            frame = stack[-1]
            closing = "}" if frame.is_object else "]"
            if pos < n and text[pos] == ",":
                comma = pos  # a trailing comma is reported where it is: deleting it is the fix
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                if frame.is_object:
                    if pos < n and text[pos] == "}":
                        raise JsonSyntaxError(comma, "a trailing comma before '}' is not allowed in JSON")
                    pos, pointer = _read_key(text, pos, frame, result)
                else:
                    if pos < n and text[pos] == "]":
                        raise JsonSyntaxError(comma, "a trailing comma before ']' is not allowed in JSON")
                    frame.index += 1
                    pointer = pointer_join(frame.pointer, frame.index)
                break
            if pos < n and text[pos] == closing:
                stack.pop()
                pos += 1
                result.values[frame.pointer] = (frame.start, pos)
                continue
            if pos >= n:
                raise JsonSyntaxError(pos, f"the file ends before {closing!r} closes the value opened here earlier")
            raise JsonSyntaxError(pos, f"expected ',' or {closing!r}, found {_describe(text, pos)}")


def _read_key(text: str, pos: int, frame: _Frame, result: ScanResult) -> tuple[int, str]:
    """Read ``"key" :`` at ``pos``; return the offset of the value and its pointer."""
    if pos >= len(text) or text[pos] != '"':
        raise JsonSyntaxError(pos, f"expected a member name in double quotes, found {_describe(text, pos)}")
    end = _read_string(text, pos)
    key = json.loads(text[pos:end])
    pointer = pointer_join(frame.pointer, key)
    if key in frame.seen:
        result.duplicates.append((pointer, pos, end))
    else:
        frame.seen.add(key)
    result.keys[pointer] = (pos, end)
    after = _WS.match(text, end).end()  # type: ignore[union-attr]
    if after >= len(text) or text[after] != ":":
        raise JsonSyntaxError(after, f"expected ':' after the member name, found {_describe(text, after)}")
    return _WS.match(text, after + 1).end(), pointer  # type: ignore[union-attr]


def string_offsets(text: str, start: int, end: int) -> list[int]:
    """Map each character of a decoded string literal to its offset in ``text``.

    ``start`` is the opening quote and ``end`` is just past the closing one. The
    returned list has one entry per decoded character plus one for the end.
    """
    offsets: list[int] = []
    pos = start + 1
    stop = end - 1
    while pos < stop:
        offsets.append(pos)
        if text[pos] != "\\":
            pos += 1
            continue
        if text[pos + 1] != "u":
            pos += 2
            continue
        high = int(text[pos + 2 : pos + 6], 16)
        pos += 6
        is_pair = 0xD800 <= high < 0xDC00 and text.startswith("\\u", pos)
        if is_pair and 0xDC00 <= int(text[pos + 2 : pos + 6], 16) < 0xE000:
            pos += 6
    offsets.append(stop)
    return offsets


_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]

#: Pointers deeper than this are placed by the full scanner (the targeted walk recurses once a level).
LOCATE_DEPTH = 64


@cache
def _skipper() -> Callable[[str, int], tuple[Any, int]]:
    """The C scanner of the standard library: the end of the JSON value at an offset, at C speed."""
    return json.decoder.JSONDecoder(parse_int=parse_int).scan_once  # type: ignore[attr-defined,no-any-return]


def locate(text: str, pointers: Iterable[str]) -> ScanResult | None:
    """The spans :func:`scan` gives for ``pointers`` and every pointer above them, and no others.

    Only the containers on the way to a wanted pointer are walked in Python;
    every other value is skipped by the C scanner. A repeated key is walked at
    each occurrence, so the last one wins, as in :func:`scan`. ``text`` must
    be JSON that the C parser accepted; ``None`` when a pointer is too deep
    (the caller then scans the whole text). ``tests/test_document.py`` holds
    it equal to :func:`scan`; ``benchmarks/fast_paths.py`` measures what it saves.
    """
    wanted: set[str] = set()
    for pointer in pointers:
        if pointer.count("/") > LOCATE_DEPTH:
            return None
        while pointer not in wanted:
            wanted.add(pointer)
            pointer = pointer.rpartition("/")[0]
    wanted.add("")
    result = ScanResult()
    first = 1 if text.startswith("\ufeff") else 0
    try:
        _walk(text, _WS.match(text, first).end(), "", wanted, result, _skipper())  # type: ignore[union-attr]
    except (ValueError, IndexError, StopIteration, RecursionError):
        return None
    return result


#: A member name and the colon after it, with the white space around; group 1 is the name as written.
_MEMBER = re.compile(r'"((?:[^"\\]|\\.)*)"[ \t\n\r]*:[ \t\n\r]*', re.DOTALL)
#: What follows a value inside a container: white space, then ``,`` (and white space) or the closing bracket.
_AFTER = re.compile(r"[ \t\n\r]*(?:,[ \t\n\r]*|(?=[}\]]))")


def _walk(
    text: str,
    pos: int,
    pointer: str,
    wanted: set[str],
    result: ScanResult,
    skip: Callable[[str, int], tuple[Any, int]],
) -> int:
    """Record the span of the value at ``pos`` (and of the wanted values inside it); return its end."""
    char = text[pos]
    if char not in "{[":
        end = skip(text, pos)[1]
        result.values[pointer] = (pos, end)
        return end
    is_object = char == "{"
    closing = "}" if is_object else "]"
    index = 0
    cursor = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    while text[cursor] != closing:
        if is_object:
            member = _MEMBER.match(text, cursor)
            if member is None:  # not JSON after all: the caller scans the whole text
                raise ValueError("no member name")
            name = member.group(1)
            child = pointer_join(pointer, _scanstring(text, cursor + 1, True)[0] if "\\" in name else name)
            if child in wanted:
                result.keys[child] = (cursor, member.end(1) + 1)
            cursor = member.end()
        else:
            child = f"{pointer}/{index}"
            index += 1
        cursor = _walk(text, cursor, child, wanted, result, skip) if child in wanted else skip(text, cursor)[1]
        cursor = _AFTER.match(text, cursor).end()  # type: ignore[union-attr]
    result.values[pointer] = (pos, cursor + 1)
    return cursor + 1
