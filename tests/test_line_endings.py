"""mechlint's line-ending conversion is git's (issue 30, point 3): held equal to what ``git add`` stores.

For every combination of line-ending attributes, ``core.autocrlf`` and what
the index held before (nothing, LF, CRLF), the bytes
:meth:`~mechlint.provenance.stored.Checkout.stored` gives for a working-tree
file are the bytes ``git add`` puts in the index (``hash-object`` is no
witness: it reads no index, so it misses git's "safer autocrlf").
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mechlint.provenance.git import open_history
from mechlint.provenance.stored import Checkout

from .gitrepo import _ENV, commit, git, init, write

ATTRIBUTES = [
    "",
    "* text",
    "* -text",
    "* text=auto",
    "* eol=lf",
    "* eol=crlf",
    "* text=auto eol=lf",
    "* text eol=crlf",
    "* crlf",
    "* -crlf",
    "* crlf=input",
    "* -text eol=crlf",
]
AUTOCRLF = ["false", "true", "input"]
#: What is written to the working tree: text with CRLF, text with a lone CR too, a NUL, many controls.
CONTENTS = {
    "text": b"one\r\ntwo\r\nthree\n",
    "lone-cr": b"one\r\ntwo\rthree\r\n",
    "nul": b"one\r\n\x00two\r\n",
    "controls": b"a\r\n" + bytes(range(1, 8)) * 3 + b"\r\n",
    "crcrlf": b"one\r\r\ntwo\r\n",
}
#: What the index holds for the path before: nothing, LF text, CRLF text.
BEFORE: dict[str, bytes | None] = {"new": None, "lf": b"old\n", "crlf": b"old\r\n"}


@pytest.mark.parametrize("autocrlf", AUTOCRLF)
@pytest.mark.parametrize("attributes", ATTRIBUTES)
def test_stored_bytes_are_what_git_add_stores(tmp_path: Path, attributes: str, autocrlf: str) -> None:
    repo = init(tmp_path / "repo")
    git(repo, "config", "core.autocrlf", "false")  # the earlier versions go in exactly as written
    git(repo, "config", "core.safecrlf", "false")
    paths = {
        f"{content}-{before}.md": (data, old) for content, data in CONTENTS.items() for before, old in BEFORE.items()
    }
    commit(repo, "before", {path: old for path, (_, old) in paths.items() if old is not None})
    write(repo, ".gitattributes", attributes + "\n")
    git(repo, "config", "core.autocrlf", autocrlf)
    for path, (data, _) in paths.items():
        write(repo, path, data)
    history = open_history(repo)
    checkout = Checkout(history.git, history.cat, str(history.git_dir))
    try:
        ours = {path: checkout.stored(path, data) for path, (data, _) in paths.items()}
    finally:
        checkout.close()
        history.close()
    git(repo, "add", "--", *paths)
    theirs = {path: git_bytes(repo, path) for path in paths}
    assert ours == theirs
    converted = {path for path, (data, _) in paths.items() if theirs[path] != data}
    if attributes in ("* text", "* eol=lf") or (attributes == "" and autocrlf != "false"):
        assert converted  # the cases where git converts something: the comparison is not vacuous


def git_bytes(repo: Path, path: str) -> bytes:
    """The bytes the index holds for ``path``, exactly (``git`` of gitrepo strips its output)."""
    done = subprocess.run(["git", "cat-file", "blob", f":{path}"], cwd=repo, env=_ENV, capture_output=True, check=True)
    return done.stdout
