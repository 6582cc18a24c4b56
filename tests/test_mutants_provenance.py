"""The edges of provenance's deciding code that ``scripts/mutate.py`` found unchecked (issue 32).

Tests are named after the module they are about (``stale_source``), so that the
mutation run, which first runs the tests named after a rule, picks them; each
compares the whole message.
"""

from __future__ import annotations

from pathlib import Path

from mechlint.run.changed import changed_paths

from .gitrepo import commit, git, init, write
from .test_messages_exact import ADVICE, _named
from .test_provenance import mechanism, run, sha


def test_stale_source_never_names_a_change_head_lacks(tmp_path: Path) -> None:
    """The pinned bytes are in HEAD's history, a branch HEAD lacks changed them, and HEAD holds other bytes that
    came from an unrelated history merged in: the message names HEAD, not the other branch's commit, and does not
    blame the working tree (which matches HEAD)."""
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, "feature change", {"post.md": "v2\n"})
    git(repo, "checkout", "-q", "--orphan", "fresh")
    git(repo, "rm", "-rq", "--cached", ".")
    commit(repo, "fresh start", {"post.md": "other\n"})
    git(repo, "merge", "-q", "-s", "ours", "--allow-unrelated-histories", "main", "-m", "merge main")
    head = git(repo, "rev-parse", "HEAD").strip()
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    assert run(repo) == [
        (
            "provenance/stale-source",
            "/sources/0/sha256",
            f'the pinned bytes of "post.md" are from commit {_named(repo, first)}, and HEAD (commit '
            f"{_named(repo, head)}) holds other bytes, not made from them in its history; {ADVICE}",
        )
    ]


def test_worktree_prepares_a_mix_of_new_staged_tracked_and_absent_paths(tmp_path: Path) -> None:
    """``--since`` prepares every path a run asks about at once (``select_changed``): a new file, a staged one,
    an edited one, an unchanged one and one absent everywhere, each twice; only tracked, unstaged paths are
    compared, and each answer is the right one."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"a.md": "a\n", "b.md": "b\n", "c.md": "c\n"})
    write(repo, "a.md", "a, edited\n")
    write(repo, "b.md", "b, staged\n")
    git(repo, "add", "b.md")
    write(repo, "new.md", "new\n")
    top, changes = changed_paths(repo, "HEAD")
    try:
        asked = ["new.md", "b.md", "a.md", "c.md", "gone.md"]
        changes.prepare(asked + asked)
        assert [path in changes for path in asked] == [True, True, True, False, False]
    finally:
        changes.close()
    assert top == repo.resolve()
