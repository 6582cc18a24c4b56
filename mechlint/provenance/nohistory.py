""" "No history": the null object of the history interface, and the state both implementations answer.

A folder outside any git repository, a repository git refuses to read (another
user owns it) or one mechlint refuses (a special file where git reads one, a
configuration git cannot be kept from) has no history. :class:`NoHistory`
answers every question :class:`~mechlint.provenance.git.History` answers, as a
history with no commits would, and says why it has none: the classifier asks
it exactly what it asks a real history, with no ``None`` to test for.

Importing this module starts no git and imports nothing heavy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.provenance.cache import BlobCache
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.log import Revision


class RepositoryState(Record):
    shallow: bool
    partial: bool
    head: str | None


class Unavailable(Record):
    """Why history could not answer, and whether the repository should have answered (then it is an error)."""

    why: str
    broken: bool
    #: How to let history answer: what to fetch in a shallow or partial clone, what to allow in a repository git
    #: refuses to read (``safe.directory``); else "".
    fix: str = ""


class NoHistory:
    """The history of a folder that has none: no commits, no trees, and a reason."""

    __slots__ = ("broken", "fix", "reason")

    #: Whether this is a repository's history; false here, true for :class:`~mechlint.provenance.git.History`.
    exists: ClassVar[Literal[False]] = False
    #: Not a complete history: what is not found in it may well exist.
    complete = False
    #: No answers are kept between runs for it.
    answers: BlobCache | None = None

    def __init__(self, reason: str, broken: bool = False, fix: str = "") -> None:
        self.reason = reason
        #: Whether the repository could not be read although it should have been (see :class:`GitError`).
        self.broken = broken
        #: How to let git answer (see :class:`GitError`), or "".
        self.fix = fix

    def unavailable(self, error: GitError | None = None) -> Unavailable:
        """Why a question had no answer: the reason there is no history (``error`` changes nothing)."""
        return Unavailable(self.reason, self.broken, self.fix)

    def state(self) -> RepositoryState:
        return RepositoryState(shallow=False, partial=False, head=None)

    def path_history(self, path: str) -> list[Revision]:
        return []

    def blob_holders(self, blob: str) -> list[Revision]:
        return []

    def tree(self, commit: str) -> dict[str, str]:
        return {}

    def is_ancestor(self, commit: str, descendant: str) -> bool:
        return False

    def changes(self, commit: str) -> list[Revision]:
        return []

    def unmerged_refs(self) -> list[str]:
        return []

    def refs_containing(self, commit: str) -> list[str]:
        return []

    def describe(self, commit: str) -> str:
        return commit[:12]

    def is_dirty(self) -> bool:
        """Whether the working tree differs from HEAD: unknowable without history, so yes (it vouches for less)."""
        return True

    def close(self) -> None:
        pass
