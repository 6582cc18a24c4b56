"""Interrupting a real mechlint process at a known moment: while it reads its mechanism files.

A fixed delay before the signal is a race: on a fast machine the run is over
before it (the test used to skip), on a slow one Python has not started. Here
the process is started through a small boot script that counts the files
``mechlint.run.discovery.read_candidate`` reads, in the process and in its forked
workers, and writes one byte to a pipe once ``READY_AFTER`` files are read:
the test waits for that byte and then sends the signal, so the signal always
arrives in the middle of the work. The process that wrote the byte then
waits (up to a minute) inside that read: however late a loaded machine runs
the test's side, the work cannot end before the signal comes (a worker that
ignores Ctrl-C is stopped by its parent, which does not).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READY_AFTER = 50

_BOOT = """
import os, runpy, sys, time
ready = int(os.environ.pop("MECHLINT_TEST_READY_FD"))
import mechlint.run.discovery as discovery
read_candidate = discovery.read_candidate
count = [0]
def counting(*args, **kwargs):
    count[0] += 1
    if count[0] == {after}:
        try:
            os.write(ready, b"r")
        except OSError:
            pass
        time.sleep(60)  # the signal ends this wait (or the parent stops this worker): never the work's own end
    return read_candidate(*args, **kwargs)
discovery.read_candidate = counting
sys.argv = ["mechlint", *sys.argv[1:]]
runpy.run_module("mechlint", run_name="__main__", alter_sys=True)
"""


def start_reading(folder: Path, arguments: list[str]) -> subprocess.Popen[bytes]:
    """``mechlint ARGUMENTS`` in ``folder``, in its own process group, returned once it is reading files.

    Fails the test when the process ends, or has not read ``READY_AFTER`` files within two minutes.
    """
    read_end, write_end = os.pipe()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MECHLINT_TEST_READY_FD": str(write_end)}
    process = subprocess.Popen(
        [sys.executable, "-c", _BOOT.replace("{after}", str(READY_AFTER)), *arguments],
        cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True, pass_fds=(write_end,),
    )  # fmt: skip
    os.close(write_end)
    try:
        readable, _, _ = select.select([read_end], [], [], 120)
        byte = os.read(read_end, 1) if readable else b""
    finally:
        os.close(read_end)
    if byte != b"r":  # the pipe closed (the process ended) or nothing came in time
        process.kill()
        _, err = process.communicate(timeout=60)
        raise AssertionError(f"mechlint did not read {READY_AFTER} files (exit {process.returncode}): {err!r}")
    return process
