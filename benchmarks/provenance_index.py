"""Benchmark: index every blob reachable from any ref, cold and warm.

Builds (once, with ``git fast-import``) a repository shaped like a real blog
repository: by default 6,651 commits, 12,705 blobs and about 265 MB of blob
data, then times mechlint's blob index with an empty cache (cold) and with a
filled one (warm). Medians of three runs.

    python benchmarks/provenance_index.py [--folder /tmp/mechlint-bench-repo]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mechlint.provenance.cache import BlobCache
from mechlint.provenance.git import open_history
from mechlint.provenance.index import BlobIndex


def build(folder: Path, commits: int, blobs: int, total_bytes: int, seed: int = 7) -> None:
    if (folder / ".git").is_dir():
        return
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True)
    rng = random.Random(seed)
    average = total_bytes // blobs
    process = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=folder, stdin=subprocess.PIPE)
    assert process.stdin is not None
    write = process.stdin.write
    per_commit = [blobs // commits + (1 if i < blobs % commits else 0) for i in range(commits)]
    paths = [
        f"content/post-{i % 400:03d}/file-{i % 23:02d}.{('md', 'svg', 'json', 'png')[i % 4]}" for i in range(blobs)
    ]
    mark = 0
    number = 0
    for index, count in enumerate(per_commit):
        files = []
        for _ in range(count):
            mark += 1
            size = max(16, int(rng.expovariate(1 / average)))
            data = rng.randbytes(size // 2).hex().encode()[:size]
            write(b"blob\nmark :%d\ndata %d\n" % (mark, len(data)) + data + b"\n")
            files.append((mark, paths[number]))
            number += 1
        message = f"commit {index}".encode()
        write(b"commit refs/heads/main\nmark :%d\n" % (10_000_000 + index))
        write(b"committer Bench <bench@example.com> %d +0000\n" % (1_600_000_000 + index * 600))
        write(b"data %d\n%s\n" % (len(message), message))
        for blob_mark, path in files:
            write(b"M 100644 :%d %s\n" % (blob_mark, path.encode()))
    process.stdin.close()
    if process.wait() != 0:
        raise SystemExit("git fast-import failed")
    subprocess.run(["git", "reset", "-q", "--hard"], cwd=folder, check=True)


def measure(folder: Path, cold: bool) -> float:
    cache_dir = folder / ".git" / "mechlint"
    if cold:
        shutil.rmtree(cache_dir, ignore_errors=True)
    start = time.perf_counter()
    history = open_history(folder)
    index = BlobIndex(history, BlobCache(history.common_dir))
    index.ensure()
    elapsed = time.perf_counter() - start
    index.cache.close()
    history.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/mechlint-bench-repo"))
    parser.add_argument("--commits", type=int, default=6651)
    parser.add_argument("--blobs", type=int, default=12705)
    parser.add_argument("--megabytes", type=int, default=265)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    build(args.folder, args.commits, args.blobs, args.megabytes * 1_000_000)
    print(f"repository: {args.folder} (built or reused in {time.perf_counter() - started:.1f} s)")
    count = subprocess.run(["git", "count-objects", "-v"], cwd=args.folder, capture_output=True, text=True).stdout
    print(" ".join(line for line in count.splitlines() if line.startswith(("count", "size-pack"))))
    cold = [measure(args.folder, cold=True) for _ in range(args.runs)]
    measure(args.folder, cold=True)
    warm = [measure(args.folder, cold=False) for _ in range(args.runs)]
    baseline = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run(
            ["git", "cat-file", "--batch-all-objects", "--batch"],
            cwd=args.folder,
            stdout=subprocess.DEVNULL,
            check=True,
        )
        baseline.append(time.perf_counter() - start)
    git_alone = statistics.median(baseline)
    print(f"git alone, streaming every object once (cat-file --batch-all-objects --batch): median {git_alone:.2f} s")
    print(f"cold index (empty cache): median {statistics.median(cold):.2f} s  runs {[round(x, 2) for x in cold]}")
    print(f"warm index (refs unchanged): median {statistics.median(warm):.3f} s  runs {[round(x, 3) for x in warm]}")
    print(f"ratio cold / git alone: {statistics.median(cold) / git_alone:.2f}")


if __name__ == "__main__":
    main()
