"""What ``git log --raw -z`` says about paths, as values: the revisions of a path.

Shared by the per-path queries (:mod:`mechlint.provenance.git`) and the one
pass over all of history (:mod:`mechlint.provenance.onepass`), which must
read git's answers the same way.
"""

from __future__ import annotations

import re

from mechlint.records import Record

__all__ = ["Revision", "is_hex", "parse_log"]

_HEX = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


class Revision(Record):
    """One commit in a path's history: the blob the path held after it (``None`` when deleted)."""

    commit: str
    time: int
    path: str
    blob: str | None
    previous: str | None
    #: The name the path had before this commit, when the commit renamed (or copied) it.
    origin: str | None = None


def is_hex(value: str) -> bool:
    return bool(_HEX.fullmatch(value))


def parse_log(output: bytes) -> list[Revision]:
    """Parse ``git log --raw -z --format=%x01%H %ct`` output, newest first."""
    revisions: list[Revision] = []
    for record in output.split(b"\x01")[1:]:
        header, _, rest = record.partition(b"\0")
        fields = header.decode("ascii", "replace").split()
        if len(fields) != 2 or not is_hex(fields[0]):
            continue
        commit, time = fields[0], int(fields[1]) if fields[1].isdigit() else 0
        parts = rest.lstrip(b"\n").split(b"\0")
        index = 0
        while index < len(parts) and parts[index].startswith(b":"):
            meta = parts[index][1:].decode("ascii", "replace").split()
            if len(meta) < 5:
                break
            old_blob, new_blob, status = meta[2], meta[3], meta[4]
            count = 2 if status[:1] in ("R", "C") else 1
            names = [p.decode("utf-8", "surrogateescape") for p in parts[index + 1 : index + 1 + count]]
            index += 1 + count
            if not names:
                break
            path = names[-1]
            blob = None if set(new_blob) == {"0"} or meta[1] == "160000" else new_blob
            previous = None if set(old_blob) == {"0"} else old_blob
            origin = names[0] if count == 2 and len(names) == 2 else None
            revisions.append(Revision(commit, time, path, blob, previous, origin))
    return revisions
