"""Checking many files on several cores, with output identical to one process.

The files are split into chunks and checked by worker processes started with
``fork`` (they inherit the configuration and the compiled rules, so nothing
has to be pickled but the results). Results come back in the original order,
so the report is the same byte for byte. Where ``fork`` is not available
(Windows, and macOS, where it is unsafe), or for small runs, everything runs
in this process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")

#: Below this many files one process is faster than starting workers.
PARALLEL_FROM = 200

_work: Callable[[object], object] | None = None
_items: Sequence[object] = ()
_flush: Callable[[], None] | None = None


def default_jobs(count: int) -> int:
    if count < PARALLEL_FROM or sys.platform != "linux":
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), 8))


#: Chunks per worker: enough that the last ones are short, so no worker waits long for another at the end.
CHUNKS_PER_JOB = 32


def chunks(total: int, jobs: int) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges that cover ``range(total)`` in order, handed to the workers one at a time.

    A worker that finishes its last chunk waits for the others' last ones,
    so chunks are small (about ``total / (jobs * CHUNKS_PER_JOB)``, at least 4
    files so that sending one costs little beside checking it, at most 64).
    """
    size = max(4, min(64, total // (jobs * CHUNKS_PER_JOB)))
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them; so no worker prints a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(bounds: tuple[int, int]) -> list[object]:
    assert _work is not None
    try:
        return [_work(_items[index]) for index in range(*bounds)]
    finally:
        if _flush is not None:
            _flush()


def run_all(
    items: Sequence[Item],
    work: Callable[[Item], Outcome],
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
    flush: Callable[[], None] | None = None,
) -> Iterator[Outcome]:
    """``work(item)`` for every item, in order; on ``jobs`` processes when that helps.

    ``flush`` is called in a worker after each chunk of items: a worker's
    process ends without the caller's clean-up, so what ``work`` keeps to
    write later (cache entries) is written then. In this process the caller
    cleans up as usual.
    """
    global _work, _items, _flush
    total = len(items)
    if jobs > 1 and total > 1:
        import multiprocessing  # only here: importing it costs a noticeable part of a one-file run

        jobs = jobs if "fork" in multiprocessing.get_all_start_methods() else 1
    if jobs <= 1 or total < 2:
        for done, item in enumerate(items, start=1):
            yield work(item)
            if progress is not None:
                progress(done, total)
        return
    _work, _items, _flush = work, items, flush  # type: ignore[assignment]
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts)
    try:
        done = 0
        for results in pool.imap(_run_chunk, chunks(total, jobs)):
            for result in results:
                done += 1
                yield result  # type: ignore[misc]
            if progress is not None:
                progress(done, total)
        pool.close()
        pool.join()
    except BaseException:
        pool.terminate()  # Ctrl-C, or the caller stopped early: no worker keeps running
        pool.join()
        raise
    finally:
        _work, _items, _flush = None, (), None
