"""What a report may say about its run beyond the findings: where and when it ran, and what changed in sources.

The HTML report draws these in its header and under each stale source; the
command line fills them in (:mod:`mechlint.review.forreport`) only when an
HTML report is written. Every string is read from the repository or the
command line, so the report escapes it like any other input.
"""

from __future__ import annotations

from mechlint.records import Record

__all__ = ["RunFacts", "SourceDiff"]


class SourceDiff(Record):
    """What changed in one source since its pin, as ``mechlint diff`` shows it."""

    #: The mechanism file, as the report names it (``FileReport.path``), and the source's pointer in it.
    file: str
    pointer: str
    #: The lines before the diff: the source, where its pinned bytes are, what became of the file.
    summary: tuple[str, ...]
    #: The unified diff (headers, hunks), or ``None`` when a side is not text.
    diff: str | None = None
    #: For a side that is not text: the sizes and digests.
    sides: tuple[str, ...] = ()
    #: For an SVG source: each version, sanitised, as a ``data:image/svg+xml`` URI ("" when it cannot be shown).
    pinned_image: str = ""
    current_image: str = ""
    #: The diff line by line: ``(kind, text, changed parts)``, kind ``meta``, ``hunk``, ``context``, ``del``,
    #: ``add`` or ``note``; the changed parts (the sentence or word that changed) are offsets in ``text``.
    lines: tuple[tuple[str, str, tuple[tuple[int, int], ...]], ...] = ()


class RunFacts(Record):
    """Where, when and how the run was made ("" for what is not known)."""

    repository: str = ""
    branch: str = ""
    commit: str = ""
    #: When the run was made: ISO 8601, UTC.
    time: str = ""
    config: str = ""
    command: str = ""
    diffs: tuple[SourceDiff, ...] = ()
