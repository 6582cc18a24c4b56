"""The progress bar of a long ``check``: on stderr, only on a terminal, only after a delay."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["ProgressBar", "progress_bar"]


def _delay() -> float:
    """Seconds before the progress bar appears: 2, or ``MECHLINT_PROGRESS_AFTER``."""
    try:
        return max(float(os.environ.get("MECHLINT_PROGRESS_AFTER", "2")), 0.0)
    except ValueError:
        return 2.0


class ProgressBar:
    """A rich progress bar on stderr (a terminal), shown once a run has taken two seconds."""

    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.delay = _delay()
        self.started = self.clock()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if self.clock() - self.started < self.delay or done >= total:
                return
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("checking", total=total)
        self.bar.update(self.task, completed=done)
        if done >= total:
            self.bar.stop()


def progress_bar() -> Callable[[int, int], None] | None:
    """The progress bar, or nothing in CI, when stderr is not a terminal, or on a dumb terminal."""
    if os.environ.get("CI") or not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return None
    return ProgressBar()
