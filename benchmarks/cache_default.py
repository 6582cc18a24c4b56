"""What the default-on result cache costs and saves: ``--no-cache``, a cold cache and a warm one, alternately.

    python benchmarks/cache_default.py FOLDER [varied|prose|copies]

Builds a 2,000-file corpus in FOLDER (``corpus.py``) if there is none, warms
bytecode and the blob cache once, then runs ``mechlint check`` three times in
each mode, each cold run with a fresh, empty ``XDG_CACHE_HOME``, and prints
the medians.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import build


def main() -> None:
    folder, mode = Path(sys.argv[1]), (sys.argv[2] if len(sys.argv) > 2 else "varied")
    if not (folder / "content").exists():
        build(folder, 2000, mode)
    mechlint = str(Path(sys.executable).parent / "mechlint")

    def run(args: list[str], xdg: str) -> float:
        env = {**os.environ, "XDG_CACHE_HOME": xdg, "NO_COLOR": "1"}
        command = [mechlint, "check", "--fail-on", "never", *args, "content"]
        start = time.perf_counter()
        subprocess.run(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

    run(["--no-cache"], tempfile.mkdtemp())  # warm-up: bytecode, blob cache
    times: dict[str, list[float]] = {"--no-cache": [], "cold cache": [], "warm cache": []}
    for _ in range(3):
        times["--no-cache"].append(run(["--no-cache"], tempfile.mkdtemp()))
        xdg = tempfile.mkdtemp()
        times["cold cache"].append(run([], xdg))
        times["warm cache"].append(run([], xdg))
    for name, values in times.items():
        print(f"| {mode} | {name} | {statistics.median(values):.2f} s |")


if __name__ == "__main__":
    main()
