"""Checking many files on several cores, with output identical to one process.

The files are split into chunks and checked by worker processes started with
``fork`` (they inherit the configuration and the compiled rules, so nothing
has to be pickled but the results). Results come back in the original order,
so the report is the same byte for byte. Where ``fork`` is not available
(Windows, and macOS, where it is unsafe), or for small runs, everything runs
in this process.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")

#: Below this many files one process is faster than starting workers.
PARALLEL_FROM = 200
#: ``--jobs`` is capped at this many workers per core: checking is work for the processor, more only wait.
JOBS_PER_CORE = 2

_work: Callable[[object], object] | None = None
_items: Sequence[object] = ()
_flush: Callable[[], None] | None = None


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_jobs(count: int) -> int:
    if count < PARALLEL_FROM or sys.platform != "linux":
        return 1
    return max(1, min(cores(), 8))


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


def _start_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, which stops them; so no worker prints a traceback.

    A parent killed alone (``timeout``'s SIGTERM, the OOM killer's SIGKILL)
    takes its workers with it: on Linux the kernel sends each one SIGKILL when
    the parent dies, so none writes into the parent's closed pipe (a
    ``BrokenPipeError`` traceback) or keeps running. SIGTERM, which the parent
    handles to clean up, is the default again: the parent stops its workers with it.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if sys.platform == "linux":
        import ctypes

        set_parent_death_signal = 1  # PR_SET_PDEATHSIG
        ctypes.CDLL(None, use_errno=True).prctl(set_parent_death_signal, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


def _run_one(index: int) -> object:
    assert _work is not None
    return _work(_items[index])


def _after_chunk() -> None:
    if _flush is not None:
        _flush()


class WorkerDied(Exception):
    """A worker process ended while working on an item, and the caller gave no outcome for that."""


def run_all(
    items: Sequence[Item],
    work: Callable[[Item], Outcome],
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
    flush: Callable[[], None] | None = None,
    lost: Callable[[Item, str], Outcome] | None = None,
) -> Iterator[Outcome]:
    """``work(item)`` for every item, in order; on ``jobs`` processes when that helps.

    ``flush`` is called in a worker after each chunk of items: a worker's
    process ends without the caller's clean-up, so what ``work`` keeps to
    write later (cache entries) is written then. In this process the caller
    cleans up as usual. A worker that ends while working on an item (killed,
    out of memory) loses that item: its outcome is ``lost(item, why)``
    (:class:`WorkerDied` without ``lost``); the other items are done by the
    other workers (see :mod:`mechlint.run.workerpool`).
    """
    global _work, _items, _flush
    total = len(items)
    jobs = min(jobs, JOBS_PER_CORE * cores())
    bounds = chunks(total, jobs) if jobs > 1 and total > 1 else []
    jobs = min(jobs, len(bounds))  # never more workers than chunks (than files): -j 500 on 3 files is one process
    _work, _items, _flush = work, items, flush  # type: ignore[assignment]  # before the fork: workers inherit them
    try:
        answers = _watched(bounds, jobs) if jobs > 1 else None
        if answers is not None:
            yield from _in_order(answers, items, lost, progress)
            return
    finally:
        _work, _items, _flush = None, (), None
    for done, item in enumerate(items, start=1):
        yield work(item)
        if progress is not None:
            progress(done, total)


def _watched(bounds: list[tuple[int, int]], jobs: int) -> Iterator[tuple[int, object]] | None:
    """The workers' answers, or ``None`` (run in this process) without ``fork`` or when no worker can start.

    A process limit (``ulimit -u``, a container's pids limit) makes ``fork``
    fail; the run is then made in this process, as slower but the same.
    """
    import multiprocessing  # only here: importing it costs a noticeable part of a one-file run

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    from mechlint.run.workerpool import run_watched

    return run_watched(bounds, jobs, functools.partial(_start_worker, os.getpid()), _run_one, _after_chunk)


def _in_order(
    answers: Iterator[tuple[int, object]],
    items: Sequence[Item],
    lost: Callable[[Item, str], Outcome] | None,
    progress: Callable[[int, int], None] | None,
) -> Iterator[Outcome]:
    from mechlint.run.workerpool import Lost

    waiting: dict[int, object] = {}
    done = 0
    for index, outcome in answers:
        waiting[index] = outcome
        if done not in waiting:
            continue
        while done in waiting:
            outcome = waiting.pop(done)
            if isinstance(outcome, Lost):
                if lost is None:
                    raise WorkerDied(f"the worker checking item {done} ended ({outcome.why})")
                outcome = lost(items[done], outcome.why)
            done += 1
            yield outcome  # type: ignore[misc]
        if progress is not None:
            progress(done, len(items))
