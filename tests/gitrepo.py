"""Git repositories for tests, built by the tests themselves in temporary folders."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
_tick = [1_750_000_000]


def git(folder: Path, *args: str) -> str:
    _tick[0] += 60
    env = {**_ENV, "GIT_AUTHOR_DATE": f"@{_tick[0]} +0000", "GIT_COMMITTER_DATE": f"@{_tick[0]} +0000"}
    done = subprocess.run(["git", *args], cwd=folder, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout.strip()


def init(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "-q", "-b", "main")
    return folder


def write(folder: Path, relative: str, data: bytes | str) -> Path:
    target = folder / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data.encode() if isinstance(data, str) else data)
    return target


def commit(folder: Path, message: str, files: dict[str, bytes | str | None] | None = None) -> str:
    for relative, data in (files or {}).items():
        if data is None:
            git(folder, "rm", "-q", "--", relative)
        else:
            write(folder, relative, data)
            git(folder, "add", "--", relative)
    git(folder, "commit", "-q", "--allow-empty", "-m", message)
    return git(folder, "rev-parse", "HEAD")


def shallow_clone(source: Path, target: Path) -> Path:
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", source.as_uri(), str(target)],
        env=_ENV,
        check=True,
        capture_output=True,
    )
    return target


def example_repository(folder: Path) -> Path:
    """The repository the provenance rules' documented examples run in."""
    init(folder)
    commit(folder, "first", {"content/post.md": "v1\n", "content/old.svg": "<svg>old</svg>\n"})
    commit(folder, "second", {"content/post.md": "v2\n", "content/old.svg": None})
    return folder
