"""Fixes of the ``provenance/`` rules: a renamed source's new path, and a pin of the bytes a source has now."""

from __future__ import annotations

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.fixes.edits import encode_string, insert_member_after, make_fix, replace_in_string
from mechlint.model import Finding, Fix
from mechlint.provenance.resolve import Sourced
from mechlint.rules import RuleContext

__all__ = ["gone_source", "pin_current"]


def _sourced(document: Document, context: RuleContext, pointer: str) -> Sourced | None:
    from mechlint.rules.provenance import sources

    return next((s for s in sources(document, context) if s.pointer == pointer), None)


def gone_source(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Safe: a source git's rename detection followed to a file that holds the pinned bytes cites that file."""
    source_pointer = finding.pointer.removesuffix("/path")
    sourced = _sourced(document, context, source_pointer)
    if sourced is None or not sourced.source.pinned_well:
        return None
    gone = sourced.source.departure
    if gone.moved_to is None or not gone.holds_pinned:
        return None
    change = replace_in_string(document, finding.pointer, 0, len(sourced.source.path), gone.moved_to)
    return make_fix(document, "safe", f"Change the path to {quote(gone.moved_to, 200)}", [change])


def pin_current(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe (the pin says "reviewed"): the source's ``sha256`` becomes the digest of the bytes it has now, as
    ``mechlint pin`` computes it (added after ``path`` when the source has none)."""
    source_pointer = finding.pointer.removesuffix("/sha256")
    sourced = _sourced(document, context, source_pointer)
    services = context.services
    if sourced is None or services is None or document.location is None:
        return None
    source = sourced.source
    located = services.provenance().locate(document.location, source.path, source.digest)
    if located.kind not in ("working-tree", "changed") or not located.sha256 or located.sha256 == source.digest:
        return None
    if source.digest is None:
        change = insert_member_after(document, source_pointer + "/path", "sha256", encode_string(located.sha256))
    else:
        change = replace_in_string(document, source_pointer + "/sha256", 0, len(source.digest), located.sha256)
    title = f"Pin {quote(source.path, 200)} to its current bytes ({located.sha256[:12]}…)"
    return make_fix(document, "unsafe", title, [change])
