"""Reports a source whose path names nothing in the working tree and nothing
in the history of any ref (renames followed). When the clone lacks history
(shallow or partial, or no git repository) the answer is unknown, and
``provenance/history-unavailable`` is reported instead: never a false
``missing-source``.

Bytes that another path holds do not make a path right: ``content/psot.md``
or ``content/Post.md`` pinned to the bytes of ``content/post.md`` is missing,
and the message asks "did you mean "content/post.md"? it holds the pinned
bytes now" (or names the commit in which a path held them). When no path has
the pinned bytes, it suggests the existing file closest by name, in HEAD or
beside the path, and says when the names differ only in case. A folder that
once held files is not a source. Only a frozen copy may be satisfied by bytes
of another path: its original path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import NOWHERE, UNREACHABLE
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, POST_V2, source_example, sources
from mechlint.views import quote

if TYPE_CHECKING:
    from mechlint.provenance.source import Source

META = RuleMeta(
    id="provenance/missing-source",
    level=Level.ERROR,
    summary="Nothing is at the source path, and nothing ever was in git history.",
    why="A source that never existed cannot back the mechanism: the path has a typo, or the file was never committed.",
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/psot.md", "0" * 64),
            note=EXAMPLE_REPOSITORY,
        ),
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/Post.md", POST_V2),
            note=EXAMPLE_REPOSITORY + " (the pinned bytes are those of content/post.md, a different path)",
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        if _missing(source):
            hint = did_you_mean(source)
            yield META.finding(
                pointer + "/path",
                f"nothing is at {quote(source.path, 200)}, and nothing ever was in the history of HEAD"
                f"{off_head(source)}; fix the path or remove the source{'; ' + hint if hint else ''}",
            )


def _missing(source: Source) -> bool:
    """Nothing at the path, and nothing in HEAD's full history: pinned, unpinned or malformed, the path is wrong."""
    if source.unsafe or not source.absent or source.in_history:
        return False
    pinned = source.pinned
    if pinned is None:  # no sha256, or a malformed one (schema/violation's): the path is judged all the same
        return source.history.complete
    return pinned.kind in (NOWHERE, UNREACHABLE)


def off_head(source: Source) -> str:
    """`` (the path, with its pinned bytes, is only on branch "x" …)`` when commits HEAD lacks hold it, else ""."""
    from mechlint.provenance.reach import refs_holding

    pinned = source.pinned
    history = source.history
    if pinned is not None and pinned.kind == UNREACHABLE and pinned.revision is not None:
        commit = pinned.revision.commit
        return (
            f" (its pinned bytes are at this path only in commit {history.describe(commit)}, on "
            f"{refs_holding(history, commit)}, which HEAD does not contain: merge it first)"
        )
    if source.revisions:
        commit = source.revisions[0].commit
        return (
            f" (a file is at this path only in commits HEAD does not contain, as in {history.describe(commit)} on "
            f"{refs_holding(history, commit)})"
        )
    return ""


def did_you_mean(source: Source) -> str:
    """``did you mean "X"? it holds the pinned bytes now`` (or held them in a commit, or is only close by name).

    The path that holds the pinned bytes at HEAD, or held them in some commit;
    else the existing path closest by name (a different case, a swapped
    letter, another post's folder); else "".
    """
    from mechlint.provenance.whereabouts import best_holder

    best = best_holder(source.path, source.holders)
    if best is not None:
        if best.commit is None:
            where = "it holds the pinned bytes now"
        else:
            where = f"it held the pinned bytes in commit {source.history.describe(best.commit)}"
        return f"did you mean {quote(best.path, 200)}? {where}{_case_note(source.path, best.path)}"
    by_name = source.closest_name()
    if by_name is not None:
        return f"did you mean {quote(by_name, 200)}?{_case_note(source.path, by_name)}"
    return ""


def _case_note(path: str, other: str) -> str:
    return " (the names differ only in case)" if path != other and path.casefold() == other.casefold() else ""
