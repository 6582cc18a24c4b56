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

Letting the C encoder write the compact text and indenting that with string
methods was tried for issue 30 and was no faster on Python 3.11: cutting the
text at its strings and numbers makes as many small strings as the walk does
(docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

__all__ = ["dumps", "dumps_plain"]

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
        _walk(value, "", pieces.append)
    except (_Unusual, RecursionError):
        return dumps_plain(value)
    return "".join(pieces)


_LEAVES: dict[Any, Any] = {str: encode_basestring, int: int.__repr__, bool: lambda v: "true" if v else "false"}
#: By indent, the text before a member's value (new line, indent, key, colon): a report repeats a few keys.
_PREFIXES: dict[str, dict[str, str]] = {}
_PREFIXES_KEPT = 256
#: The exact types :func:`_walk` needs no ``isinstance`` for.
_KNOWN = frozenset((dict, list, tuple, *_LEAVES))


def _walk(value: Any, pad: str, write: Any) -> None:
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
        prefixes = _PREFIXES.get(inner)
        if prefixes is None:
            prefixes = _PREFIXES[inner] = {}
        separator = "{"
        for key, item in value.items():
            prefix = prefixes.get(key)
            if prefix is None:
                if type(key) is not str and not isinstance(key, str):
                    raise _Unusual
                prefix = "\n" + inner + encode_basestring(key) + ": "
                if len(prefixes) < _PREFIXES_KEPT:
                    prefixes[key] = prefix
            leaf = _LEAVES.get(type(item))
            if leaf is not None:
                write(separator + prefix + leaf(item))
            else:
                write(separator + prefix)
                _walk(item, inner, write)
            separator = ","
        write("\n" + pad + "}")
    elif kind is list or kind is tuple or (kind not in _KNOWN and isinstance(value, list | tuple)):
        if not value:
            write("[]")
            return
        inner = pad + _INDENT
        separator = "[\n" + inner
        for item in value:
            leaf = _LEAVES.get(type(item))
            if leaf is not None:
                write(separator + leaf(item))
            else:
                write(separator)
                _walk(item, inner, write)
            separator = ",\n" + inner
        write("\n" + pad + "]")
    else:
        _walk_leaf(value, write)


def _walk_leaf(value: Any, write: Any) -> None:
    leaf = _LEAVES.get(type(value))
    if leaf is not None:
        write(leaf(value))
    elif value is None:
        write("null")
    elif isinstance(value, str):
        write(encode_basestring(value))
    elif isinstance(value, int):  # bool and int subclasses (an IntEnum) as the standard encoder writes them
        write("true" if value is True else "false" if value is False else int.__repr__(value))
    elif isinstance(value, float):
        write(json.dumps(value))  # the standard spelling of inf and nan
    else:
        raise _Unusual
