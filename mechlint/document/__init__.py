"""Loading a mechanism file: bytes to text to data, strictly, never raising.

Every way a file can fail to be JSON becomes a finding of ``schema/invalid-json``
or ``schema/duplicate-key``. The position scanner runs only when something is
wrong, so a clean file is parsed exactly once, by the C parser.
"""

from __future__ import annotations

import codecs
import json
from bisect import bisect_right
from collections.abc import Callable, Iterable
from itertools import accumulate
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from mechlint.document.jsonscan import JsonSyntaxError, ScanResult, locate, parse_int, scan, string_offsets
from mechlint.model import Finding, Region
from mechlint.records import Record

#: The ids of the findings the loader makes: the rules that report them (``mechlint/rules/schema/invalid_json.py``,
#: ``duplicate_key.py``) take their ids from here, so that the document layer imports nothing of the rules above it.
INVALID_JSON = "schema/invalid-json"
DUPLICATE_KEY = "schema/duplicate-key"

_DEPTH_FOR_MESSAGES = 500


class _NonFinite(Exception):
    pass


P = ParamSpec("P")
T = TypeVar("T")


def _split_lines(document: Document) -> list[str]:
    return document.text.split("\n")


def _line_starts(document: Document) -> list[int]:
    # 0, then each line's length plus its "\n" added up (one entry past the end, never reached)
    return list(accumulate(map((1).__add__, map(len, document.lines)), initial=0))


def _reject_constant(name: str) -> Any:
    raise _NonFinite(name)


_WHOLE = (0, 1 << 62)  # the span of a whole string: an underlined value shows its words, without the quotes


class Document:
    """One mechanism file: its bytes, text, data and what went wrong loading it."""

    __slots__ = (
        "_derived",
        "_located",
        "_partial",
        "_scan",
        "_string_offsets",
        "data",
        "load_findings",
        "location",
        "parsed",
        "path",
        "raw",
        "text",
    )

    def __init__(
        self,
        path: str,
        raw: bytes,
        text: str = "",
        data: Any = None,
        parsed: bool = False,
        load_findings: list[Finding] | None = None,
        location: Path | None = None,
    ) -> None:
        self.path = path
        self.raw = raw
        self.text = text
        self.data = data
        self.parsed = parsed
        self.load_findings: list[Finding] = load_findings if load_findings is not None else []
        #: Where the file is on disk (absolute), when it came from a file.
        self.location = location
        self._scan: ScanResult | None = None
        #: Spans of only the pointers in ``_located`` (and those above them), from :meth:`prepare`.
        self._partial: ScanResult | None = None
        self._located: frozenset[str] = frozenset()
        self._derived: dict[Callable[..., Any], Any] = {}
        #: Character offsets of string literals by the literal's start (empty without escapes): computed once
        #: per literal, not once per finding in it (a long description can hold thousands).
        self._string_offsets: dict[int, list[int]] = {}

    def derived(self, compute: Callable[Concatenate[Document, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``compute(self, *args, **kwargs)``, computed once per document and shared by every rule that asks.

        The value is kept under ``compute`` itself (a module-level function,
        so one per kind of value, and typed by its signature): every call for
        one document must pass the same arguments.
        """
        try:
            return cast(T, self._derived[compute])
        except KeyError:
            value = self._derived[compute] = compute(self, *args, **kwargs)
            return value

    @property
    def lines(self) -> list[str]:
        """The lines of the text, split once."""
        return self.derived(_split_lines)

    def _line_starts(self) -> list[int]:
        return self.derived(_line_starts)

    def scan(self) -> ScanResult:
        """Positions of every value; computed once, and only on demand."""
        if self._scan is None:
            try:
                self._scan = scan(self.text)
            except JsonSyntaxError:
                self._scan = ScanResult()
        return self._scan

    def prepare(self, pointers: Iterable[str]) -> None:
        """Find where these pointers are now, walking only the parts of the text on their way.

        :meth:`region` then places findings at these pointers without scanning
        the whole text; any other pointer still gets the full scan.
        """
        if self._scan is not None or not self.parsed:
            return
        wanted = frozenset(pointers)
        partial = locate(self.text, wanted)
        if partial is not None:
            self._partial, self._located = partial, wanted

    def region(self, finding: Finding) -> Region:
        """Place a finding on the text: lines and code-point columns, 1-based."""
        if finding.offset is not None:
            return self._region_between(*finding.offset)
        partial = self._partial
        pointer = finding.underline or finding.pointer
        spans = partial if partial is not None and pointer in self._located else self.scan()
        start, end = self._span_of(spans, pointer, finding.on_key)
        span = finding.span if finding.span is not None or not finding.underline else _WHOLE
        if span is not None and self.text[start : start + 1] == '"':
            if start not in self._string_offsets:  # once per literal: it may be megabytes and hold thousands
                escaped = self.text.find("\\", start, end) >= 0
                self._string_offsets[start] = string_offsets(self.text, start, end) if escaped else []
            offsets = self._string_offsets[start]
            if offsets:
                low = min(max(span[0], 0), len(offsets) - 1)
                high = min(max(span[1], low), len(offsets) - 1)
                start, end = offsets[low], max(offsets[high], offsets[low] + 1)
            else:  # no escapes: the n-th character of the string is n characters after the quote
                last = end - start - 2
                low = min(max(span[0], 0), last)
                high = min(max(span[1], low), last)
                start, end = start + 1 + low, max(start + 1 + high, start + 2 + low)
        return self._region_between(start, end)

    def _span_of(self, spans: ScanResult, pointer: str, on_key: bool) -> tuple[int, int]:
        if on_key and pointer in spans.keys:
            return spans.keys[pointer]
        current = pointer
        while current:
            if current in spans.values:
                return spans.values[current]
            current = current.rpartition("/")[0]
        return spans.values.get("", (0, 1))

    def _region_between(self, start: int, end: int) -> Region:
        text = self.text
        start = min(start, len(text))
        end = min(max(end, start + 1), len(text) + 1)
        starts = self._line_starts()
        line = bisect_right(starts, start)
        end_line = bisect_right(starts, max(start, end - 1))
        return Region(line, start - starts[line - 1] + 1, end_line, end - starts[end_line - 1] + 1)


class _Decoded(Record):
    """The text of a file's bytes (``None`` when they are not UTF-8), the text to show, and what is wrong."""

    text: str | None
    shown: str
    findings: list[Finding]


def _decode(raw: bytes) -> _Decoded:
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) or raw[:4].count(0) == 3:
        return _encoding_error("UTF-32")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _looks_utf16(raw):
        return _encoding_error("UTF-16")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        prefix = raw[: error.start]
        line = prefix.count(b"\n") + 1
        column = len(prefix[prefix.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        bad = raw[error.start : error.start + 1].hex()
        shown = raw.decode("utf-8", "replace")
        offset = _offset_of(shown, line, column)
        finding = Finding(
            INVALID_JSON,
            f"the file is not valid UTF-8 (byte 0x{bad} at line {line}, column {column}); save it with UTF-8 encoding",
            offset=(offset, offset + 1),
        )
        return _Decoded(None, shown, [finding])
    if text.startswith("\ufeff"):
        finding = Finding(
            INVALID_JSON,
            "the file starts with a UTF-8 byte-order mark, which RFC 8259 forbids; save it as UTF-8 without BOM",
            offset=(0, 1),
        )
        return _Decoded(text, text, [finding])
    return _Decoded(text, text, [])


def _looks_utf16(raw: bytes) -> bool:
    """UTF-16 without a BOM: ASCII text with a zero byte beside every character."""
    head = raw[:16]
    if len(head) < 4 or len(head) % 2:
        head = head[: len(head) - len(head) % 2]
    if len(head) < 4:
        return len(head) == 2 and head.count(0) == 1
    low, high = head[0::2], head[1::2]
    return (all(b == 0 for b in high) and all(b != 0 for b in low)) or (
        all(b == 0 for b in low) and all(b != 0 for b in high)
    )


def _offset_of(text: str, line: int, column: int) -> int:
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1


def _encoding_error(encoding: str) -> _Decoded:
    finding = Finding(
        INVALID_JSON,
        f"the file looks {encoding}-encoded; mechanism files must be UTF-8 (RFC 8259), so convert it",
        offset=(0, 1),
    )
    return _Decoded(None, "", [finding])  # not shown: decoding it as UTF-8 would only print noise


def load(path: str, raw: bytes) -> Document:
    """Decode and parse ``raw``; problems become findings on the document."""
    text, shown, findings = _decode(raw)
    document = Document(path=path, raw=raw, text=shown, load_findings=findings)
    if text is None:
        return document
    body = text[1:] if text.startswith("\ufeff") else text
    duplicated = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        result = dict(pairs)
        if len(result) != len(pairs):
            duplicated = True
        return result

    try:
        data = json.loads(body, object_pairs_hook=pairs_hook, parse_constant=_reject_constant, parse_int=parse_int)
    except (ValueError, RecursionError, _NonFinite) as error:
        document.load_findings.append(_syntax_finding(text, error))
        return document
    document.data = data
    document.parsed = True
    if duplicated:
        for pointer, start, end in document.scan().duplicates:
            key = json.loads(text[start:end])
            document.load_findings.append(
                Finding(
                    DUPLICATE_KEY,
                    f"the key {json.dumps(key, ensure_ascii=False)} appears twice in one object; "
                    "parsers keep only the last value, so remove or rename one",
                    pointer=pointer,
                    offset=(start, end),
                )
            )
    return document


def _syntax_finding(text: str, error: BaseException) -> Finding:
    """Find the exact place of a parse error with the strict scanner."""
    depth = _DEPTH_FOR_MESSAGES if isinstance(error, RecursionError) else 100_000
    try:
        scan(text, max_depth=depth)
    except JsonSyntaxError as syntax:
        return Finding(INVALID_JSON, f"invalid JSON: {syntax.message}", offset=(syntax.offset, syntax.offset + 1))
    position = (getattr(error, "pos", 0) or 0) + text.startswith("\ufeff")
    return Finding(INVALID_JSON, f"invalid JSON: {error}", offset=(int(position), int(position) + 1))
