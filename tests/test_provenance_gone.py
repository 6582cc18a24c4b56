"""A source that is gone is news (issue 26, points 5 and 6).

A source that is not a frozen copy and is gone from the working tree is
``provenance/gone-source``, a warning that says where it went: the commit that
deleted it, or the path git's rename detection moved it to (the fix). Frozen
copies keep ``provenance/frozen-resolved``. History is what ``HEAD`` reaches:
bytes only on an unmerged branch are said to be there, never a resolution.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.model import Level
from mechlint.provenance.resolve import Provenance

from .gitrepo import commit, git, init, write
from .test_provenance import ids, mechanism, run, sha

ARTICLE = "".join(f"Line {n} of the article about the handshake.\n" for n in range(30))
EDITED = ARTICLE + "A paragraph added later.\n"
GONE = ("provenance/gone-source", "/sources/0/path")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


def _one(repo: Path) -> tuple[str, str, str]:
    found = run(repo)
    assert len(found) == 1, found
    return found[0]


def _describe(repo: Path, commit_id: str) -> str:
    """How messages name a commit: its short id, date and subject."""
    return f"commit {commit_id[:12]} ({git(repo, 'show', '-s', '--format=%cs', commit_id)}, "


# -- gone-source: deleted ---------------------------------------------------------------------------------


def test_a_deleted_source_is_a_warning_naming_the_commit_that_deleted_it(repo: Path) -> None:
    added = commit(repo, "article", {"content/post.md": ARTICLE})
    deleted = commit(repo, "remove the article", {"content/post.md": None})
    target = mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    report = lint([target], Config(root=repo), root=repo)
    [result] = [r for r in report.results if r.rule_id.startswith("provenance/")]
    assert (result.rule_id, result.pointer, result.level) == (*GONE, Level.WARNING)
    assert result.message == (
        f'"content/post.md" is gone from the working tree: {_describe(repo, deleted)}"remove the article") deleted '
        "it; readers following the citation find nothing; its pinned bytes were at this path in "
        f'{_describe(repo, added)}"article"): restore the file, cite where its content lives now, or keep a '
        "frozen copy of it"
    )


def test_an_uncommitted_deletion_is_said_to_be_one(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    (repo / "content" / "post.md").unlink()
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    rule, pointer, message = _one(repo)
    assert (rule, pointer) == GONE
    assert "the deletion is not committed (HEAD still holds it)" in message and "git restore" in message


# -- gone-source: renamed -----------------------------------------------------------------------------------


def test_a_renamed_source_names_the_new_path_and_the_commit_and_the_new_path_is_the_fix(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    renamed = commit(repo, "rename the article")
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    rule, pointer, message = _one(repo)
    assert (rule, pointer) == GONE
    assert message == (
        f'"content/post.md" is gone from the working tree: {_describe(repo, renamed)}"rename the article") '
        'renamed it to "content/article.md", which still holds the pinned bytes; readers following the citation '
        'find nothing: change the path to "content/article.md"'
    )


def test_the_departure_is_a_fact_a_fix_can_apply(repo: Path) -> None:
    """The new path and whether it holds the pinned bytes are a fact of the source, not only words."""
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    renamed = commit(repo, "rename the article")
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        data = {"sources": [{"path": "content/post.md", "sha256": sha(ARTICLE)}]}
        [(_, source)] = provenance.sources(data, location)
        departure = source.departure
        assert (departure.removed_in, departure.moved_to, departure.holds_pinned) == (
            renamed,
            "content/article.md",
            True,
        )
        assert [(r.commit, r.to) for r in departure.renames] == [(renamed, "content/article.md")]
    finally:
        provenance.close()


def test_a_source_renamed_inside_a_sources_folder_is_named_as_a_source_path(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "article", {"site/content/post.md": ARTICLE})
    git(repo, "mv", "site/content/post.md", "site/content/article.md")
    commit(repo, "rename")
    mechanism(repo / "site", [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    report = lint([repo / "site" / "content"], Config(root=repo), root=repo, source_root=repo / "site")
    found = [(r.rule_id, r.pointer, r.message) for r in report.results if r.rule_id.startswith("provenance/")]
    assert ids(found) == [GONE]
    assert found[0][2].endswith('change the path to "content/article.md"')


def test_a_renamed_and_edited_source_asks_for_review_after_the_new_path(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    commit(repo, "rename")
    commit(repo, "edit", {"content/article.md": EDITED})
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    rule, pointer, message = _one(repo)
    assert (rule, pointer) == GONE
    assert 'renamed it to "content/article.md", which no longer holds the pinned bytes' in message
    assert message.endswith(
        'change the path to "content/article.md", then review the mechanism against it and run mechlint pin'
    )


def test_renames_are_followed_to_the_name_head_has(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    first = commit(repo, "first rename")
    (repo / "posts").mkdir()
    git(repo, "mv", "content/article.md", "posts/handshake.md")
    second = commit(repo, "second rename")
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    rule, _, message = _one(repo)
    assert rule == GONE[0]
    assert f"{first[:12]}" in message and f"{second[:12]}" in message
    assert 'renamed that to "posts/handshake.md", which still holds the pinned bytes' in message
    assert message.endswith('change the path to "posts/handshake.md"')


def test_a_source_renamed_then_deleted_names_both_commits(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    renamed = commit(repo, "rename")
    deleted = commit(repo, "drop", {"content/article.md": None})
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    rule, _, message = _one(repo)
    assert rule == GONE[0]
    assert f"commit {renamed[:12]}" in message and 'renamed it to "content/article.md"' in message
    assert f"and commit {deleted[:12]}" in message and "deleted that" in message
    assert "change the path" not in message


# -- frozen copies keep frozen-resolved ------------------------------------------------------------------


def test_a_gone_frozen_copy_is_still_a_frozen_resolved_note(repo: Path) -> None:
    original = commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "migrate", {"content/fig.svg": "<svg>2</svg>\n"})
    target = mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")}])
    report = lint([target], Config(root=repo), root=repo)
    found = [(r.rule_id, r.pointer, r.level) for r in report.results if r.rule_id.startswith("provenance/")]
    assert found == [("provenance/frozen-resolved", "/sources/0/path", Level.NOTE)]
    assert original[:12] in report.results[0].message


# -- bytes only on an unmerged branch -----------------------------------------------------------------------


def _side_branch(repo: Path, files: dict[str, str | bytes | None]) -> str:
    git(repo, "checkout", "-q", "-b", "feature")
    side = commit(repo, "on the feature branch", files)
    git(repo, "checkout", "-q", "main")
    return side


def test_bytes_only_on_an_unmerged_branch_are_not_history_and_the_message_says_where(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    side = _side_branch(repo, {"content/post.md": EDITED})
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(EDITED)}])
    rule, pointer, message = _one(repo)
    assert (rule, pointer) == ("provenance/digest-mismatch", "/sources/0/sha256")  # never stale-source
    assert (
        f"the pinned bytes are at this path only in commit {side[:12]} " in message
        and 'on branch "feature", which HEAD does not contain' in message
    )
    assert "merge that branch first" in message
    git(repo, "merge", "-q", "--no-ff", "-m", "merge the feature", "feature")
    assert run(repo) == []  # merged: HEAD holds the bytes


def test_a_deleted_source_whose_bytes_are_only_on_an_unmerged_branch_is_not_resolved(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    side = _side_branch(repo, {"content/post.md": EDITED})
    deleted = commit(repo, "remove", {"content/post.md": None})
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(EDITED)}])
    rule, _, message = _one(repo)
    assert rule == "provenance/digest-mismatch"
    assert f"commit {deleted[:12]}" in message and f"commit {side[:12]}" in message and '"feature"' in message


def test_a_path_only_on_an_unmerged_branch_is_missing_from_head(repo: Path) -> None:
    commit(repo, "start", {"README.md": "blog\n"})
    side = _side_branch(repo, {"content/new.md": "a new article\n"})
    mechanism(repo, [{"path": "content/new.md", "sha256": sha("a new article\n")}])
    rule, _, message = _one(repo)
    assert rule == "provenance/missing-source"
    assert f"only in commit {side[:12]}" in message and 'on branch "feature"' in message


def test_a_frozen_copy_whose_original_held_the_bytes_only_on_an_unmerged_branch_is_a_mismatch(repo: Path) -> None:
    commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    side = _side_branch(repo, {"content/fig.svg": "<svg>side</svg>\n"})
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>side</svg>\n")}])
    found = run(repo)
    assert ("provenance/frozen-copy-mismatch", "/sources/0/path") in ids(found)
    assert "provenance/frozen-resolved" not in [rule for rule, _, _ in found]
    [message] = [m for rule, _, m in found if rule == "provenance/frozen-copy-mismatch"]
    assert f"only in commit {side[:12]}" in message and 'branch "feature"' in message


# -- a frozen copy is never told to fix its path (point 6) ---------------------------------------------------


def test_an_edited_frozen_copy_is_told_what_a_frozen_copy_must_hold(repo: Path) -> None:
    original = commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "migrate", {"content/fig.svg": "<svg>2</svg>\n"})
    write(repo, "research/m/before/content/fig.svg", "<svg>1, edited</svg>\n")
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")}])
    rule, _, message = _one(repo)
    assert rule == "provenance/digest-mismatch"
    assert "fix the path" not in message and "pin the right file" not in message
    assert 'a frozen copy must hold, byte for byte, a version its original path "content/fig.svg" had' in message
    assert f'git show "{original[:12]}:content/fig.svg"' in message


def test_a_gone_frozen_copy_with_bytes_of_another_file_is_not_told_to_cite_that_file(repo: Path) -> None:
    commit(repo, "figures", {"content/fig.svg": "<svg>1</svg>\n", "content/other.svg": "<svg>o</svg>\n"})
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>o</svg>\n")}])
    found = run(repo)
    assert sorted(ids(found)) == [
        ("provenance/frozen-copy-mismatch", "/sources/0/path"),
        ("provenance/missing-source", "/sources/0/path"),
    ]
    assert found
    for _, _, message in found:
        assert "fix the path" not in message and "did you mean" not in message
        assert 'a frozen copy must hold, byte for byte, a version its original path "content/fig.svg" had' in message


def test_an_unpinned_source_deleted_within_a_shallow_clone_is_gone_not_unknown(repo: Path, tmp_path: Path) -> None:
    commit(repo, "start", {"README.md": "blog\n"})
    commit(repo, "article", {"content/post.md": ARTICLE})
    commit(repo, "remove", {"content/post.md": None})
    mechanism(repo, [{"path": "content/post.md"}])
    git(repo, "add", "-A")
    commit(repo, "mechanism")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "3", repo.as_uri(), str(clone))
    assert (clone / ".git" / "shallow").is_file()
    assert ids(run(clone)) == [("provenance/unpinned-source", "/sources/0"), GONE]
