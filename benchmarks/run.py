"""Side-by-side benchmark: mechlint (every rule) against check-jsonschema and ajv-cli (schema only).

    python benchmarks/run.py [--files 2000] [--mode varied|prose|copies] [--history] [--frozen] [--runs 3] [--scale]
    python benchmarks/run.py --fresh [--files 2000] [--history] [--runs 3] [--scale] [--before OLD/bin/mechlint]

Builds the corpus with ``corpus.py`` (a git repository in a temporary
folder), warms each tool once (bytecode, mechlint's blob cache), then runs the
tools alternately, ``--runs`` times each, start-up included, and prints the
median wall time, files per second and the ratio to check-jsonschema, for the
whole corpus and for one file (the pre-commit case). ``mechlint --cache`` is
the same full check with the result cache, which the warm-up run filled: what
a run over unchanged files costs. ``--fresh`` measures the CI path instead
(see :func:`fresh`): every mechlint run is in a new clone of the corpus with
an empty user cache and writes SARIF. ``--scale`` also runs
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


def _env(cache_home: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["NO_COLOR"] = "1"
    env.pop("CI", None)
    if cache_home is not None:
        env["XDG_CACHE_HOME"] = str(cache_home)
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


def timed(command: list[str], folder: Path, cache_home: Path | None = None) -> tuple[float, int]:
    """Wall seconds and peak memory (KiB) of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=folder, env=_env(cache_home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
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


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _clone(source: Path, into: Path) -> tuple[Path, Path]:
    """A new clone of ``source`` and an empty user cache folder: nothing mechlint keeps is there yet."""
    clone = into / f"clone-{len(list(into.iterdir()))}"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(source), str(clone)], check=True)
    cache_home = clone.with_name(clone.name + "-cache")
    cache_home.mkdir()
    assert not (clone / ".git" / "mechlint").exists() and not (clone / ".mechlint_cache").exists()
    return clone, cache_home


def fresh(source: Path, files: int, runs: int, before: str | None = None) -> list[str]:
    """The CI path: a fresh clone, SARIF, every rule; then the same clone again; then one file.

    Each round clones the corpus into a new folder (not timed) with a new,
    empty ``XDG_CACHE_HOME``, so neither the blob and git-answer cache
    (``.git/mechlint`` or the user cache folder) nor the result cache exists;
    mechlint writes SARIF to a file. check-jsonschema validates the same files
    in the same round, alternating. "second run" is mechlint again in that
    clone; "one file" is the first mechanism file in a fresh clone of its own
    and again in the warm one. The load average is printed with each round.
    ``before`` (another ``mechlint``, such as an older version in a venv of
    its own) runs the fresh case too, in a clone of its own, in the same
    rounds, first in every second round (a run just after a clone and the
    deletion of the last round's clones is slower): a before-and-after
    comparison from one alternating run.
    """
    mechlint, checker = _tool("mechlint"), _tool("check-jsonschema")
    if not mechlint or not checker:
        raise SystemExit("--fresh needs mechlint and check-jsonschema next to this Python")
    work = Path(tempfile.mkdtemp(prefix="mechlint-fresh-"))
    every = _expand(source, ["content"])
    one = every[0]
    sarif = ["--format", "sarif", "--output", "report.sarif", "--fail-on", "never"]
    names = ("fresh clone, SARIF, every rule", "same clone, second run", "one file, fresh clone", "one file, warm")
    times: dict[str, list[float]] = {name: [] for name in (*names, "check-jsonschema", "check-jsonschema, one file")}
    earlier = "fresh clone, SARIF, every rule, before"
    times[earlier] = []
    memory: list[int] = []
    timed([checker, "--schemafile", str(SCHEMA), one], source)  # warm-up: bytecode

    def earlier_fresh() -> float:
        assert before is not None
        old_clone, old_cache = _clone(source, work)
        seconds = timed([before, "check", *sarif, "content"], old_clone, old_cache)[0]
        shutil.rmtree(old_clone), shutil.rmtree(old_cache)
        return seconds

    for round_ in range(runs + 1):
        old = earlier_fresh() if before and round_ % 2 else 0.0  # which of the two goes first alternates
        clone, cache_home = _clone(source, work)
        cold, peak = timed([mechlint, "check", *sarif, "content"], clone, cache_home)
        second = timed([mechlint, "check", *sarif, "content"], clone, cache_home)[0]
        schema = timed([checker, "--schemafile", str(SCHEMA), *every], clone)[0]
        one_clone, one_cache = _clone(source, work)
        one_cold = timed([mechlint, "check", *sarif, one], one_clone, one_cache)[0]
        one_warm = timed([mechlint, "check", *sarif, one], clone, cache_home)[0]
        one_schema = timed([checker, "--schemafile", str(SCHEMA), one], clone)[0]
        if before and not round_ % 2:
            old = earlier_fresh()
        print(
            f"round {round_}{' (warm-up, not counted)' if not round_ else ''}: {_load()}; fresh {cold:.2f} s, "
            f"second {second:.2f} s, check-jsonschema {schema:.2f} s; one file {one_cold:.3f} / {one_warm:.3f} s, "
            f"check-jsonschema {one_schema:.3f} s" + (f"; before: fresh {old:.2f} s" if before else ""),
            flush=True,
        )
        shutil.rmtree(clone), shutil.rmtree(cache_home), shutil.rmtree(one_clone), shutil.rmtree(one_cache)
        if not round_:
            continue
        for name, value in zip(
            (*names, "check-jsonschema", "check-jsonschema, one file"),
            (cold, second, one_cold, one_warm, schema, one_schema),
            strict=True,
        ):
            times[name].append(value)
        times[earlier].append(old)
        memory.append(peak)
    base, one_base = (
        statistics.median(times["check-jsonschema"]),
        statistics.median(times["check-jsonschema, one file"]),
    )
    lines = [
        f"\n{files:,} files, medians of {runs} alternating rounds, {_load()} at the end; "
        f"peak memory of the fresh run {statistics.median(memory) / 1024:.0f} MiB\n",
        "| run | mechlint | check-jsonschema (schema only) | mechlint / check-jsonschema |",
        "|---|---|---|---|",
    ]
    for name in (*names, earlier) if before else names:
        reference = one_base if name.startswith("one file") else base
        wall = statistics.median(times[name])
        lines.append(f"| {name} | {wall:.3f} s | {reference:.3f} s | **{wall / reference:.2f}** |")
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
    parser.add_argument("--fresh", action="store_true", help="the CI path: fresh clone, empty caches, SARIF")
    parser.add_argument("--before", help="with --fresh: another mechlint executable, timed in the same rounds")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="mechlint-bench-"))
    if not (folder / "content").exists():
        build(folder, args.files, args.mode, history=args.history, frozen=args.frozen)
    kind = args.mode + (", half the sources only in history" if args.history else "")
    kind += ", each with a frozen copy" if args.frozen else ""
    print(f"corpus: {args.files} {kind} files in {folder}; {os.cpu_count()} cores; medians of {args.runs}\n")
    if not args.runs:
        pass  # --runs 0: only the --scale table
    elif args.fresh:
        print("\n".join(fresh(folder, args.files, args.runs, args.before)))
    else:
        print(f"All {args.files} files:\n")
        print("\n".join(compare(folder, ["content"], args.files, args.runs, args.ajv)))
        one = sorted(str(p.relative_to(folder)) for p in (folder / "content").glob("*/mechanisms/*.json"))[0]
        print("\nOne file (the pre-commit case):\n")
        print("\n".join(compare(folder, [one], 1, args.runs, args.ajv)))
    if args.scale:
        mechlint = _tool("mechlint")
        sarif = ["--format", "sarif", "--output", "report.sarif"] if args.fresh else []
        print(f"\nmechlint alone, by corpus size ({args.mode}{', SARIF' if sarif else ''}):\n")
        print("| files | wall | files/s | peak memory | load |\n|---|---|---|---|---|")
        for size in (200, 2000, 20000):
            scale_folder = Path(tempfile.mkdtemp(prefix=f"mechlint-scale-{size}-"))
            build(scale_folder, size, args.mode)
            command = [str(mechlint), "check", "--fail-on", "never", *sarif, "content"]
            timed(command, scale_folder)
            wall, memory = timed(command, scale_folder)
            print(f"| {size:,} | {wall:.2f} s | {size / wall:,.0f} | {memory / 1024:.0f} MiB | {_load()} |", flush=True)
            shutil.rmtree(scale_folder)


if __name__ == "__main__":
    main()
