"""What "history" means: the commits reachable from ``HEAD``, and where the other commits are.

git is asked about every ref (``git log --all``, the stash left out) so that
bytes on an unmerged branch can be *said* to be there; but only a commit that
``HEAD`` contains may resolve a source (the spec's provenance section). When
every ref is merged into ``HEAD`` (the usual CI checkout) every commit of the
log is reachable and nothing more is asked; otherwise ``git merge-base``
answers for each commit that would resolve a source, and its answer is kept
between runs (it is about two commits, never about the refs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mechlint.document.views import quote
from mechlint.provenance.errors import GitError

if TYPE_CHECKING:
    from mechlint.provenance.git import History
    from mechlint.provenance.log import Revision
    from mechlint.provenance.nohistory import NoHistory

#: How a ref is named in messages: its kind and its short name.
_KINDS = (("refs/heads/", "branch "), ("refs/tags/", "tag "), ("refs/remotes/", "remote branch "))
#: At most this many refs are named in one message.
NAMED_REFS = 3


def from_head(history: History | NoHistory, commit: str) -> bool:
    """Whether ``commit`` is ``HEAD`` or one of its ancestors: part of history, in the spec's sense."""
    head = history.state().head
    if head is None:
        return False
    if commit == head or not history.unmerged_refs():
        return True
    return history.is_ancestor(commit, head)


def any_reached(history: History | NoHistory, revisions: list[Revision]) -> bool:
    """Whether one of ``revisions`` is in a commit of history; when git cannot say, whether there are any (a path
    that was in some history is never called missing on a guess)."""
    try:
        return any(from_head(history, revision.commit) for revision in revisions)
    except GitError:
        return bool(revisions)


def refs_holding(history: History | NoHistory, commit: str) -> str:
    """``branch side`` or ``branch side, tag kept and 2 more``: the refs whose history holds ``commit``."""
    names = [_short(ref) for ref in history.refs_containing(commit)]
    if not names:
        return "no branch or tag"
    shown = names[:NAMED_REFS]
    rest = len(names) - len(shown)
    if rest:
        return ", ".join(shown) + f" and {rest} more"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _short(ref: str) -> str:
    for prefix, kind in _KINDS:
        if ref.startswith(prefix):
            return kind + quote(ref[len(prefix) :], 100)
    return quote(ref, 100)
