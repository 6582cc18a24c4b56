"""The language server shows what changed since the pin, over a stale source (issue 27, point 1), over stdio.

A real ``mechlint server`` subprocess, a real git history: hovering over a
source that ``provenance/stale-source`` reports gives the diff ``mechlint
diff`` gives; hovering over a source that holds its pinned bytes does not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .gitrepo import commit, init, write
from .lspclient import Client
from .test_lsp import open_file, position_of
from .test_provenance import mechanism, sha
from .test_review_diff import ARTICLE, EDITED

MECHANISM = "content/mechanisms/m.json"
NOTES = "Notes that do not change.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = init(tmp_path / "blog")
    first = {"content/post.md": ARTICLE, "content/notes.md": NOTES}
    commit(folder, "the article", first)
    mechanism(folder, [{"path": path, "sha256": sha(data)} for path, data in first.items()])
    commit(folder, "edit", {"content/post.md": EDITED + "\x1b[2J\n"})
    return folder


@pytest.fixture
def client(repo: Path) -> Iterator[Client]:
    started = Client.mechlint(repo)
    started.initialize(repo)
    yield started
    assert started.close() == 0, b"".join(started.stderr).decode()


def hover_at(client: Client, uri: str, text: str, offset: int) -> Any:
    where = {"textDocument": {"uri": uri}, "position": position_of(text, offset)}
    return client.request("textDocument/hover", where)


def test_hovering_a_stale_source_shows_the_diff_since_the_pin(client: Client, repo: Path) -> None:
    text = (repo / MECHANISM).read_text(encoding="utf-8")
    uri = open_file(client, repo / MECHANISM, text)
    stale = [d for d in client.diagnostics(uri) if d["code"] == "provenance/stale-source"]
    assert len(stale) == 1
    shown = hover_at(client, uri, text, text.index(sha(ARTICLE)) + 3)
    value = shown["contents"]["value"]
    assert shown["contents"]["kind"] == "markdown"
    assert value.startswith("**What changed since the pin**\n\n")
    assert "\n```diff\nsource content/post.md (modified)" not in value  # the summary is above the block
    block = value[value.index("```diff\n") + 8 : value.rindex("```")]
    assert block.splitlines()[:2] == ["--- a/content/post.md@" + block.splitlines()[0][-12:], "+++ b/content/post.md"]
    assert "-A client opens. The server answers. Both agree on keys.\n" in block
    assert "+A client opens. The server answers twice. Both agree on keys.\n" in block
    assert "+\\x1b[2J\n" in block and "\x1b" not in json.dumps(shown, ensure_ascii=False)
    start = text.rindex("{", 0, text.index('"content/post.md"'))
    assert shown["range"]["start"] == position_of(text, start)  # the whole source object


def test_a_source_that_holds_its_pinned_bytes_gets_no_diff(client: Client, repo: Path) -> None:
    text = (repo / MECHANISM).read_text(encoding="utf-8")
    uri = open_file(client, repo / MECHANISM, text)
    client.diagnostics(uri)
    shown = hover_at(client, uri, text, text.index(sha(NOTES)) + 3)
    assert shown is None or "What changed since the pin" not in shown["contents"]["value"]
    write(repo, "content/notes.md", NOTES + "More.\n")  # changed on disk: now it differs, and says how
    client.notify("textDocument/didSave", {"textDocument": {"uri": (repo / "content/notes.md").as_uri()}})
    client.diagnostics(uri)
    shown = hover_at(client, uri, text, text.index(sha(NOTES)) + 3)
    assert "+More.\n" in shown["contents"]["value"]
