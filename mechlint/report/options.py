"""How a report is written: :class:`OutputOptions`, shared by every reporter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.report.runfacts import RunFacts

__all__ = ["DEFAULT_WIDTH", "OutputOptions"]

#: Columns of the text report when the width is not known (not a terminal, no ``COLUMNS``).
DEFAULT_WIDTH = 120


class OutputOptions(Record):
    color: bool = False
    root_uri: str = ""
    tool_version: str = ""
    #: Columns the excerpt and caret lines of the text report fit in.
    width: int = DEFAULT_WIDTH
    #: The source excerpt (and trace) under a finding: ``None`` for errors and warnings only,
    #: ``True`` for every finding (notes too), ``False`` for none (one line a finding).
    show_source: bool | None = None
    #: One line per rule with its count, instead of one per finding (text report).
    statistics: bool = False
    #: 1: only the summary (and the statistics when asked); 2: nothing (text report).
    quiet: int = 0
    #: The text report's concise layout: ``path:line:col: level rule-id message``, one line a finding, no excerpt.
    concise: bool = False
    #: ``--unsafe-fixes``: unsafe fixes count as fixable (marked ``[*]``) as safe ones do.
    unsafe_fixes: bool = False
    #: Where, when and how the run was made, and what changed in stale sources (the HTML report's header).
    run: RunFacts | None = None
