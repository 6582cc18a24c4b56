"""Reporters: pure functions from a :class:`~mechlint.model.Report` to text.

Each reporter is chosen by name from :data:`REPORTERS`; none of them reads a
file or prints.
"""

from __future__ import annotations

from collections.abc import Callable

from mechlint.report.options import DEFAULT_WIDTH, OutputOptions


def reporter(name: str) -> Callable[..., str]:
    """The formatting function of the reporter called ``name``."""
    if name == "text":
        from mechlint.report.text import render
    elif name == "concise":
        from mechlint.report.text import render_concise as render
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


__all__ = ["DEFAULT_WIDTH", "REPORTERS", "OutputOptions", "reporter"]

REPORTERS = ("text", "concise", "json", "github", "sarif", "html", "gitlab", "junit")
