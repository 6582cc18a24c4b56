"""The hover "What changed since the pin" over a source that differs from its pin: the diff of ``mechlint diff``.

Hovering anywhere over a source object that has a provenance finding saying
its bytes changed (``provenance/stale-source``, ``provenance/digest-mismatch``,
``provenance/gone-source``) shows where its pinned bytes are and the unified
diff from them to the current bytes, the same facts and the same diff as
``mechlint diff`` (:mod:`mechlint.review`), in Markdown with every character
that would act made visible. Nothing is computed for other hovers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from mechlint.lsp.checker import Checked
    from mechlint.lsp.positions import TextIndex
    from mechlint.provenance.resolve import Provenance

__all__ = ["hover"]


def hover(checked: Checked, index: TextIndex, offset: int, provenance: Provenance | None) -> types.Hover | None:
    """The diff of the source under ``offset``, when a finding says it changed; else ``None``."""
    document = checked.document
    if provenance is None or not document.parsed or document.location is None:
        return None
    from mechlint.review.drift import CHANGED_RULES, source_pointer

    spans = document.scan().values
    for pointer in sorted({source_pointer(r.pointer) for r in checked.results if r.rule_id in CHANGED_RULES} - {""}):
        span = spans.get(pointer)
        if span is None or not span[0] <= offset <= span[1]:
            continue
        return _shown(checked, index, pointer, span, provenance)
    return None


def _shown(
    checked: Checked, index: TextIndex, pointer: str, span: tuple[int, int], provenance: Provenance
) -> types.Hover | None:
    from mechlint.review.drift import drift_of
    from mechlint.review.render import Cited, as_markdown, review

    document = checked.document
    assert document.location is not None
    for sourced in provenance.sources(document.data, document.location):
        if sourced.pointer != pointer:
            continue
        drift = drift_of(sourced.source)
        if drift is None:
            return None
        markdown = as_markdown(review(drift, (Cited(document.path, pointer),)))
        contents = types.MarkupContent(types.MarkupKind.Markdown, markdown)
        return types.Hover(contents, index.range_of(*span))
    return None
