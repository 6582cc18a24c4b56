"""Show that two revisions of mechlint write the same reports, byte for byte.

    python benchmarks/compare_reports.py BASE [HEAD] [--files 300] [--keep]

A refactoring must not change what a user sees. This script exports both
revisions of this repository (``git archive``, so the working tree is not
touched; HEAD defaults to the working tree itself), makes the corpora below
once, runs ``mechlint check`` of each revision over each corpus with the
JSON report on standard output and the SARIF report in a file, and compares
the two revisions' outputs and exit codes. It prints one line per corpus and
exits 1 if any differ, showing the first lines that do.

The corpora: the repository's own ``fixtures/`` (every rule's passing and
failing files, the example content), and generated repositories of
``benchmarks/corpus.py`` in the ``varied`` and ``prose`` modes, and ``prose``
with ``--history --frozen`` (sources found only in git history, frozen
copies), so that provenance answers from history are compared too; and the
repositories of ``benchmarks/provenance_cases.py``, where every provenance
answer occurs, with full history, as a shallow clone, without git, and broken
(on these, what ``Provenance.locate`` tells ``pin``, ``attest`` and
``verify`` about every source is compared too).
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def export(rev: str, folder: Path) -> Path:
    """The tree of ``rev`` in ``folder`` (``WORKTREE``: the working tree as it is)."""
    if rev == "WORKTREE":
        shutil.copytree(REPO, folder, ignore=shutil.ignore_patterns(".git", ".venv*", "__pycache__", ".*cache*"))
        return folder
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev], check=True, capture_output=True)
    folder.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def corpora(work: Path, files: int) -> list[tuple[str, Path, list[str]]]:
    """``(name, folder, arguments)`` of each corpus, made once."""
    made = []
    fixtures = work / "fixtures-repo"
    shutil.copytree(REPO / "fixtures", fixtures / "fixtures")
    _git_init(fixtures)
    made.append(("fixtures", fixtures, ["--root", "fixtures", "fixtures"]))
    for name, extra in (("varied", ["--mode", "varied"]), ("prose", ["--mode", "prose"])):
        folder = work / name
        subprocess.run(
            [sys.executable, str(HERE / "corpus.py"), str(folder), "--files", str(files), *extra],
            check=True,
            capture_output=True,
        )
        made.append((name, folder, ["."]))
    history = work / "history"
    flags = ["--mode", "prose", "--history", "--frozen"]
    subprocess.run(
        [sys.executable, str(HERE / "corpus.py"), str(history), "--files", str(files), *flags],
        check=True,
        capture_output=True,
    )
    made.append(("history+frozen", history, ["."]))
    from provenance_cases import variants  # every provenance answer: full, shallow, no git, broken

    made += [(name, folder, ["mechanisms"]) for name, folder in variants(work / "provenance")]
    return made


def _git_init(folder: Path) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=bench", "-c", "user.email=bench@example.org", "commit", "-qm", "fixtures"],
    ):
        subprocess.run(["git", *args], cwd=folder, check=True, env=env, capture_output=True)


def run(tree: Path, corpus: Path, arguments: list[str], sarif: Path) -> tuple[int, bytes, bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MECHLINT", "PYTHON"))}
    env.update(PYTHONPATH=str(tree), CI="true", NO_COLOR="1", XDG_CACHE_HOME=str(sarif.parent / "cache"))
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--format", "json", "-o", f"sarif:{sarif}", "-j", "1", *arguments],
        cwd=corpus,
        env=env,
        capture_output=True,
    )
    return done.returncode, done.stdout, sarif.read_bytes() if sarif.exists() else b""


#: What ``pin``, ``attest`` and ``verify`` are told about each source of a corpus's mechanisms (with and without
#: its sha256), one line each: compared like the reports.
LOCATE = """
import json, sys
from pathlib import Path
from mechlint.provenance.resolve import Provenance
provenance = Provenance(Path.cwd())
for mechanism in sorted(Path("mechanisms").glob("*.json")):
    location = mechanism.resolve()
    for source in json.loads(mechanism.read_text(encoding="utf-8")).get("sources", []):
        for digest in dict.fromkeys((source.get("sha256"), None)):
            found = provenance.locate(location, source["path"], digest)
            fields = (found.kind, found.sha256, found.git_blob, found.commit, found.detail, found.at)
            print(source["path"], digest, *fields)
provenance.close()
"""


def locate(tree: Path, corpus: Path) -> tuple[int, bytes, bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MECHLINT", "PYTHON"))}
    env.update(PYTHONPATH=str(tree), XDG_CACHE_HOME=str(corpus.parent / "cache-locate"))
    done = subprocess.run([sys.executable, "-c", LOCATE], cwd=corpus, env=env, capture_output=True)
    return done.returncode, done.stdout, done.stderr


def _first_difference(a: bytes, b: bytes) -> str:
    lines = difflib.unified_diff(
        a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines(), lineterm="", n=1
    )
    return "\n".join(list(lines)[:20])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", default="WORKTREE")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and say where it is")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mechlint-compare-"))
    try:
        trees = {side: export(rev, work / side) for side, rev in (("base", args.base), ("head", args.head))}
        same = True
        for name, folder, arguments in corpora(work / "corpora", args.files):
            outputs = {}
            for side, tree in trees.items():
                outputs[side] = run(tree, folder, arguments, work / f"{name}-{side}.sarif")
            (base_code, base_json, base_sarif), (head_code, head_json, head_sarif) = outputs["base"], outputs["head"]
            differs = []
            if base_code != head_code:
                differs.append(f"exit code {base_code} → {head_code}")
            if base_json != head_json:
                differs.append("JSON:\n" + _first_difference(base_json, head_json))
            if base_sarif != head_sarif:
                differs.append("SARIF:\n" + _first_difference(base_sarif, head_sarif))
            sizes = f"JSON {len(base_json):,} B, SARIF {len(base_sarif):,} B, exit {base_code}"
            print(f"{name}: {'identical' if not differs else 'DIFFERENT'} ({sizes})")
            for difference in differs:
                print("  " + difference.replace("\n", "\n  "))
            same = same and not differs
            if name.startswith("cases"):  # where every answer occurs: what pin, attest and verify are told
                base, head = (locate(tree, folder) for tree in trees.values())
                lines = base[1].count(b"\n")
                print(f"{name} (locate): {'identical' if base == head else 'DIFFERENT'} ({lines} answers)")
                if base != head:
                    print("  " + _first_difference(base[1] + base[2], head[1] + head[2]).replace("\n", "\n  "))
                same = same and base == head
        return 0 if same else 1
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
