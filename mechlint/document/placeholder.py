"""Placeholders: text an author has still to write.

``mechlint new`` writes a mechanism whose prose, labels and source are
placeholders such as ``"TODO: the title, one line"``. A string is a
placeholder when it holds the word ``TODO``, ``FIXME`` or ``TBD`` in
capitals (not inside a longer word: ``TODOS`` and ``todo`` are prose).
``schema/placeholder`` reports each one with what to write there; the other
rules leave placeholders alone (prose rules do not read them, provenance
rules do not resolve a placeholder path), so that one unwritten string is
one finding.
"""

from __future__ import annotations

import re
from typing import Any

_MARKER = re.compile(r"(?<![\w-])(?:TODO|FIXME|TBD)(?![\w-])")
#: Members that are not content: the editor's schema, and extensions.
_NOT_CONTENT = re.compile(r"\$schema\Z|x-")


def is_placeholder(text: str) -> bool:
    """Whether ``text`` is (or holds) a placeholder marker."""
    return ("TODO" in text or "FIXME" in text or "TBD" in text) and _MARKER.search(text) is not None


def content_member(name: str) -> bool:
    """Whether a member of an object is content (not ``$schema``, not an ``x-`` extension)."""
    return _NOT_CONTENT.match(name) is None


def placeholder_sources(data: Any) -> frozenset[int]:
    """The indices of the sources whose ``path`` is a placeholder."""
    sources = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(sources, list):
        return frozenset()
    return frozenset(
        index
        for index, source in enumerate(sources)
        if isinstance(source, dict) and isinstance(source.get("path"), str) and is_placeholder(source["path"])
    )
