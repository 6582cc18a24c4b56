"""Many paths' ``git log --follow`` answered from one pass over history, where one pass gives the same answer.

:meth:`History.path_history <mechlint.provenance.git.History.path_history>`
asks git once per path (``git log --follow``), a few milliseconds each; a
fresh clone with a thousand sources in history pays that a thousand times.
One ``git log`` over every commit, without rename detection, lists what
every path held after every commit, in the order ``--follow`` visits them
(``--follow`` turns history simplification off, so it walks the same
commits). It gives ``--follow``'s answer exactly for a path that git never
looked for a rename or copy of: ``--follow`` looks only where the path is
added, so the answer is taken from the pass when every addition of the path
is in a root commit (nothing to come from). Any other path, a path git would
read as a pattern (``*``, ``?``, ``[``, ``\\``, a leading ``:``) or as a
folder (a file below it in some commit) gets ``None``: the caller asks git
for that path alone. ``tests/test_ci_path.py`` holds both equal on
generated histories with renames, copies, deletions and merges.
"""

from __future__ import annotations

from collections import defaultdict

from mechlint.provenance.log import Revision, parse_log

#: The pass: every commit on every ref but the stash, its parents, and what it changed against its first parent.
ARGS = (
    "--full-history", "--diff-merges=first-parent", "--raw", "--no-abbrev", "-z", "--no-renames",
    "--no-textconv", "--no-ext-diff", "--no-color", "--format=%x01%H %ct %P",
)  # fmt: skip
#: The key its answer is kept under between runs (with the refs).
QUESTION = "all-changes-no-stash"
_PATTERN = frozenset("*?[\\")


class AllChanges:
    """What one pass over history says about every path."""

    def __init__(self, output: bytes) -> None:
        self._revisions: dict[str, list[Revision]] = defaultdict(list)
        self._added_with_parent: set[str] = set()
        self._folders: set[str] = set()
        for record in output.split(b"\x01")[1:]:
            header, _, rest = record.partition(b"\0")
            fields = header.split()
            if len(fields) < 2:
                continue
            root = len(fields) == 2
            for revision in parse_log(b"\x01" + fields[0] + b" " + fields[1] + b"\0" + rest):
                self._revisions[revision.path].append(revision)
                if revision.previous is None and revision.blob is not None and not root:
                    self._added_with_parent.add(revision.path)
        for path in self._revisions:
            parts = path.split("/")
            self._folders.update("/".join(parts[:end]) for end in range(1, len(parts)))

    def follow(self, path: str) -> list[Revision] | None:
        """``git log --follow -- PATH``'s revisions, or ``None`` when only that query can tell."""
        if not path or path.startswith(":") or _PATTERN.intersection(path) or path in self._folders:
            return None
        if path in self._added_with_parent:
            return None
        return list(self._revisions.get(path, ()))
