"""Reporters: pure functions from a :class:`~mechlint.model.Report` to text.

Each reporter is chosen by name from :data:`REPORTERS`; none of them reads a
file or prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: Columns of the text report when the width is not known (not a terminal, no ``COLUMNS``).
DEFAULT_WIDTH = 120


@dataclass(frozen=True, slots=True)
class OutputOptions:
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


def reporter(name: str) -> Callable[..., str]:
    """The formatting function of the reporter called ``name``."""
    if name == "text":
        from mechlint.report.text import render
    elif name == "json":
        from mechlint.report.json import render
    elif name == "github":
        from mechlint.report.github import render
    elif name == "sarif":
        from mechlint.report.sarif import render
    elif name == "html":
        from mechlint.report.html import render
    elif name == "gitlab":
        from mechlint.report.gitlab import render
    elif name == "junit":
        from mechlint.report.junit import render
    else:
        raise KeyError(name)
    return render


REPORTERS = ("text", "json", "github", "sarif", "html", "gitlab", "junit")
