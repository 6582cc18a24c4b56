"""What ``git log --raw -z`` says about paths, as values: the revisions of a path.

Shared by the per-path queries (:mod:`mechlint.provenance.git`) and the one
pass over all of history (:mod:`mechlint.provenance.onepass`), which must
read git's answers the same way.
"""

from __future__ import annotations

import re
import time

from mechlint.records import Record

__all__ = ["Revision", "date_and_subject", "is_hex", "parse_log"]

_HEX = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: A well-formed committer line: name, <email>, seconds since 1970 and a +hhmm/-hhmm zone, single spaces.
_COMMITTER = re.compile(rb"committer [^<\n]*<[^<>\n]*> ([0-9]{1,11}) ([+-])([0-9]{4})")
#: 10000-01-01 in seconds since 1970: a later date is left to git.
_YEAR_10000 = 253402300800
#: What git's ``isspace`` takes for a blank (git's own ctype table: not ``\v`` or ``\f``).
_GIT_BLANKS = b" \t\r\n"


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
            if len(names) < count or "" in names:
                break  # the output ends inside the entry: a name (a rename's second one, say) missing or empty
            path = names[-1]
            blob = None if set(new_blob) == {"0"} or meta[1] == "160000" else new_blob
            previous = None if set(old_blob) == {"0"} else old_blob
            origin = names[0] if count == 2 else None
            revisions.append(Revision(commit, time, path, blob, previous, origin))
    return revisions


def date_and_subject(commit: bytes) -> bytes | None:
    """What ``git show -s --format=%cs%x00%s`` prints for a commit object (its bytes), or ``None``.

    ``%cs`` is the committer date, ``YYYY-MM-DD`` in the committer's own zone
    (git turns ``+hhmm`` into ``hh * 60 + mm`` minutes). ``%s`` is the first
    paragraph of the message: blank lines at its start skipped, each line's
    trailing blanks removed, lines joined by a space. ``None`` for an object
    git reads in ways of its own: a NUL byte (git stops there), an
    ``encoding`` header (git re-encodes), no committer line, more than one, or
    one not of the usual shape, a date before 1970 or after 9999. The caller
    then asks git. ``tests/test_provenance_describe.py`` holds this equal to
    git on usual and unusual commits.
    """
    if b"\0" in commit:
        return None
    header, _, message = commit.partition(b"\n\n")
    fields = header.split(b"\n")
    committers = [line for line in fields if line.startswith(b"committer ")]
    if len(committers) != 1 or any(line.startswith(b"encoding ") for line in fields):
        return None
    ident = _COMMITTER.fullmatch(committers[0])
    if ident is None:
        return None
    zone = int(ident[3])
    minutes = zone // 100 * 60 + zone % 100
    when = int(ident[1]) + (minutes if ident[2] == b"+" else -minutes) * 60
    if not 0 <= when < _YEAR_10000:
        return None
    day = time.gmtime(when)
    lines = iter(message.split(b"\n"))
    subject: list[bytes] = []
    for line in lines:
        line = line.rstrip(_GIT_BLANKS)
        if line:
            subject.append(line)
            break
    for line in lines:
        line = line.rstrip(_GIT_BLANKS)
        if not line:
            break
        subject.append(line)
    return b"%04d-%02d-%02d\0%s\n" % (day.tm_year, day.tm_mon, day.tm_mday, b" ".join(subject))
