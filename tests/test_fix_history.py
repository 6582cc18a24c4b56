"""The fixes that need git history (issue 28): a source renamed with the same bytes cites its new path (safe);
a stale or unpinned source is pinned to the bytes it has now, as ``mechlint pin`` pins it (unsafe)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint.cli import main

from .gitrepo import commit, git, init
from .test_provenance import mechanism, sha

ARTICLE = "".join(f"Line {n} of the article about the handshake.\n" for n in range(30))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = init(tmp_path / "blog")
    monkeypatch.chdir(folder)
    return folder


def _check(*args: str) -> int:
    return main(["check", "--select", "provenance", "--no-cache", *args, "content"])


def test_a_source_renamed_with_its_bytes_gets_its_new_path(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    commit(repo, "rename the article")
    target = mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    before = target.read_bytes()
    assert _check("--diff") == 1
    assert '-      "path": "content/post.md",\n+      "path": "content/article.md",\n' in capsys.readouterr().out
    assert _check("--fix") == 0
    assert target.read_bytes() == before.replace(b'"content/post.md"', b'"content/article.md"', 1)
    assert "provenance/" not in capsys.readouterr().out


def test_a_renamed_and_edited_source_has_no_fix(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its new bytes need a review: the path alone is no fix."""
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    commit(repo, "rename")
    commit(repo, "edit", {"content/article.md": ARTICLE + "More.\n"})
    target = mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    before = target.read_bytes()
    assert _check("--diff", "--unsafe-fixes") == 0
    assert target.read_bytes() == before
    assert capsys.readouterr().err == "No fixes available.\n"


@pytest.mark.parametrize("pinned", [sha("v1\n"), None], ids=["stale", "unpinned"])
def test_a_stale_or_unpinned_source_is_pinned_as_mechlint_pin_pins_it(
    repo: Path, capsys: pytest.CaptureFixture[str], pinned: str | None
) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    commit(repo, "second", {"post.md": "v2\n"})
    target = mechanism(repo, [{"path": "post.md", **({"sha256": pinned} if pinned else {})}])
    before = target.read_bytes()
    assert _check("--fix", "--fail-on", "never") == 0  # the fix is unsafe: a pin says "reviewed"
    assert target.read_bytes() == before
    capsys.readouterr()
    assert _check("--fix", "--unsafe-fixes", "--show-fixes") == 0
    rule = "provenance/stale-source" if pinned else "provenance/unpinned-source"
    assert f"    1 × {rule}\n" in capsys.readouterr().err
    fixed = target.read_bytes()
    assert sha("v2\n").encode() in fixed
    target.write_bytes(before)
    assert main(["pin", str(target)]) == 0
    assert target.read_bytes() == fixed
