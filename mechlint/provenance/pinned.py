"""Where the pinned bytes of a source are: the kinds of answer, importable without the code that finds them.

:attr:`Source.pinned <mechlint.provenance.source.Source.pinned>` and
:attr:`Source.claim <mechlint.provenance.source.Source.claim>` answer with a
:class:`Pinned`; the rule modules compare its ``kind`` with these names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.log import Revision

#: Where the pinned bytes are (:attr:`Pinned.kind`).
WORKING_TREE = "working-tree"  # the file at the path holds them (for a claim: the original file does)
HISTORY = "history"  # a commit held them at this path, a name it had before a rename, or the original path
NOWHERE = "nowhere"  # no commit of the full history held them there
UNREACHABLE = "unreachable"  # only commits HEAD does not contain held them there (an unmerged branch): no resolution
BEYOND_CLONE = "beyond-clone"  # not in the history this clone has (a shallow or partial clone)
NO_HISTORY = "no-history"  # no history to look in: not a repository, or one git cannot or may not read
FAILED = "failed"  # git failed while looking (``Pinned.error`` says how)
SUBMODULE = "submodule"  # the path is inside a nested repository, whose history is not read


#: How to fetch what a clone left out, by its shape (mechlint never fetches anything itself). A shallow clone
#: lacks older commits; a partial one (``--filter=blob:none``) has every commit but lacks the objects it did not
#: need, and its own fetch keeps the filter unless told ``--no-filter`` (``--refetch``: git 2.36 or newer).
FETCH_HISTORY = (
    "fetch the full history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)"
)
FETCH_OBJECTS = (
    "fetch the objects the clone left out (git fetch --refetch --no-filter; in GitHub Actions, actions/checkout "
    "without a filter)"
)
FETCH_BOTH = (
    "fetch the full history and the objects the clone left out (git fetch --unshallow --refetch --no-filter; in "
    "GitHub Actions, actions/checkout with fetch-depth: 0 and without a filter)"
)


class Pinned(Record):
    """Where the pinned bytes of a source are, or why that is unknown."""

    kind: str
    #: For :data:`HISTORY`: the newest revision that brought the pinned bytes to the path that held them; for
    #: :data:`UNREACHABLE`, the same among the commits HEAD does not contain.
    revision: Revision | None = None
    #: For :data:`HISTORY`, :data:`UNREACHABLE` and a claim's :data:`WORKING_TREE`: the frozen copy's original
    #: path, when that (not the source's own path) holds them.
    original: str | None = None
    #: For :data:`FAILED`: what git said.
    error: GitError | None = None
    #: For :data:`SUBMODULE`: the folder of the nested repository.
    folder: str = ""


class Held(Record):
    """The newest revision of a path that brought the pinned bytes in a commit of history (reachable from HEAD),
    or else the newest in a commit HEAD does not contain (a stray: said, never a resolution)."""

    reached: Revision | None = None
    stray: Revision | None = None
