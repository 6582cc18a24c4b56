"""The language server never keeps a source's old verdict (issue 30, point 4): over its real stdio protocol.

A source rewritten in place with the same size, inode and modification time
(``cp -p``, ``rsync --inplace -t``) still changes its status-change time, and
the server compares that too, to the nanosecond.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .gitrepo import commit, init
from .lspclient import Client
from .test_lsp import change, open_file

SOURCE = "sources/post.md"
POST = "content/mechanisms/m.json"
ARTICLE = "".join(f"Line {n} of the article.\n" for n in range(20))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository with one source and a mechanism pinning its bytes."""
    repo = init(tmp_path / "blog")
    pinned = {"sources": [{"path": SOURCE, "sha256": hashlib.sha256(ARTICLE.encode()).hexdigest()}]}
    commit(repo, "post", {SOURCE: ARTICLE, POST: json.dumps(pinned, indent=2) + "\n"})
    return repo


@pytest.fixture
def client(project: Path) -> Iterator[Client]:
    started = Client.mechlint(project, "--root", str(project))
    started.initialize(project)
    yield started
    assert started.close() == 0, b"".join(started.stderr).decode()


def rewrite_keeping_size_inode_and_mtime(path: Path) -> None:
    """What ``cp -p`` over an existing file or ``rsync --inplace -t`` does: new bytes, the old times."""
    before = os.stat(path)
    data = bytearray(path.read_bytes())
    data[0] = ord("X") if data[0] != ord("X") else ord("Y")
    with open(path, "r+b") as stream:
        stream.write(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_ino, after.st_mtime_ns) == (before.st_size, before.st_ino, before.st_mtime_ns)


def provenance_codes(diagnostics: list[dict[str, object]]) -> set[str]:
    return {str(d["code"]) for d in diagnostics if str(d["code"]).startswith("provenance/")}


def test_a_source_rewritten_with_the_same_size_inode_and_mtime_is_hashed_again(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    assert provenance_codes(client.diagnostics(uri)) == set()
    rewrite_keeping_size_inode_and_mtime(project / SOURCE)
    change(client, uri, 2, text + " ")
    assert provenance_codes(client.diagnostics(uri, version=2)) == {"provenance/stale-source"}


def test_saving_a_source_rewritten_in_place_hashes_it_again(client: Client, project: Path) -> None:
    """``didSave`` of a source (a regression guard: saving re-hashes every source, whatever the times say)."""
    uri = open_file(client, project / POST)
    assert provenance_codes(client.diagnostics(uri)) == set()
    rewrite_keeping_size_inode_and_mtime(project / SOURCE)
    client.notify("textDocument/didSave", {"textDocument": {"uri": (project / SOURCE).as_uri()}})
    assert provenance_codes(client.diagnostics(uri)) == {"provenance/stale-source"}
