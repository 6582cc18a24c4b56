"""Generate a benchmark corpus: a git repository of seed-sized mechanism files.

    python benchmarks/corpus.py FOLDER --files 2000 [--mode varied|prose|copies] [--history] [--frozen]

Each file lives in its own post (``content/post-NNNNN/mechanisms/``) and pins
its post's ``post.md`` (present, matching: provenance runs but needs no
history). In ``varied`` mode (the default) every file has its own prose,
target names and number of steps, made of a small list of content words; in
``prose`` mode the prose is English-like sentences (function words, forms of
"be", some passive voice, acronyms, apostrophes, numbers with units, a larger
vocabulary), closer to a real blog and to what the prose rules must read; in
``copies`` mode every file has the same content. Deterministic for a given
seed.

With ``--history`` the corpus is committed and every second ``post.md`` is
then deleted, so half the sources are found only in git history. With
``--frozen`` every mechanism also pins a frozen copy of its article under
``research/migration/before/``, as the seed does, whose claim is checked
against the article's history.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json"
WORDS = (
    "block",
    "token",
    "prefix",
    "cache",
    "entry",
    "request",
    "model",
    "tail",
    "memory",
    "key",
    "store",
    "reuse",
    "batch",
    "layer",
    "step",
    "page",
    "slot",
    "queue",
    "decode",
    "prefill",
    "schedule",
    "engine",
    "kernel",
    "tensor",
    "buffer",
    "sequence",
    "prompt",
    "output",
    "input",
    "stage",
)


MODES = ("varied", "prose", "copies")


def _sentence(rng: random.Random, low: int, high: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + "."


SUBJECTS = (
    "Request A",
    "Request B",
    "The scheduler",
    "The engine",
    "The model",
    "Each block",
    "The cache",
    "The kernel",
    "It",
    "The new tail",
    "The worker",
    "The allocator",
    "The prompt",
    "Every layer",
    "The GPU",
    "This step",
)
VERBS = (
    "stores",
    "reads",
    "writes",
    "compares",
    "reuses",
    "prefills",
    "decodes",
    "schedules",
    "checks",
    "keeps",
    "finds",
    "sends",
    "waits for",
    "matches",
    "frees",
    "copies",
    "hashes",
    "splits",
    "loads",
    "marks",
    "skips",
    "evicts",
    "pins",
    "fills",
    "counts",
)
OBJECTS = (
    "the prefix",
    "two blocks",
    "the KV cache",
    "its cache key",
    "the new tail",
    "the prompt",
    "four tokens",
    "the page table",
    "the batch",
    "the first block",
    "eight positions",
    "the free list",
    "the next request",
    "a full block",
    "the hash of each block",
    "the attention output",
    "B's blocks",
    "the block table",
    "the last partial block",
    "one sequence",
    "the shared prefix",
    "the output tokens",
)
ADJUNCTS = (
    "",
    "",
    "",
    " in one step",
    " before the decode",
    " after the store",
    " for request B",
    " at once",
    " with the same prefix",
    " in 3000 ms",
    " on the GPU",
    " from memory",
    " again",
    " in the same batch",
    " without a copy",
    " while A waits",
    " for the first time",
    " in order",
)
PASSIVES = (
    "The block is stored in the cache",
    "The key is compared with the entry",
    "Each token is written once",
    "The tail was not cached",
    "Both blocks are kept in memory",
    "The request is scheduled again",
)
ACRONYMS = ("time to first token (TTFT)", "TTFT", "KV", "GPU", "the LRU list", "a CUDA kernel", "P=4")


def _clause(rng: random.Random) -> str:
    if rng.random() < 0.05:
        return rng.choice(PASSIVES)
    object_ = rng.choice(ACRONYMS) if rng.random() < 0.08 else rng.choice(OBJECTS)
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {object_}{rng.choice(ADJUNCTS)}"


def _english(rng: random.Random, low: int, high: int) -> str:
    """One English-like sentence of ``low`` to ``high`` clauses."""
    clauses = [_clause(rng) for _ in range(rng.randint(low, high))]
    text = clauses[0]
    for clause in clauses[1:]:
        clause = clause if clause.startswith(("Request", "B", "TTFT", "GPU")) else clause[0].lower() + clause[1:]
        text += rng.choice((", so ", ", and ", " because ", ", then ", " while ")) + clause
    return text + "."


def _vary_prose(data: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
    """Like :func:`_vary`, with English-like prose."""
    data = _vary(data, rng)
    data["title"] = _english(rng, 1, 1)[:-1]
    data["description"] = " ".join(_english(rng, 1, 2) for _ in range(2))
    data["caption"] = " ".join(_english(rng, 1, 2) for _ in range(rng.randint(2, 4)))
    data["alt"] = _english(rng, 1, 2)
    data["limitations"] = [_english(rng, 1, 2) for _ in range(rng.randint(1, 3))]
    for step in data["scenarios"][0]["steps"]:
        compares = "compares the cache key" in step["description"]
        step["description"] = _english(rng, 1, 2)
        if compares:
            step["description"] += " B compares the cache key."
        if rng.random() < 0.5:
            step["state"]["artifact"] = _english(rng, 1, 1)
    return data


def _vary(data: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
    data["title"] = _sentence(rng, 4, 9)[:-1]
    data["description"] = " ".join(_sentence(rng, 5, 12) for _ in range(2))
    data["caption"] = " ".join(_sentence(rng, 5, 12) for _ in range(rng.randint(2, 5)))
    data["alt"] = _sentence(rng, 8, 20)
    data["limitations"] = [_sentence(rng, 5, 12) for _ in range(rng.randint(1, 3))]
    scenario = data["scenarios"][0]
    steps = scenario["steps"]
    extra = rng.randint(0, 4)
    for _ in range(extra):
        step = json.loads(json.dumps(rng.choice(steps[:1] + steps[-1:])))
        steps.append(step)
    previous = dict(scenario["initial"])
    for step in steps:
        compares = "Compare" in step["title"]
        step["title"] = _sentence(rng, 3, 6)[:-1]
        step["description"] = _sentence(rng, 5, 14)
        if compares:  # keep the story true: this step compares the cache key
            step["description"] += " B compares the cache key."
        step["duration"] = 9000
        step["state"] = {
            "stage": step["title"],
            "artifact": _sentence(rng, 3, 8) if rng.random() < 0.7 else previous["artifact"],
        }
        previous = step["state"]
    for target in data["targets"].values():
        if target["kind"] == "node":
            target["label"] = " ".join(rng.choice(WORDS) for _ in range(2))
    return data


def build(folder: Path, files: int, mode: str, seed: int = 11, history: bool = False, frozen: bool = False) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / ".git").exists():
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
        # no automatic gc: packing in the background while a benchmark clones the corpus broke the clone
        subprocess.run(["git", "config", "gc.auto", "0"], cwd=folder, check=True)
    template = json.loads(TEMPLATE.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    for index in range(files):
        post = folder / "content" / f"post-{index:05d}"
        (post / "mechanisms").mkdir(parents=True, exist_ok=True)
        article = f"# Post {index}\n\n" + " ".join(_sentence(rng, 6, 14) for _ in range(20)) + "\n"
        (post / "post.md").write_text(article, encoding="utf-8")
        data = json.loads(json.dumps(template))
        if mode == "varied":
            data = _vary(data, rng)
        elif mode == "prose":
            data = _vary_prose(data, rng)
        data["sources"] = [
            {
                "path": f"content/post-{index:05d}/post.md",
                "sha256": hashlib.sha256(article.encode()).hexdigest(),
                "description": "The article this mechanism explains.",
            }
        ]
        (post / "mechanisms" / "prefix-cache.json").write_text(
            json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    if frozen:
        _add_frozen_copies(folder, files)
    if history:
        _move_to_history(folder, files)


def _move_to_history(folder: Path, files: int) -> None:
    """Commit everything, then delete every second post's article: its pinned bytes are then only in history."""
    _commit(folder, "posts")
    for index in range(0, files, 2):
        (folder / "content" / f"post-{index:05d}" / "post.md").unlink()
    _commit(folder, "move every second article away")


def _add_frozen_copies(folder: Path, files: int) -> None:
    """Commit the articles, then give every mechanism a frozen copy of its article, as the seed has.

    The copy lives under ``research/migration/before/`` and pins the same
    bytes, so its claim is checked against the article's history.
    """
    _commit(folder, "posts")
    for index in range(files):
        article = folder / "content" / f"post-{index:05d}" / "post.md"
        copy = folder / "research" / "migration" / "before" / article.relative_to(folder)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(article.read_bytes())
        mechanism = article.parent / "mechanisms" / "prefix-cache.json"
        data = json.loads(mechanism.read_text(encoding="utf-8"))
        data["sources"].append(
            {
                "path": copy.relative_to(folder).as_posix(),
                "sha256": hashlib.sha256(article.read_bytes()).hexdigest(),
                "description": "Exact pre-migration bytes retained.",
            }
        )
        mechanism.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    _commit(folder, "frozen copies")


def _commit(folder: Path, message: str) -> None:
    env = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com"}
    env |= {"GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com", "PATH": os.environ["PATH"]}
    subprocess.run(["git", "add", "-A"], cwd=folder, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", message], cwd=folder, check=True, env=env)
    # one pack, as a clone from a server has (and never git's automatic gc, run in the background)
    subprocess.run(["git", "repack", "-a", "-d", "-q"], cwd=folder, check=True, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--mode", choices=MODES, default="varied")
    parser.add_argument("--history", action="store_true", help="commit, then delete every second source")
    parser.add_argument("--frozen", action="store_true", help="give every mechanism a frozen copy, as the seed has")
    args = parser.parse_args()
    build(args.folder, args.files, args.mode, history=args.history, frozen=args.frozen)
    print(f"{args.files} {args.mode} mechanism files in {args.folder}")


if __name__ == "__main__":
    main()
