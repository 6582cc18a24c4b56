"""Provenance rules: each source's pinned bytes against the working tree and git history.

The shared code computes facts about each source of a document, once per
document (:func:`sources`, through ``Document.derived``): its path's problem
and working-tree state, where its pinned bytes are
(:attr:`Source.pinned <mechlint.provenance.source.Source.pinned>`: the
working tree, a commit of history, a frozen copy's original path, nowhere, or
unknowable and why), a frozen copy's claim, its history. Each rule module
turns those facts into its findings: its id, its decision and its message
text are in ``rules/provenance/<rule>.py``. A document that did not come from
a file on disk has no repository, so these rules say nothing about it.

Adding a provenance rule: write ``rules/provenance/<name>.py`` with a ``META``
and a ``check(document, context)`` that reads ``sources(document, context)``
and yields ``META.finding(...)`` for the facts it cares about; register it in
``mechlint/catalog/registry.py`` (``python -m mechlint.catalog.docs`` writes its page). The
classifier (:mod:`mechlint.provenance.resolve`) is not edited. A fact that no
rule had needed yet is added to :class:`~mechlint.provenance.source.Source`,
as a property computed when first asked, so that no other rule pays for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.placeholder import placeholder_sources
from mechlint.document.views import quote
from mechlint.provenance.pinned import HISTORY, UNREACHABLE, WORKING_TREE
from mechlint.rules import Example, RuleContext

if TYPE_CHECKING:
    from mechlint.provenance.resolve import Sourced
    from mechlint.provenance.services import RunServices
    from mechlint.provenance.source import Source

POST_V1 = "2d27fbdf4e8ca207afbfa388ca9172fbcc6c70e534af2476b3b704f87debadcf"
POST_V2 = "81db67b6a5702b9b68f0016f061c409bf3fb16d062fc854d1b424bb4e9c28c56"
OLD_SVG = "b35b8d1299ee809fbfa84a692b321e6613f51df30ff1b133f359e24717b2a050"
#: The repository the documented examples run in (built by the test suite); each digest is named by its start, so
#: that a reader tells the pinned bytes apart without comparing 64 hex digits.
EXAMPLE_REPOSITORY = (
    f'in a repository where content/post.md was committed as "v1" (sha256 {POST_V1[:8]}…), then as "v2" '
    f"(sha256 {POST_V2[:8]}…, its bytes now), and content/old.svg (sha256 {OLD_SVG[:8]}…) was committed, then deleted"
)
SHALLOW_CLONE = "in a depth-1 clone of that repository"


def source_example(path: str, digest: str | None = None) -> str:
    """The JSON of a ``sources`` array with one source, for documentation examples."""
    pinned = f', "sha256": "{digest}"' if digest else ""
    return f'[{{"path": "{path}"{pinned}, "description": "The article."}}]'


#: The passing example most provenance rules share: the post as it is now.
CURRENT_POST = Example(
    fires=False, where="/sources", json=source_example("content/post.md", POST_V2), note=EXAMPLE_REPOSITORY
)


def sources(document: Document, context: RuleContext) -> list[Sourced]:
    """The document's sources with their facts, computed once per document whichever rule asks first.

    A source whose path is a placeholder is left out: ``schema/placeholder`` asks for the path first.
    """
    services = context.services
    location = document.location
    if services is None or location is None:
        return []
    return document.derived(_sources, services, location)


def _sources(document: Document, services: RunServices, location: Path) -> list[Sourced]:
    unwritten = placeholder_sources(document.data)
    return [s for s in services.provenance().sources(document.data, location) if not _of_sources(s.pointer, unwritten)]


def _of_sources(pointer: str, indices: frozenset[int]) -> bool:
    """Whether ``pointer`` is one of the sources at ``indices``, or inside one."""
    if not indices or not pointer.startswith("/sources/"):
        return False
    index = pointer.split("/")[2]
    return index.isdigit() and int(index) in indices


def elsewhere(source: Source, named: str | None = None, said: str | None = None) -> str:
    """``those bytes are at "x" now`` or ``… were at "x" in commit C``, or "" when no other path has them.

    ``named`` is a commit the message has named already: it is "the same commit" here, and when the path is
    ``said`` too (the message has said the bytes were there then), nothing is left to say.
    """
    from mechlint.provenance.whereabouts import best_holder

    best = best_holder(source.path, source.holders)
    if best is None or (best.commit == named and best.path == said):
        return ""
    if best.commit is None:
        return f"those bytes are at {quote(best.path, 200)} now"
    return f"those bytes were at {quote(best.path, 200)} in {in_commit(source, best.commit, named)}"


def in_commit(source: Source, commit: str, named: str | None = None) -> str:
    """``commit C`` or, when HEAD does not contain it, ``commit C, on branch "x", which HEAD does not contain``;
    ``the same commit`` when it is ``named``, a commit the message has named before."""
    from mechlint.provenance.reach import from_head, refs_holding

    if commit == named:
        return "the same commit"
    history = source.history
    named = f"commit {history.describe(commit)}"
    if from_head(history, commit):
        return named
    return f"{named}, on {refs_holding(history, commit)}, which HEAD does not contain"


def frozen_copy_advice(source: Source) -> str:
    """What a frozen copy must hold, and how to put it back: never "fix the path" (its path is its claim)."""
    original = quote(source.original or "", 200)
    must = f"a frozen copy must hold, byte for byte, a version its original path {original} had in a commit"
    claim = source.claim
    if claim is not None and claim.kind == HISTORY and claim.revision is not None:
        spec = quote(f"{claim.revision.commit[:12]}:{claim.revision.path}", 200)
        return f"{must}: the pinned one is git show {spec}; put those bytes back in the copy, never re-pin an edit"
    if claim is not None and claim.kind == WORKING_TREE:
        return f"{must}: the pinned one is the file at {original} now; copy it, and commit it"
    history = f"git log -- {quote(source.original or '', 200)}"
    return f"{must} ({history} lists them): copy the version the mechanism was made from, and pin that"


def unreachable(source: Source) -> str:
    """``the pinned bytes are at this path only in commit C, on branch "x", which HEAD does not contain``, or ""."""
    pinned = source.pinned
    if pinned is None or pinned.kind != UNREACHABLE or pinned.revision is None:
        return ""
    at = "this path" if pinned.original is None else f"its original path {quote(pinned.original, 200)}"
    return f"the pinned bytes are at {at} only in {in_commit(source, pinned.revision.commit)}"


def line_endings(source: Source) -> str:
    """`` (the pinned sha256 is that of this file with LF line endings: …)``, or "" when that is not so."""
    how = source.line_endings
    if not how:
        return ""
    return (
        f" (the pinned sha256 is that of this file {how}: only its line endings differ, and git would store "
        "them as they are here; restore them, or pin after review)"
    )


def sparse(source: Source) -> str:
    """`` (the file is outside the sparse checkout, …)`` for a path the working tree leaves out, else ""."""
    state = source.state
    if state is None or not state.sparse:
        return ""
    return " (the file is outside the sparse checkout, so its bytes in HEAD were checked)"
