"""How much two sequences share at their beginning and at their end.

The rule pages' example diffs (lines) and the fixes' minimal edits
(characters) both narrow a change to what differs between an old and a new
sequence; :func:`common_ends` is that measure, the end never overlapping
the beginning.
"""

from __future__ import annotations

from collections.abc import Sequence


def common_ends(old: Sequence[object], new: Sequence[object]) -> tuple[int, int]:
    """The length of the common beginning of ``old`` and ``new``, and of their common end after it."""
    shorter = min(len(old), len(new))
    head = 0
    while head < shorter and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shorter - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail
