"""Run ``mechlint`` with one function made to wait, so that a test can signal the process at that moment.

    python tests/paused_run.py --pause MODULE:NAME --folder DIR [--count-busy FILE] -- ARGUMENTS...

Before the function ``NAME`` of ``MODULE`` (``os:replace``,
``mechlint.run.engine:lint_file``, ``mechlint.provenance.cache:BlobCache._rows_of``)
runs, the process (a worker too) writes ``DIR/paused-PID`` and waits until
``DIR/go`` exists; then it goes on. ``--count-busy FILE``: at exit, the number of
SQLite statements that failed because another process held a lock is written
to FILE (a structural measure of waits: each one waited for the busy timeout).
Nothing else of mechlint is changed.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import importlib
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any


def pause_before(target: str, folder: Path) -> None:
    module_name, _, qualified = target.partition(":")
    owner: Any = importlib.import_module(module_name)
    *path, name = qualified.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = getattr(owner, name)

    @functools.wraps(original)
    def paused(*args: Any, **kwargs: Any) -> Any:
        go = folder / "go"
        if not go.exists():
            (folder / f"paused-{os.getpid()}").write_text(str(os.getpid()))
            deadline = time.monotonic() + 120
            while not go.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        return original(*args, **kwargs)

    setattr(owner, name, paused)


class CountingConnection(sqlite3.Connection):
    busy = 0

    def _counted(self, method: Any, *args: Any) -> Any:
        try:
            return method(*args)
        except sqlite3.OperationalError as error:
            if (getattr(error, "sqlite_errorcode", 0) & 0xFF) in (5, 6):
                CountingConnection.busy += 1
            raise

    def execute(self, *args: Any) -> Any:  # type: ignore[override]
        return self._counted(super().execute, *args)

    def executemany(self, *args: Any) -> Any:  # type: ignore[override]
        return self._counted(super().executemany, *args)

    def executescript(self, *args: Any) -> Any:  # type: ignore[override]
        return self._counted(super().executescript, *args)


def count_busy(report: Path) -> None:
    connect = sqlite3.connect

    def counting(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", CountingConnection)
        return connect(*args, **kwargs)

    sqlite3.connect = counting  # type: ignore[assignment]
    atexit.register(lambda: report.write_text(str(CountingConnection.busy)))


def main() -> None:
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--pause", required=True)
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--count-busy", type=Path)
    options = parser.parse_args(sys.argv[1:split])
    if options.count_busy is not None:
        count_busy(options.count_busy)
    pause_before(options.pause, options.folder)
    sys.argv = ["mechlint", *sys.argv[split + 1 :]]
    from mechlint.cli.entry import run

    run()


if __name__ == "__main__":
    main()
