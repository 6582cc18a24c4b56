"""How git converts a path's line endings when it stores it, from the path's attributes and ``core.autocrlf``.

:func:`clean_action` is git's own decision (``convert.c``'s ``convert_attrs``,
folded to the three cases that matter for storing a file). The attributes come
from one long-lived ``git check-attr --stdin -z text crlf eol``
(:class:`AttributeReader`): plumbing that reads ``.gitattributes`` files and
``.git/info/attributes`` and runs nothing; paths go on its standard input,
never on the command line, and each answer is read as git flushes it. It is
started only when a file holding a CRLF pair is met.
"""

from __future__ import annotations

import os
from typing import IO

from mechlint.provenance import invoke
from mechlint.provenance.errors import GitError

#: How git converts a path's line endings when it stores the file (``convert.c``'s ``crlf_action``, folded).
BINARY, TEXT, AUTO = "binary", "text", "auto"
ATTRIBUTES = ("text", "crlf", "eol")
#: The longest field read from ``check-attr`` (a path, an attribute's name or value).
_MAX_FIELD = 1 << 16


def _from_attribute(value: str) -> str | None:
    """``text`` or ``crlf`` as git reads it (``git_path_check_crlf``); ``None`` when it says nothing."""
    if value == "set" or value == "input":
        return TEXT
    if value == "unset":
        return BINARY
    if value == "auto":
        return AUTO
    return None


def clean_action(attributes: dict[str, str], autocrlf: str) -> str:
    """What git does to a path's line endings when it stores it: :data:`BINARY`, :data:`TEXT` or :data:`AUTO`.

    ``attributes`` maps ``text``, ``crlf`` and ``eol`` to ``git check-attr``'s
    values (``set``, ``unset``, ``unspecified`` or the value); ``autocrlf`` is
    ``true``, ``input`` or ``false``. The order is git's: ``text``, else the
    old ``crlf``; an ``eol`` makes a path text unless it is binary; then
    ``core.autocrlf`` decides for a path no attribute speaks about.
    """
    action = _from_attribute(attributes.get("text", "unspecified"))
    if action is None:
        action = _from_attribute(attributes.get("crlf", "unspecified"))
    if action is None and attributes.get("eol") in ("lf", "crlf"):
        action = TEXT
    if action is None:
        action = BINARY if autocrlf == "false" else AUTO
    return action


def parse_autocrlf(output: bytes) -> str:
    """``core.autocrlf`` as git reads it: ``input``, or a boolean (``true``/``false``)."""
    value = output.decode("utf-8", "replace").strip().lower()
    if value == "input":
        return "input"
    return "true" if value in ("true", "yes", "on", "1") else "false"


class AttributeReader(invoke.BatchGit):
    """One long-lived ``git check-attr --stdin -z text crlf eol``; paths go on its standard input."""

    ARGUMENTS = ("check-attr", "--stdin", "-z", *ATTRIBUTES)
    NAME = "check-attr"

    def ask(self, path: str) -> dict[str, str]:
        """``{attribute: value}`` of ``path`` (from the top; no NUL in it); raises GitError.

        After an error the process is stopped: what it had not said yet of that answer would be read as the next.
        """
        with self.lock:
            process, dog = self._start()
            assert process.stdin is not None and process.stdout is not None
            try:
                return self._answer(path, process.stdin, process.stdout, dog)
            except GitError:
                self.close()
                raise

    @staticmethod
    def _answer(path: str, stdin: IO[bytes], stdout: IO[bytes], dog: invoke.Watchdog) -> dict[str, str]:
        try:
            stdin.write(os.fsencode(path) + b"\0")
            stdin.flush()
        except OSError:
            raise GitError(dog.verdict or "git check-attr stopped unexpectedly") from None
        found: dict[str, str] = {}
        with dog.waiting():
            for _ in ATTRIBUTES:
                _field(stdout, dog)  # the path, as given
                name = _field(stdout, dog).decode("ascii", "replace")
                found[name] = _field(stdout, dog).decode("utf-8", "replace")
        return found


def _field(stream: IO[bytes], dog: invoke.Watchdog) -> bytes:
    """One NUL-terminated field of ``check-attr -z`` output."""
    field = bytearray()
    while len(field) <= _MAX_FIELD:
        byte = stream.read(1)
        if not byte:
            raise GitError(dog.verdict or "git check-attr stopped unexpectedly")
        if byte == b"\0":
            return bytes(field)
        field += byte
    raise GitError("git check-attr gave a field longer than mechlint reads")
