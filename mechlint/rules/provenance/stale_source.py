"""Reports a source whose pinned bytes are an older version of the file at its
path (found in the path's history reachable from ``HEAD``, renames and merges
included; bytes only an unmerged branch held are ``provenance/digest-mismatch``), while the
working tree holds other bytes. The message names the commit that holds the
pinned bytes and the commit that changed them (the change HEAD has, not one
made on another branch), or says that HEAD holds other bytes its history did
not make from them (an unrelated history merged in), or that the change is not
committed yet. When the file had another name in that commit, the message says
it: ``git show COMMIT:PATH`` gives the pinned bytes. ``mechlint diff`` (or a
hover over the source in an editor) shows what changed since the pin; after
review, ``mechlint pin`` updates the digest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import HISTORY
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import (
    CURRENT_POST,
    EXAMPLE_REPOSITORY,
    POST_V1,
    line_endings,
    source_example,
    sources,
    sparse,
)

if TYPE_CHECKING:
    from mechlint.provenance.log import Revision
    from mechlint.provenance.source import Source

META = RuleMeta(
    id="provenance/stale-source",
    level=Level.ERROR,
    summary="The pinned bytes are in history, but the file has changed since.",
    why=(
        "The mechanism was made from an older version of its source; what it shows may no longer match the "
        "article, so it needs review."
    ),
    location="the source's `sha256`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/post.md", POST_V1),
            note=EXAMPLE_REPOSITORY,
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        pinned = source.pinned
        if pinned is None or pinned.kind != HISTORY or pinned.revision is None or not source.present:
            continue  # a gone file whose bytes history holds is provenance/frozen-resolved
        message = _stale(source, pinned.revision)
        if message:
            yield META.finding(pointer + "/sha256", message)


def _stale(source: Source, hit: Revision) -> str:
    """What changed the pinned bytes of ``hit`` (this path's history); "" when only line endings differ."""
    history = source.history
    revisions = source.revisions
    newer = revisions[: revisions.index(hit)]
    later = [r for r in newer if r.previous == hit.blob and r.blob != hit.blob]
    head = history.state().head
    head_blob = history.tree(head).get(source.repository.prefix + source.path) if head else None
    if head_blob == hit.blob:  # HEAD holds the pinned bytes: whatever other branches did, the change is here
        later = []  # (a checkout's line-ending conversion is converted back already: what differs is a change)
    # the change HEAD has, not one made on another branch
    ours = [r for r in later if head is not None and history.is_ancestor(r.commit, head)]
    if ours:
        changed = f"commit {history.describe(ours[-1].commit)} changed them"
    elif head is not None and head_blob not in (None, hit.blob):  # no change of HEAD's made them these bytes
        changed = f"HEAD (commit {history.describe(head)}) holds other bytes, not made from them in its history"
    else:
        changed = "they were changed in the working tree and not committed"
    shown = source.shown(hit.path)
    path = quote(source.path, 200)
    renamed = "" if shown == source.path else f", when the file was named {quote(shown, 200)}"
    return (
        f"the pinned bytes of {path} are from commit {history.describe(hit.commit)}{renamed}, and {changed}"
        f"{sparse(source)}{line_endings(source)}; "
        "review the mechanism against the new version, then run mechlint pin"
    )
