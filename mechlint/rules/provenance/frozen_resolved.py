"""Reports, as a note, a **frozen copy** (a path under
``research/<name>/before/``, pattern configurable in
``provenance/frozen-copy-mismatch``) whose file is gone from the working tree,
while its pinned bytes were at its original path (or a name that path had
before a rename), or at the copy's own path, in a commit reachable from
``HEAD``. The message names that commit, and the path when it is not the
copy's own: ``git show COMMIT:PATH`` gives the pinned bytes.

A frozen copy may be deleted once the migration is done; any other source
that is gone is ``provenance/gone-source``, a warning. Bytes that only some
other path held do not count (a mistyped path is
``provenance/missing-source``), nor do bytes that only commits ``HEAD`` does
not contain held (an unmerged branch): the claim is then
``provenance/frozen-copy-mismatch``, and the message says where they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import HISTORY
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, EXAMPLE_REPOSITORY, OLD_SVG, source_example, sources

if TYPE_CHECKING:
    from mechlint.provenance.log import Revision
    from mechlint.provenance.source import Source

META = RuleMeta(
    id="provenance/frozen-resolved",
    level=Level.NOTE,
    summary="A frozen copy is gone from the working tree; its pinned bytes were found in history.",
    why=(
        "Frozen copies may be deleted once a migration is done; the note records where the bytes still live,"
        " so a reviewer can find them."
    ),
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("research/migration/before/content/old.svg", OLD_SVG),
            note=EXAMPLE_REPOSITORY,
        ),
        Example(
            fires=False,
            where="/sources",
            json=source_example("content/old.svg", OLD_SVG),
            note=EXAMPLE_REPOSITORY + " (not a frozen copy: provenance/gone-source)",
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        pinned = source.pinned
        if source.original is None or pinned is None or pinned.kind != HISTORY or pinned.revision is None:
            continue  # not a frozen copy (a gone source is provenance/gone-source), or not resolved
        if source.present:
            continue  # a file that is there with older bytes is provenance/stale-source
        yield META.finding(
            pointer + "/path",
            f"{quote(source.path, 200)} is gone from the working tree; its pinned bytes were "
            f"{held(source, pinned.revision, pinned.original)}",
        )


def held(source: Source, hit: Revision, original: str | None) -> str:
    """``at PATH in commit C``: where ``hit`` held the bytes, so that ``git show C:PATH`` can be checked."""
    commit = source.history.describe(hit.commit)
    shown = source.shown(hit.path)
    if original is not None:
        if shown == original:
            return f"at its original path {quote(original, 200)} in commit {commit}"
        return (
            f"at {quote(shown, 200)} in commit {commit}, the name its original path {quote(original, 200)} "
            "had before a rename"
        )
    if shown == source.path:
        return f"at this path in commit {commit}"
    return f"at {quote(shown, 200)} in commit {commit}, the name this path had before a rename"
