"""Side-by-side benchmark: mechlint (every rule) against check-jsonschema and ajv-cli (schema only).

    python benchmarks/run.py [--files 2000] [--mode varied|prose|copies] [--history] [--frozen] [--runs 3] [--scale]

Builds the corpus with ``corpus.py`` (a git repository in a temporary
folder), warms each tool once (bytecode, mechlint's blob cache), then runs the
tools alternately, ``--runs`` times each, start-up included, and prints the
median wall time, files per second and the ratio to check-jsonschema, for the
whole corpus and for one file (the pre-commit case). ``mechlint --cache`` is
the same full check with the result cache, which the warm-up run filled: what
a run over unchanged files costs. ``--scale`` also runs
mechlint alone on 200, 2,000 and 20,000 files and prints time and peak memory.

Tools are found next to this Python (``mechlint``, ``check-jsonschema``) and
``ajv`` on PATH or in ``--ajv``; a missing one is skipped and said so.
Install them with ``pip install . check-jsonschema`` and
``npm install ajv-cli@5`` (Node.js).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import MODES, build

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schemas" / "mechanism.schema.json"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["NO_COLOR"] = "1"
    env.pop("CI", None)
    return env


def _tool(name: str) -> str | None:
    sibling = Path(sys.executable).parent / name
    return str(sibling) if sibling.exists() else shutil.which(name)


def commands(folder: Path, files: list[str], ajv: str | None) -> dict[str, tuple[str, list[str]]]:
    found: dict[str, tuple[str, list[str]]] = {}
    mechlint = _tool("mechlint")
    if mechlint:
        found["mechlint --no-cache"] = (
            "every rule family, provenance",
            [mechlint, "check", "--no-cache", "--fail-on", "never", *files],
        )
        found["mechlint --cache"] = (
            "the same, files unchanged since the warm-up run",
            [mechlint, "check", "--cache", "--fail-on", "never", *files],
        )
    checker = _tool("check-jsonschema")
    if checker:
        found["check-jsonschema"] = ("schema only", [checker, "--schemafile", str(SCHEMA), *_expand(folder, files)])
    if ajv:
        data = (
            [arg for path in _expand(folder, files) for arg in ("-d", path)]
            if len(files) == 1 and files[0].endswith(".json")
            else ["-d", "content/*/mechanisms/*.json"]
        )
        found["ajv-cli"] = (
            "schema only",
            [ajv, "validate", "--spec=draft2020", "--strict=false", "-s", str(SCHEMA), *data],
        )
    return found


def _expand(folder: Path, files: list[str]) -> list[str]:
    if len(files) == 1 and files[0].endswith(".json"):
        return files
    return sorted(str(p.relative_to(folder)) for p in (folder / "content").glob("*/mechanisms/*.json"))


def timed(command: list[str], folder: Path) -> tuple[float, int]:
    """Wall seconds and peak memory (KiB) of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=folder, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} failed with {process.returncode}: {process.stderr.read().decode()[-500:]}")  # type: ignore[union-attr]
    return elapsed, usage.ru_maxrss


def compare(folder: Path, files: list[str], count: int, runs: int, ajv: str | None) -> list[str]:
    tools = commands(folder, files, ajv)
    for _, command in tools.values():
        timed(command, folder)  # warm-up: bytecode, caches
    times: dict[str, list[float]] = {name: [] for name in tools}
    for _ in range(runs):
        for name, (_, command) in tools.items():
            times[name].append(timed(command, folder)[0])
    base = statistics.median(times["check-jsonschema"]) if "check-jsonschema" in times else None
    lines = ["| tool | what it checks | files/s | wall (median) | ratio to check-jsonschema |", "|---|---|---|---|---|"]
    for name, (what, _) in tools.items():
        wall = statistics.median(times[name])
        ratio = f"{wall / base:.2f}" if base else "n/a"
        lines.append(f"| {name} | {what} | {count / wall:,.0f} | {wall:.2f} s | {ratio} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--mode", choices=MODES, default="varied")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ajv", default=shutil.which("ajv"))
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--scale", action="store_true")
    parser.add_argument("--history", action="store_true", help="half the sources only in git history (corpus.py)")
    parser.add_argument("--frozen", action="store_true", help="every mechanism with a frozen copy (corpus.py)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="mechlint-bench-"))
    if not (folder / "content").exists():
        build(folder, args.files, args.mode, history=args.history, frozen=args.frozen)
    kind = args.mode + (", half the sources only in history" if args.history else "")
    kind += ", each with a frozen copy" if args.frozen else ""
    print(f"corpus: {args.files} {kind} files in {folder}; {os.cpu_count()} cores; medians of {args.runs}\n")
    print(f"All {args.files} files:\n")
    print("\n".join(compare(folder, ["content"], args.files, args.runs, args.ajv)))
    one = sorted(str(p.relative_to(folder)) for p in (folder / "content").glob("*/mechanisms/*.json"))[0]
    print("\nOne file (the pre-commit case):\n")
    print("\n".join(compare(folder, [one], 1, args.runs, args.ajv)))
    if args.scale:
        mechlint = _tool("mechlint")
        print("\nmechlint alone, by corpus size:\n\n| files | wall | files/s | peak memory |\n|---|---|---|---|")
        for size in (200, 2000, 20000):
            scale_folder = Path(tempfile.mkdtemp(prefix=f"mechlint-scale-{size}-"))
            build(scale_folder, size, args.mode)
            command = [str(mechlint), "check", "--fail-on", "never", "content"]
            timed(command, scale_folder)
            wall, memory = timed(command, scale_folder)
            print(f"| {size:,} | {wall:.2f} s | {size / wall:,.0f} | {memory / 1024:.0f} MiB |")


if __name__ == "__main__":
    main()
