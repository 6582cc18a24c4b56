"""Issue 30: a worker process killed mid-run (SIGKILL, the OOM killer) does not leave the parent waiting forever.

Real processes and real signals: a worker kills itself with SIGKILL on a chosen
item (``work`` is the test's own function: nothing in mechlint is there for
tests), or the test kills a worker paused in a file's check
(``tests/paused_run.py``). The parent reports the item the worker was on as
lost, and finishes the others.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mechlint.run.parallel import WorkerDied, run_all

from .test_process_faults import CHECK, PAUSE, PAUSED_RUN, mechanisms

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux")

PARENT = os.getpid()


@pytest.fixture(autouse=True)
def never_wait_forever() -> Iterator[None]:
    """A run that hangs fails the test (SIGALRM) instead of the suite; if even that waits (the old pool, waiting
    for its lost task, ignored it), the test process ends with every thread's traceback."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError("the run did not finish")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(120)
    faulthandler.dump_traceback_later(240, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def killed_on(*doomed: int) -> object:
    def work(item: int) -> int:
        if item in doomed and os.getpid() != PARENT:
            os.kill(os.getpid(), signal.SIGKILL)
        return item * 2

    return work


def lost(item: int, why: str) -> str:
    return f"lost {item}: {why}"


def test_a_worker_killed_on_an_item_loses_that_item_and_the_others_are_done() -> None:
    outcomes = list(run_all(list(range(40)), killed_on(13), jobs=2, lost=lost))  # type: ignore[arg-type]
    assert outcomes == [*(i * 2 for i in range(13)), "lost 13: killed by SIGKILL", *(i * 2 for i in range(14, 40))]


def test_workers_killed_again_and_again_are_replaced_and_every_item_is_answered() -> None:
    doomed = (0, 5, 6, 7, 21, 39)
    outcomes = list(run_all(list(range(40)), killed_on(*doomed), jobs=2, lost=lost))  # type: ignore[arg-type]
    assert outcomes == [f"lost {i}: killed by SIGKILL" if i in doomed else i * 2 for i in range(40)]


def test_without_a_way_to_report_a_lost_item_the_run_stops_with_an_error_not_a_wait() -> None:
    with pytest.raises(WorkerDied, match=r"item 3 ended \(killed by SIGKILL\)"):
        list(run_all(list(range(40)), killed_on(3), jobs=2))  # type: ignore[arg-type]


def test_an_exception_in_a_worker_reaches_the_caller_as_in_one_process() -> None:
    def work(item: int) -> int:
        if item == 17:
            raise ValueError("bad item 17")
        return item

    with pytest.raises(ValueError, match="bad item 17"):
        list(run_all(list(range(40)), work, jobs=2))


def test_when_no_worker_can_start_every_item_is_done_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from multiprocessing.context import ForkProcess

    def refuse(self: object) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(ForkProcess, "start", refuse)
    where = list(run_all(list(range(40)), lambda item: os.getpid(), jobs=2))
    assert where == [PARENT] * 40


def test_a_check_whose_worker_is_killed_reports_that_file_and_checks_the_others(tmp_path: Path) -> None:
    """The command line, with a worker killed from outside while it checks a file: exit 1, no traceback."""
    tree = mechanisms(tmp_path / "tree", 64)
    folder = tmp_path / "signals"
    folder.mkdir()
    run = subprocess.Popen(
        [sys.executable, str(PAUSED_RUN), "--pause", PAUSE, "--folder", str(folder), "--", *CHECK, "-f", "concise"],
        cwd=tree,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(folder.glob("paused-*"))) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
        workers = sorted(int(p.name.removeprefix("paused-")) for p in folder.glob("paused-*"))
        assert len(workers) == 2 and run.pid not in workers, workers
        os.kill(workers[0], signal.SIGKILL)
        time.sleep(0.2)
        (folder / "go").touch()
        stdout, stderr = run.communicate(timeout=90)
    finally:
        (folder / "go").touch()
        if run.poll() is None:
            run.kill()
            run.wait()
    assert "Traceback" not in stderr, stderr
    lines = stdout.splitlines()
    found = [line for line in lines if ": error mechlint/internal-error " in line]
    assert len(found) == 1, stdout
    assert "the worker process checking this file ended (killed by SIGKILL) before it was done" in found[0]
    assert found[0].startswith("content/mechanisms/m") and found[0].split(":")[1:3] == ["1", "1"], found[0]
    name = found[0].split(":")[0]
    assert f"mechlint: internal error in mechlint/internal-error on {name}; please report it" in lines
    assert lines[-1] == "Found 1 error in 1 of 64 files.", stdout
    assert run.returncode == 1


def test_a_worker_whose_parent_is_gone_ends_quietly(capfd: pytest.CaptureFixture[str]) -> None:
    """Its answer cannot be sent (the pipe's other end is closed): no ``BrokenPipeError`` traceback, exit 0."""
    import multiprocessing

    from mechlint.run.workerpool import serve

    context = multiprocessing.get_context("fork")
    parent_end, child_end = context.Pipe()
    parent_end.send((0, 3))
    parent_end.close()
    worker = context.Process(target=serve, args=(child_end, lambda: None, lambda index: index, lambda: None))
    worker.start()
    child_end.close()
    worker.join(60)
    assert worker.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err
