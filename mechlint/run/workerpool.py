"""Forked worker processes that are watched: a worker that dies loses the item it was on, not the run.

``multiprocessing.Pool`` hands a chunk of items to a worker and waits for the
answer; a worker killed (SIGKILL, the OOM killer) never answers, and the
parent waited forever (issue 30). Here each worker has a pipe of its own and
sends each item's outcome as soon as it has it; the parent waits on every
busy worker's pipe and on its *sentinel* (readable when the process ends) at
once. When a worker ends before its chunk is done, the parent knows the item
it was on (the first one not answered): that item is :class:`Lost`, the
items of the chunk it had not begun go back to the queue, and a new worker
is started in its place. When no worker is left and none can be started,
the parent does the rest itself.
"""

from __future__ import annotations

import collections
import contextlib
import signal
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkContext, ForkProcess

__all__ = ["Lost", "WorkerFailed", "run_watched", "serve"]


class Lost:
    """The outcome of an item whose worker process ended while working on it."""

    def __init__(self, why: str) -> None:
        self.why = why


class WorkerFailed(Exception):
    """``work`` raised in a worker, and its exception could not be sent to the parent as it is."""


class _Worker:
    __slots__ = ("chunk", "next", "pipe", "process")

    def __init__(self, process: ForkProcess, pipe: Connection) -> None:
        self.process, self.pipe = process, pipe
        self.chunk: tuple[int, int] | None = None
        self.next = 0  # the first item of the chunk not answered yet


def serve(
    pipe: Connection, start: Callable[[], None], do_one: Callable[[int], object], after: Callable[[], None]
) -> None:
    """A worker's life: chunks from the pipe until told to stop, each item's outcome sent as soon as it is made.

    A parent gone (its end of the pipe closed) ends the worker quietly: no
    ``BrokenPipeError`` traceback in a log that has nobody left to read it.
    """
    start()
    with contextlib.suppress(OSError, EOFError):
        _serve_chunks(pipe, do_one, after)


def _serve_chunks(pipe: Connection, do_one: Callable[[int], object], after: Callable[[], None]) -> None:
    while (bounds := pipe.recv()) is not None:
        try:
            for index in range(*bounds):
                outcome = do_one(index)
                pipe.send(("done", index, outcome))
        except Exception as error:
            try:
                pipe.send(("failed", -1, error))
            except Exception:  # an exception that cannot be pickled
                pipe.send(("failed", -1, WorkerFailed(f"{type(error).__name__}: {error}")))
            return
        finally:
            after()
        pipe.send(("chunk", -1, None))


def _why(process: ForkProcess) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class _Watched:
    def __init__(
        self,
        context: ForkContext,
        start: Callable[[], None],
        do_one: Callable[[int], object],
        after: Callable[[], None],
        chunks: list[tuple[int, int]],
    ) -> None:
        self.context, self.start, self.do_one, self.after = context, start, do_one, after
        self.pending = collections.deque(chunks)
        self.workers: list[_Worker] = []

    def hire(self) -> bool:
        """Start one worker; False when no process (or pipe) can be made."""
        try:
            parent_end, child_end = self.context.Pipe()
            process = self.context.Process(target=serve, args=(child_end, self.start, self.do_one, self.after))
            process.daemon = True
            process.start()
        except (OSError, RuntimeError):  # a process limit (EAGAIN), no memory, no file descriptor
            return False
        child_end.close()
        self.workers.append(_Worker(process, parent_end))
        return True

    def give(self, worker: _Worker) -> None:
        """The next chunk, or the word to stop."""
        worker.chunk = self.pending.popleft() if self.pending else None
        if worker.chunk is not None:
            worker.next = worker.chunk[0]
        with contextlib.suppress(OSError):  # it died meanwhile: its sentinel says so next
            worker.pipe.send(worker.chunk)

    def busy(self) -> list[_Worker]:
        return [w for w in self.workers if w.chunk is not None]

    def answers(self, worker: _Worker) -> Iterator[tuple[int, object]]:
        """What the worker has sent; a ``Lost`` item, and its chunk's rest queued again, if it has ended."""
        while worker.chunk is not None:
            try:
                if not worker.pipe.poll():
                    if worker.process.is_alive():
                        return
                    raise EOFError
                kind, index, payload = worker.pipe.recv()
            except (EOFError, OSError):
                yield from self.dismiss(worker)
                return
            if kind == "done":
                worker.next = index + 1
                yield index, payload
            elif kind == "chunk":
                self.give(worker)
            else:
                raise payload  # work raised: as it would in one process

    def dismiss(self, worker: _Worker) -> Iterator[tuple[int, object]]:
        """A worker that ended: the item it was on is lost, the rest of its chunk goes back to the queue."""
        worker.process.join()
        worker.pipe.close()
        self.workers.remove(worker)
        assert worker.chunk is not None
        start, stop = worker.next, worker.chunk[1]
        if start < stop:
            if start + 1 < stop:
                self.pending.appendleft((start + 1, stop))
            yield start, Lost(_why(worker.process))
        if self.pending and self.hire():
            self.give(self.workers[-1])

    def run(self) -> Iterator[tuple[int, object]]:
        from multiprocessing.connection import wait

        for worker in self.workers:
            self.give(worker)
        while self.busy():
            waiting = self.busy()
            ready = set(wait([w.pipe for w in waiting] + [w.process.sentinel for w in waiting]))
            for worker in waiting:
                if worker.pipe in ready or worker.process.sentinel in ready:
                    yield from self.answers(worker)
        while self.pending:  # no worker left, and none could be started: the rest here
            for index in range(*self.pending.popleft()):
                yield index, self.do_one(index)

    def stop(self, finished: bool) -> None:
        for worker in self.workers:
            if finished:
                worker.process.join(5)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join()
            worker.pipe.close()


def run_watched(
    chunks: list[tuple[int, int]],
    jobs: int,
    start: Callable[[], None],
    do_one: Callable[[int], object],
    after: Callable[[], None],
) -> Iterator[tuple[int, Any]] | None:
    """``(index, outcome)`` for every item of ``chunks``, in no set order, by ``jobs`` forked workers.

    ``start`` runs first in each worker, ``do_one(index)`` makes an item's
    outcome (a :class:`Lost` if its worker ended), ``after`` runs in a worker
    after each chunk. ``None`` when not one worker can be started.
    """
    import multiprocessing

    watched = _Watched(multiprocessing.get_context("fork"), start, do_one, after, chunks)
    while len(watched.workers) < jobs and watched.hire():
        pass
    if not watched.workers:
        return None
    return _supervised(watched)


def _supervised(watched: _Watched) -> Iterator[tuple[int, Any]]:
    finished = False
    try:
        yield from watched.run()
        finished = True
    finally:  # Ctrl-C, an exception of ``work``, or the caller stopped early: no worker keeps running
        watched.stop(finished)
