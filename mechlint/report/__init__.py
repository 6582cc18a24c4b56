"""Reporters: pure functions from a :class:`~mechlint.model.Report` to text.

Each reporter is chosen by name from :data:`REPORTERS`; none of them reads a
file or prints. A reporter runs with the cycle collector paused
(:func:`paused_collection`).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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
    return _collector_paused(render)


@contextmanager
def paused_collection() -> Iterator[None]:
    """The cycle collector off for a while, then on again if it was on.

    A report of many findings is millions of small objects (the findings, and
    the dictionaries the JSON reports are built from) that all live until the
    text is written; each full collection walks all of them again, a third of
    the time of a large SARIF log (docs/benchmarks.md). Rendering makes no
    cycles: reference counting frees all it leaves.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _collector_paused(render: Callable[..., str]) -> Callable[..., str]:
    @functools.wraps(render)
    def paused(*arguments: object, **options: object) -> str:
        with paused_collection():
            return render(*arguments, **options)

    return paused


__all__ = ["DEFAULT_WIDTH", "REPORTERS", "OutputOptions", "reporter"]

REPORTERS = ("text", "concise", "json", "github", "sarif", "html", "gitlab", "junit")
