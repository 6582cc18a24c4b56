"""The fingerprints of results: mechlint's own, and GitHub's line hash.

:func:`result_fingerprints` is mechlint's ``mechlint/v1`` fingerprint, the one
every report that tracks findings across runs uses (SARIF's
``partialFingerprints``, GitLab Code Quality's ``fingerprint``).

:func:`line_fingerprints` is GitHub's ``primaryLocationLineHash``, computed as
its upload action does. The text is taken as UTF-16 code units. Spaces and tabs are dropped, CRLF and
a lone CR become LF, and one sentinel unit (65535) ends the text, followed by
zeros. A line's hash is the polynomial hash, base 37 modulo 2**64, of the 100
kept units from the line's first kept unit. The fingerprint is the hash in
lowercase hexadecimal, a colon, and how many lines so far had that hash.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable

from mechlint.model import FileReport

_BLOCK = 100
_BASE = 37
_MASK = (1 << 64) - 1
_SPACE, _TAB, _LF, _CR, _END = 32, 9, 10, 13, 65535
_BASE_POWER = pow(_BASE, _BLOCK, 1 << 64)


def _kept_units(text: str) -> tuple[list[int], list[int]]:
    """The kept code units, and the index in them where each line starts."""
    units = array("H", text.encode("utf-16-le"))
    kept: list[int] = []
    starts: list[int] = []
    line_start = True
    previous_cr = False
    for unit in (*units, _END):
        if unit in (_SPACE, _TAB) or (previous_cr and unit == _LF):
            previous_cr = False
            continue
        previous_cr = unit == _CR
        if previous_cr:
            unit = _LF
        if line_start:
            line_start = False
            starts.append(len(kept))
        if unit == _LF:
            line_start = True
        kept.append(unit)
    return kept, starts


def line_fingerprints(text: str) -> dict[int, str]:
    """``{line number: fingerprint}`` for every line of ``text`` (1-based)."""
    kept, starts = _kept_units(text)
    kept.extend([0] * _BLOCK)
    prefix = [0] * (len(kept) + 1)
    running = 0
    for index, unit in enumerate(kept):
        running = (running * _BASE + unit) & _MASK
        prefix[index + 1] = running
    counts: dict[str, int] = {}
    fingerprints: dict[int, str] = {}
    for line, start in enumerate(starts, start=1):
        value = (prefix[start + _BLOCK] - prefix[start] * _BASE_POWER) & _MASK
        digest = format(value, "x")
        counts[digest] = counts.get(digest, 0) + 1
        fingerprints[line] = f"{digest}:{counts[digest]}"
    return fingerprints


def result_fingerprints(file_report: FileReport) -> list[str]:
    """mechlint's own fingerprint of each result of the file, in order.

    A hash of the file, the rule, the message, and the result's place named
    without line numbers or array indices (:attr:`Result.context`, else the
    pointer) with the offending value's hash; ``:N`` counts results that agree
    on all of these. Two problems at one place differ by their messages; a
    moved line, or an element inserted above, changes none of it.
    """
    counts: dict[str, int] = {}  # not a Counter: its __missing__ is a Python call for every new digest
    out = []
    for result in file_report.results:
        place = result.context or result.pointer
        text = "\0".join((file_report.uri, result.rule_id, place, result.value_hash, result.message))
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        count = counts[digest] = counts.get(digest, 0) + 1
        out.append(f"{digest}:{count}")
    return out


_DROP = {_SPACE: None, _TAB: None}


def fingerprints_of_lines(text: str, lines: Iterable[int]) -> dict[int, str]:
    """``{line: fingerprint}`` for the given lines only; what :func:`line_fingerprints` gives for them.

    A report needs the hash of the lines that have results, and a line's
    hash depends on the text only up to 100 kept units after its start (its
    count on the lines above it), so the text is read only that far. Spaces
    and tabs are dropped and line ends turned into LF with string methods
    instead of a loop over every unit.
    """
    wanted = {line for line in lines if line >= 1}
    if not wanted:
        return {}
    last = max(wanted)
    kept = text.replace("\r\n", "\n").replace("\r", "\n").translate(_DROP)
    starts = [0]
    position = 0
    while len(starts) < last:
        position = kept.find("\n", position) + 1
        if not position:
            break
        starts.append(position)
    end = starts[-1] + _BLOCK
    if end >= len(kept):
        kept += chr(_END)
    units = array("H", kept[:end].encode("utf-16-le"))
    if len(units) != min(end, len(kept)):  # characters beyond U+FFFF are two units: count line starts in units
        starts = [0, *(index + 1 for index, unit in enumerate(units) if unit == _LF)][: len(starts)]
    units.extend(bytes(2 * _BLOCK))
    prefix = [0]
    append = prefix.append
    running = 0
    for unit in units[: starts[-1] + _BLOCK]:
        running = (running * _BASE + unit) & _MASK
        append(running)
    counts: dict[str, int] = {}
    fingerprints: dict[int, str] = {}
    for line, start in enumerate(starts, start=1):
        digest = format((prefix[start + _BLOCK] - prefix[start] * _BASE_POWER) & _MASK, "x")
        counts[digest] = counts.get(digest, 0) + 1
        if line in wanted:
            fingerprints[line] = f"{digest}:{counts[digest]}"
    return fingerprints
