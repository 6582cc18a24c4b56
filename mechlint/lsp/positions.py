"""Offsets into a text, and LSP positions: lines and UTF-16 code units.

LSP counts a line's characters in UTF-16 code units (a character outside the
Basic Multilingual Plane counts two) and ends lines at ``\\n``, ``\\r\\n`` or
``\\r``. mechlint's regions count code points on lines split at ``\\n``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property

from lsprotocol import types

from mechlint.model import Region

_BREAK = re.compile(r"\r\n|\n|\r")


def utf16_length(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _units(char: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(char.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return 1
    return 2 if ord(char) > 0xFFFF else 1


class TextIndex:
    """Converts between character offsets, mechlint regions and LSP positions of one text."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding

    def length(self, text: str) -> int:
        """How many code units of the position encoding ``text`` is."""
        if self.encoding == "utf-16":
            return utf16_length(text)
        return sum(_units(char, self.encoding) for char in text) if self.encoding == "utf-8" else len(text)

    @cached_property
    def _lsp_starts(self) -> list[int]:
        return [0, *(match.end() for match in _BREAK.finditer(self.text))]

    @cached_property
    def _newline_starts(self) -> list[int]:
        return [0, *(match.end() for match in re.finditer("\n", self.text))]

    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        starts = self._lsp_starts
        line = bisect_right(starts, offset) - 1
        if offset > starts[line] and self.text[offset - 1] == "\r" and self.text[offset : offset + 1] == "\n":
            offset -= 1  # never between the two characters of a "\r\n"
        return types.Position(line, self.length(self.text[starts[line] : offset]))

    def offset(self, position: types.Position) -> int:
        """The character offset of an LSP position; past the end of a line is the end of the line."""
        starts = self._lsp_starts
        if position.line >= len(starts):
            return len(self.text)
        start = starts[max(position.line, 0)]
        end = starts[position.line + 1] if position.line + 1 < len(starts) else len(self.text)
        line = _BREAK.sub("", self.text[start:end])
        units = 0
        for index, char in enumerate(line):
            if units >= position.character:
                return start + index
            units += _units(char, self.encoding)
        return start + len(line)

    def region_offsets(self, region: Region) -> tuple[int, int]:
        """The offsets of a mechlint region (1-based lines split at ``\\n``, code-point columns)."""
        starts = self._newline_starts

        def at(line: int, column: int) -> int:
            if line - 1 >= len(starts):
                return len(self.text)
            return min(starts[max(line, 1) - 1] + max(column, 1) - 1, len(self.text))

        return at(region.start_line, region.start_column), at(region.end_line, region.end_column)

    def range_of(self, start: int, end: int) -> types.Range:
        return types.Range(self.position(start), self.position(max(start, end)))

    def region_range(self, region: Region) -> types.Range:
        return self.range_of(*self.region_offsets(region))
