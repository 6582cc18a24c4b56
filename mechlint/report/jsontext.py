"""JSON text indented by two spaces, as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it, faster.

The JSON reports (SARIF, the JSON report, GitLab's) are written indented, and
with an indent the standard library encodes in Python, a generator for each
container; that was most of the time of writing a large SARIF log. :func:`dumps`
walks the value once into a list of pieces, each string encoded by the C
function the standard encoder uses (2 to 3 times faster on a SARIF log), and
gives the same text:
``tests/test_report_formats.py`` holds it equal to :func:`dumps_plain` on
generated values. A value it does not know the way the standard encoder does
(a key that is not a string) is left to the standard encoder.
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
    """What :func:`dumps_plain` gives (a ``TypeError`` for a value JSON cannot hold, as it raises)."""
    pieces: list[str] = []
    try:
        _walk(value, "", pieces.append)
    except _Unusual:
        return dumps_plain(value)
    return "".join(pieces)


_LEAVES: dict[Any, Any] = {str: encode_basestring, int: int.__repr__, bool: lambda v: "true" if v else "false"}


def _walk(value: Any, pad: str, write: Any) -> None:
    """Write ``value``; a string, integer or boolean in a container is written in the container's loop (most are)."""
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
    elif isinstance(value, list | tuple):
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
    elif isinstance(value, dict):
        if not value:
            write("{}")
            return
        inner = pad + _INDENT
        separator = "{\n" + inner
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Unusual
            leaf = _LEAVES.get(type(item))
            if leaf is not None:
                write(separator + encode_basestring(key) + ": " + leaf(item))
            else:
                write(separator + encode_basestring(key) + ": ")
                _walk(item, inner, write)
            separator = ",\n" + inner
        write("\n" + pad + "}")
    else:
        raise _Unusual
