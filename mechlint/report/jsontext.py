"""JSON text indented by two spaces, as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it, faster.

The JSON reports (SARIF, the JSON report, GitLab's) are written indented, and
with an indent the standard library encodes in Python, a generator for each
container; that was most of the time of writing a large SARIF log. :func:`dumps`
walks the value once into a list of pieces, each string encoded by the C
function the standard encoder uses (2 to 3 times faster on a SARIF log), and
gives the same text:
``tests/test_report_formats.py`` holds it equal to :func:`dumps_plain` on
generated values. A value it does not know the way the standard encoder does
(a key that is not a string) is left to the standard encoder, and so is one
too deep for the walk (a circular reference). Objects and arrays, most of what
is walked, are recognised by their exact type before anything else is tried,
and the text before a member's value is made once for each key and indent.
``tests/test_report_scale_json.py`` holds it equal on hostile values.

The reports write :func:`dumps_inert`: the same text made inert
(:func:`mechlint.safety.terminal.inert_json`) string by string, with each record of an
array (a finding) written from a template for its shape by
:mod:`mechlint.report.jsonshape` once it has one, and walked otherwise.

Letting the C encoder write the compact text and indenting that with string
methods was tried for issue 30 and was no faster on Python 3.11: cutting the
text at its strings and numbers makes as many small strings as the walk does
(docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

from mechlint.records import Record
from mechlint.report.jsonshape import record_text
from mechlint.safety.terminal import inert_json

__all__ = ["dumps", "dumps_inert", "dumps_plain"]

_INDENT = "  "


class _Unusual(Exception):
    """A value :func:`dumps` leaves to the standard encoder."""


def dumps_plain(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def dumps(value: Any) -> str:
    """What :func:`dumps_plain` gives, or the error it raises.

    A ``TypeError`` for a value JSON cannot hold; a circular reference, which
    the walk would follow until Python's recursion limit, is the standard
    encoder's ``ValueError``.
    """
    pieces: list[str] = []
    try:
        _walk(value, "", pieces.append, _PLAIN)
    except (_Unusual, RecursionError):
        return dumps_plain(value)
    return "".join(pieces)


def dumps_inert(value: Any) -> str:
    """``inert_json(dumps(value))``, the text the JSON reports write, faster.

    Each string is made inert on its own (:func:`~mechlint.safety.terminal.inert_json`
    changes characters one by one, and only inside strings), so the whole text
    is never searched again; and a record in an array (an exact ``dict``) is
    written from a template for its shape when :func:`mechlint.report.jsonshape.record_text`
    has one, the walk being the fallback for any other.
    """
    pieces: list[str] = []
    try:
        _walk(value, "", pieces.append, _INERT)
    except (_Unusual, RecursionError):
        return inert_json(dumps_plain(value))
    return "".join(pieces)


def _inert_string(text: str) -> str:
    encoded = encode_basestring(text)
    return encoded if text.isprintable() else inert_json(encoded)  # the encoder's escapes are printable


class _Style(Record):
    """How strings are encoded, the text before a member's value by indent, and the writer of records if any."""

    string: Callable[[str], str]
    leaves: dict[Any, Callable[[Any], str]]
    #: By indent, the text before a member's value (new line, indent, key, colon): a report repeats a few keys.
    prefixes: dict[str, dict[str, str]]
    records: Callable[[dict[Any, Any], str], str | None] | None


def _style(string: Callable[[str], str], records: Callable[[dict[Any, Any], str], str | None] | None) -> _Style:
    leaves = {str: string, int: int.__repr__, bool: lambda v: "true" if v else "false"}
    return _Style(string, leaves, {}, records)


_PLAIN = _style(encode_basestring, None)
_INERT = _style(_inert_string, record_text)
_PREFIXES_KEPT = 256
#: The exact types :func:`_walk` needs no ``isinstance`` for.
_KNOWN = frozenset((dict, list, tuple, str, int, bool))


def _walk(value: Any, pad: str, write: Any, style: _Style) -> None:
    """Write ``value``; a string, integer or boolean in a container is written in the container's loop (most are).

    Objects and arrays are most of what is walked and are tested first, by exact type; the
    subclasses of ``dict``, ``list`` and ``tuple`` are walked as the standard encoder walks them.
    """
    kind = type(value)
    if kind is dict or (kind not in _KNOWN and isinstance(value, dict)):
        if not value:
            write("{}")
            return
        inner = pad + _INDENT
        prefixes = style.prefixes.get(inner)
        if prefixes is None:
            prefixes = style.prefixes[inner] = {}
        leaves = style.leaves
        separator = "{"
        for key, item in value.items():
            prefix = prefixes.get(key)
            if prefix is None:
                if type(key) is not str and not isinstance(key, str):
                    raise _Unusual
                prefix = "\n" + inner + style.string(key) + ": "
                if len(prefixes) < _PREFIXES_KEPT:
                    prefixes[key] = prefix
            leaf = leaves.get(type(item))
            if leaf is not None:
                write(separator + prefix + leaf(item))
            else:
                write(separator + prefix)
                _walk(item, inner, write, style)
            separator = ","
        write("\n" + pad + "}")
    elif kind is list or kind is tuple or (kind not in _KNOWN and isinstance(value, list | tuple)):
        if not value:
            write("[]")
            return
        inner = pad + _INDENT
        leaves, records = style.leaves, style.records
        separator = "[\n" + inner
        for item in value:
            leaf = leaves.get(type(item))
            if leaf is not None:
                write(separator + leaf(item))
                separator = ",\n" + inner
                continue
            text = records(item, inner) if records is not None and type(item) is dict else None
            if text is not None:
                write(separator + text)
            else:
                write(separator)
                _walk(item, inner, write, style)
            separator = ",\n" + inner
        write("\n" + pad + "]")
    else:
        _walk_leaf(value, write, style)


def _walk_leaf(value: Any, write: Any, style: _Style) -> None:
    leaf = style.leaves.get(type(value))
    if leaf is not None:
        write(leaf(value))
    elif value is None:
        write("null")
    elif isinstance(value, str):
        write(style.string(value))
    elif isinstance(value, int):  # bool and int subclasses (an IntEnum) as the standard encoder writes them
        write("true" if value is True else "false" if value is False else int.__repr__(value))
    elif isinstance(value, float):
        write(json.dumps(value))  # the standard spelling of inf and nan
    else:
        raise _Unusual
