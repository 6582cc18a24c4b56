"""Issue 30, points 8 and 10: worker processes under a process limit, and a parent killed alone.

Real processes and real signals: ``tests/paused_run.py`` runs ``mechlint`` with
one function made to wait, so that a signal arrives while the workers run.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import CLEAN

MECHLINT = Path(sys.executable).parent / "mechlint"
PAUSED_RUN = Path(__file__).resolve().parent / "paused_run.py"
PAUSE = "mechlint.run.engine:lint_file"
CHECK = ("check", "-j", "2", "--no-cache", "content")


def mechanisms(folder: Path, count: int) -> Path:
    content = folder / "content" / "mechanisms"
    content.mkdir(parents=True)
    for index in range(count):
        (content / f"m{index}.json").write_bytes(CLEAN.read_bytes())
    return folder


def _one_process_allowed() -> None:
    """In the child: a user of its own (the real user id) allowed one process, and no capability to pass that."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (21, 24):  # CAP_SYS_ADMIN, CAP_SYS_RESOURCE: either lets a process pass the limit
        libc.prctl(24, capability, 0, 0, 0)  # PR_CAPBSET_DROP: gone after exec
    resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
    os.setreuid(65534, 0)  # the limit counts the real user's processes: this one alone


needs_root = pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0,
    reason="a process limit of its own needs a user id of its own (root, on Linux); "
    "another user's limit counts all their processes",
)


@needs_root
@pytest.mark.parametrize("jobs", ["4", "500"])
def test_when_no_worker_can_start_the_run_is_made_in_one_process(tmp_path: Path, jobs: str) -> None:
    tree = mechanisms(tmp_path, 20)
    tree.chmod(0o755)
    done = subprocess.run(
        [str(MECHLINT), "check", "-j", jobs, "--no-cache", "content"],
        cwd=tree,
        capture_output=True,
        text=True,
        preexec_fn=_one_process_allowed,
    )
    assert "internal error" not in done.stderr
    assert (done.returncode, done.stdout) == (0, "All checks passed: 20 files checked, no problems.\n"), done.stderr


@needs_root
def test_more_jobs_than_files_starts_no_worker_more(tmp_path: Path) -> None:
    """``-j 500`` on 3 files: one chunk of files, so one process; nothing to start, nothing to fail."""
    tree = mechanisms(tmp_path, 3)
    done = subprocess.run(
        [str(MECHLINT), "check", "-j", "500", "--no-cache", "content"],
        cwd=tree,
        capture_output=True,
        text=True,
        preexec_fn=_one_process_allowed,
    )
    assert (done.returncode, done.stdout) == (0, "All checks passed: 3 files checked, no problems.\n"), done.stderr


def _gone(pid: int) -> bool:
    """Whether the process has exited (a zombie waiting for init to reap it counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_parent_killed_alone_leaves_no_worker_and_no_traceback(tmp_path: Path, signum: int) -> None:
    tree = mechanisms(tmp_path / "tree", 64)
    folder = tmp_path / "signals"
    folder.mkdir()
    run = subprocess.Popen(
        [sys.executable, str(PAUSED_RUN), "--pause", PAUSE, "--folder", str(folder), "--", *CHECK],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(folder.glob("paused-*"))) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
        workers = [int(p.name.removeprefix("paused-")) for p in folder.glob("paused-*")]  # named before written
        assert len(workers) == 2 and run.pid not in workers, workers  # both workers are in a file's check
        os.kill(run.pid, signum)
        code = run.wait(timeout=30)
        (folder / "go").touch()  # a worker still alive goes on, and would write into its dead parent's pipe
        _, stderr = run.communicate(timeout=60)  # the end of standard error: every worker has closed it
    finally:
        (folder / "go").touch()
        if run.poll() is None:
            run.kill()
            run.wait()
    assert code == (143 if signum == signal.SIGTERM else -signal.SIGKILL)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
    assert stderr in ("", "mechlint: stopped by SIGTERM\n"), stderr
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in workers if not _gone(pid)] == []
