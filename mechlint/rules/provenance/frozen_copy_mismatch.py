"""Reports a source under ``research/<name>/before/<original path>`` whose
pinned bytes never existed at ``<original path>`` in any commit reachable from
``HEAD`` (renames followed backwards: a name the original path had before a
rename counts, a name it was renamed to later does not). Bytes only a commit
``HEAD`` does not contain held there (an unmerged branch) are no resolution:
the message says where they are. The message says what a frozen copy must
hold: a version its original path had, byte for byte. A copy whose original, not
committed yet, holds the same bytes in the working tree makes a true claim.
When another path held
those bytes, the message names it and the commit. The pattern is an option:
a glob whose last ``**`` is the original path.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import NOWHERE, UNREACHABLE
from mechlint.rules import Example, Option, RuleContext, RuleMeta
from mechlint.rules.provenance import (
    EXAMPLE_REPOSITORY,
    OLD_SVG,
    elsewhere,
    frozen_copy_advice,
    in_commit,
    source_example,
    sources,
)

META = RuleMeta(
    id="provenance/frozen-copy-mismatch",
    level=Level.ERROR,
    summary="A frozen copy claims pre-migration bytes, but they never existed at the original path.",
    why=(
        "A frozen copy under research/<name>/before/ is a claim: these are exactly the bytes that were once "
        "at the original path. A copy that was edited, or made from another file, makes that claim false."
    ),
    location="the source's `path`",
    options=(
        Option(
            "pattern",
            "string",
            "research/*/before/**",
            "where frozen copies live; the part matched by the last ** is the original path",
        ),
    ),
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("research/migration/before/content/post.md", "1" * 64),
            note=EXAMPLE_REPOSITORY,
        ),
        Example(
            fires=False,
            where="/sources",
            json=source_example("research/migration/before/content/old.svg", OLD_SVG),
            note=EXAMPLE_REPOSITORY,
        ),
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        claim = source.claim
        if claim is None or claim.kind not in (NOWHERE, UNREACHABLE) or claim.original is None:
            continue  # no frozen copy, a true claim, or one that cannot be checked (provenance/history-unavailable)
        original = quote(claim.original, 200)
        parts = [
            f"{quote(source.path, 200)} is a frozen copy of {original}, but its pinned bytes never existed at "
            f"{original} (or a name it had before a rename) in any commit of HEAD's history"
        ]
        named = None
        if claim.kind == UNREACHABLE and claim.revision is not None:
            named = claim.revision.commit
            parts.append(f"they are there only in {in_commit(source, named)}")
        other = elsewhere(source, named, claim.original)
        parts += [other, "the copy is not the pre-migration file", frozen_copy_advice(source)]
        yield META.finding(pointer + "/path", "; ".join(part for part in parts if part))
