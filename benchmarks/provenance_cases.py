"""Repositories where every provenance answer occurs, for ``compare_reports.py``.

    python benchmarks/provenance_cases.py FOLDER

One repository whose mechanism cites sources that are fine, stale (changed by
a commit, by the working tree, after a rename), gone but held by history,
mistyped (the bytes elsewhere now, or only in a commit), pinned to bytes no
commit held (present or gone, with a line-ending explanation), unpinned,
unsafe (climbing out, ``.git``, a link out, a folder, a FIFO), inside a nested
repository, a Git LFS pointer, and frozen copies whose claim is true (in
history, or by the uncommitted original) or false. The same tree is then
given four ways: with its full history, as a depth-1 clone, without ``.git``
(no history), and with a blob of history deleted (a broken repository), so
that each way of history being unavailable is compared too.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json"
ENV = {
    **os.environ,
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}
POST_V1 = "".join(f"Line {n} of the post.\n" for n in range(20))
POST_V2 = POST_V1 + "A later paragraph.\n"
OLD = "<svg>old</svg>\n"
DRAFT = "A draft that was dropped.\n" * 5
RENAMED_V1 = "The article before its rename.\n" * 4
RENAMED_V2 = RENAMED_V1 + "Edited after the rename.\n"
TEXT = "one\ntwo\nthree\n"
NEW = "Not committed yet.\n"


def sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=folder, env=ENV, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def _commit(folder: Path, message: str, files: dict[str, str | None]) -> None:
    for name, text in files.items():
        path = folder / name
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="")
    _git(folder, "add", "-A")
    _git(folder, "-c", "user.name=cases", "-c", "user.email=cases@example.org", "commit", "-qm", message)


def _sources() -> list[dict[str, str]]:
    cases = [
        ("content/post.md", sha(POST_V2)),
        ("content/post.md", sha(POST_V1)),
        ("content/wt.md", sha(TEXT)),
        ("content/old.svg", sha(OLD)),
        ("content/psot.md", sha(POST_V2)),
        ("content/Post.md", sha(POST_V2)),
        ("notes/drfat.md", sha(DRAFT)),
        ("content/post.md", "0" * 64),
        ("content/old.svg", "1" * 64),
        ("content/nothing/here.md", "2" * 64),
        ("content/wt.md", sha(POST_V2)),
        ("content/old.svg", sha(DRAFT)),
        ("research/m/before/content/crlf.txt", sha(POST_V2)),
        ("content/renamed-to.md", sha(RENAMED_V1)),
        ("content/renamed-to.md", sha(RENAMED_V2)),
        ("content/crlf.txt", sha(TEXT.replace("\n", "\r\n"))),
        ("content/lfs.bin", sha(POST_V1)),
        ("content/post.md", None),
        ("content/absent.md", None),
        ("../outside.md", sha(OLD)),
        (".git/config", sha(OLD)),
        ("content/link-out", sha(OLD)),
        ("content", sha(OLD)),
        ("content/fifo", sha(OLD)),
        ("vendor/sub/file.txt", "3" * 64),
        ("vendor/sub/gone.txt", "4" * 64),
        ("content/post.md", "abc"),
        ("TODO: the source", sha(OLD)),
        ("research/m/before/content/old.svg", sha(OLD)),
        ("research/m/before/content/post.md", sha("edited copy\n")),
        ("research/m/before/content/gone.md", sha(POST_V1)),
        ("research/m/before/content/new.md", sha(NEW)),
        ("research/m/before/content/never.md", "5" * 64),
    ]
    return [
        {"path": path, **({"sha256": digest} if digest else {}), "description": "A case."} for path, digest in cases
    ]


def build(folder: Path) -> None:
    """The repository with its full history, and its working tree as the cases need it."""
    folder.mkdir(parents=True)
    _git(folder, "init", "-q")
    _commit(
        folder,
        "first",
        {
            "content/post.md": POST_V1,
            "content/old.svg": OLD,
            "notes/draft.md": DRAFT,
            "content/renamed-from.md": RENAMED_V1,
            "content/wt.md": TEXT,
            "content/crlf.txt": TEXT,
            "content/gone.md": POST_V1,
        },
    )
    _commit(folder, "second", {"content/post.md": POST_V2, "content/old.svg": None, "content/gone.md": None})
    _git(folder, "mv", "content/renamed-from.md", "content/renamed-to.md")
    _commit(folder, "rename", {})
    _commit(folder, "edit after the rename", {"content/renamed-to.md": RENAMED_V2, "notes/draft.md": None})
    lfs = f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha(POST_V1)}\nsize {len(POST_V1)}\n"
    _commit(folder, "an LFS pointer", {"content/lfs.bin": lfs})
    # the working tree: changes not committed, things that are not files, a nested repository
    (folder / "content/wt.md").write_text(TEXT + "four\n", encoding="utf-8")
    (folder / "content/new.md").write_text(NEW, encoding="utf-8")
    for name, text in (("research/m/before/content/old.svg", OLD), ("research/m/before/content/new.md", NEW)):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "research/m/before/content/post.md").write_text("edited copy\n", encoding="utf-8")
    (folder / "research/m/before/content/never.md").write_text("never\n", encoding="utf-8")
    os.symlink("/etc/hostname", folder / "content/link-out")
    os.mkfifo(folder / "content/fifo")
    sub = folder / "vendor/sub"
    sub.mkdir(parents=True)
    _git(sub, "init", "-q")
    (sub / "file.txt").write_text("in the nested repository\n", encoding="utf-8")
    data = json.loads(TEMPLATE.read_text(encoding="utf-8"))
    data["sources"] = _sources()
    (folder / "mechanisms").mkdir()
    (folder / "mechanisms/cases.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _working_tree(source: Path, target: Path) -> None:
    """Copy the working tree of ``source`` (not its ``.git``; links and FIFOs as they are) over ``target``."""
    for folder, dirnames, filenames in os.walk(source):
        here = Path(folder)
        if here == source:
            dirnames[:] = [d for d in dirnames if d != ".git"]
        relative = here.relative_to(source)
        (target / relative).mkdir(parents=True, exist_ok=True)
        for name in filenames:
            old, new = here / name, target / relative / name
            if new.is_symlink() or (new.exists() and not new.is_file()):
                continue
            if old.is_symlink():
                os.symlink(os.readlink(old), new)
            elif not old.is_file():
                os.mkfifo(new)
            else:
                shutil.copyfile(old, new)


def variants(work: Path) -> list[tuple[str, Path]]:
    """``(name, folder)`` of the repository with full history, as a depth-1 clone, without git, and broken."""
    full = work / "cases"
    build(full)
    shallow = work / "cases-shallow"
    clone = ["git", "clone", "-q", "--depth", "1", f"file://{full}", str(shallow)]
    subprocess.run(clone, env=ENV, check=True, capture_output=True)
    _working_tree(full, shallow)
    bare = work / "cases-no-git"
    _working_tree(full, bare)
    broken = work / "cases-broken"
    shutil.copytree(full / ".git", broken / ".git")
    _working_tree(full, broken)
    blob = _git(broken, "rev-parse", "HEAD~4:content/old.svg")  # only history holds it
    (broken / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    return [("cases", full), ("cases-shallow", shallow), ("cases-no-git", bare), ("cases-broken", broken)]


if __name__ == "__main__":
    for name, path in variants(Path(sys.argv[1])):
        print(name, path)
