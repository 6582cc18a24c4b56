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

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, POST_V2, report, source_example

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
    yield from report(META, document, context)
