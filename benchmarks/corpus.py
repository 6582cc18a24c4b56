"""Generate a benchmark corpus: a git repository of seed-sized mechanism files.

    python benchmarks/corpus.py FOLDER --files 2000 [--mode varied|copies]

Each file lives in its own post (``content/post-NNNNN/mechanisms/``) and pins
its post's ``post.md`` (present, matching: provenance runs but needs no
history). In ``varied`` mode (the default) every file has its own prose,
target names and number of steps, as in a real blog; in ``copies`` mode every
file has the same content. Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
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


def _sentence(rng: random.Random, low: int, high: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + "."


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


def build(folder: Path, files: int, mode: str, seed: int = 11) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / ".git").exists():
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--mode", choices=("varied", "copies"), default="varied")
    args = parser.parse_args()
    build(args.folder, args.files, args.mode)
    print(f"{args.files} {args.mode} mechanism files in {args.folder}")


if __name__ == "__main__":
    main()
