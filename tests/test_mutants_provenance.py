"""The edges of provenance's deciding code that ``scripts/mutate.py`` found unchecked (issue 32).

Tests are named after the module they are about (``stale_source``), so that the
mutation run, which first runs the tests named after a rule, picks them; each
compares the whole message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.document import load
from mechlint.model import Level
from mechlint.provenance.services import RunServices
from mechlint.rules import RuleContext
from mechlint.rules.provenance import sources
from mechlint.rules.provenance.missing_source import name_note
from mechlint.run.changed import changed_paths

from .gitrepo import commit, git, init, shallow_clone, write
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


# -- paths longer than 200 characters are shown shortened, in every rule that names one -------------------------

LONG = "d/" + "x" * 199 + ".md"  # 204 characters: shown as its first 199 and "…"
LONG_ORIGINAL = "c/" + "y" * 199 + ".svg"  # 205
LONG_RENAMED = "b/" + "z" * 199 + ".svg"
COPY = "research/m/before/"
SHORT_ORIGINAL = '"c/f.svg"'  # as messages quote it


def _short(path: str) -> str:
    return f'"{path[:199]}…"'


def test_unpinned_source_shortens_a_long_path(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: "v1\n"})
    mechanism(repo, [{"path": LONG}])
    assert run(repo) == [
        (
            "provenance/unpinned-source",
            "/sources/0",
            f"the source {_short(LONG)} has no sha256; run mechlint pin to add it",
        )
    ]


def test_unsafe_path_refused_before_reading_shortens_the_path_and_is_never_unpinned(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    absolute = "/" + "x" * 203
    mechanism(repo, [{"path": absolute, "sha256": sha("v1\n")}, {"path": absolute}])
    message = f"{_short(absolute)}: the path is absolute; write it relative to the repository root; nothing was read"
    assert run(repo) == [
        ("provenance/unsafe-path", "/sources/0/path", message),
        ("provenance/unsafe-path", "/sources/1/path", message),
    ]


def test_unsafe_path_through_a_link_out_shortens_the_path(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    outside = write(tmp_path, "outside.md", "v1\n")
    (repo / "d").mkdir()
    (repo / LONG).symlink_to(outside)
    mechanism(repo, [{"path": LONG, "sha256": sha("v1\n")}])
    assert run(repo) == [
        (
            "provenance/unsafe-path",
            "/sources/0/path",
            f"{_short(LONG)} resolves, through a symbolic link, to a place outside the repository",
        )
    ]


def _never_held_advice(original: str) -> str:
    return (
        f"a frozen copy must hold, byte for byte, a version its original path {original} had in a commit "
        f"(git log -- {original} lists them): copy the version the mechanism was made from, and pin that"
    )


def test_frozen_copy_mismatch_shortens_the_copy_and_its_original(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG_ORIGINAL: "<svg>1</svg>\n"})
    write(repo, COPY + LONG_ORIGINAL, "<svg>edited</svg>\n")
    mechanism(repo, [{"path": COPY + LONG_ORIGINAL, "sha256": sha("<svg>edited</svg>\n")}])
    original = _short(LONG_ORIGINAL)
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            f"{_short(COPY + LONG_ORIGINAL)} is a frozen copy of {original}, but its pinned bytes never existed at "
            f"{original} (or a name it had before a rename) in any commit of HEAD's history; the copy is not the "
            f"pre-migration file; {_never_held_advice(original)}",
        )
    ]


def test_frozen_copy_mismatch_says_where_bytes_only_a_branch_holds_are(tmp_path: Path) -> None:
    """The original held the copy's bytes only on a branch HEAD lacks: no resolution, and the message says where."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"c/f.svg": "<svg>1</svg>\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {"c/f.svg": "<svg>2</svg>\n"})
    git(repo, "checkout", "-q", "main")
    write(repo, COPY + "c/f.svg", "<svg>2</svg>\n")
    mechanism(repo, [{"path": COPY + "c/f.svg", "sha256": sha("<svg>2</svg>\n")}])
    on_side = f'commit {_named(repo, side)}, on branch "side", which HEAD does not contain'
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", but its pinned bytes never existed at "c/f.svg" (or a '
            f"name it had before a rename) in any commit of HEAD's history; they are there only in {on_side}; "
            f"the copy is not the pre-migration file; {_never_held_advice(SHORT_ORIGINAL)}",
        )
    ]


def test_frozen_resolved_shortens_the_copy_and_its_original(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {LONG_ORIGINAL: "<svg>1</svg>\n"})
    mechanism(repo, [{"path": COPY + LONG_ORIGINAL, "sha256": sha("<svg>1</svg>\n")}])
    assert run(repo) == [
        (
            "provenance/frozen-resolved",
            "/sources/0/path",
            f"{_short(COPY + LONG_ORIGINAL)} is gone from the working tree; its pinned bytes were at its original "
            f"path {_short(LONG_ORIGINAL)} in commit {_named(repo, first)}",
        )
    ]


def test_frozen_resolved_shortens_the_name_the_original_had_before_a_rename(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {LONG_ORIGINAL: "<svg>1</svg>\n" * 20})
    (repo / "b").mkdir()
    git(repo, "mv", LONG_ORIGINAL, LONG_RENAMED)
    commit(repo, "rename")
    mechanism(repo, [{"path": COPY + LONG_RENAMED, "sha256": sha("<svg>1</svg>\n" * 20)}])
    assert run(repo) == [
        (
            "provenance/frozen-resolved",
            "/sources/0/path",
            f"{_short(COPY + LONG_RENAMED)} is gone from the working tree; its pinned bytes were at "
            f"{_short(LONG_ORIGINAL)} in commit {_named(repo, first)}, the name its original path "
            f"{_short(LONG_RENAMED)} had before a rename",
        )
    ]


def test_frozen_resolved_shortens_the_name_the_copy_had_before_a_rename(tmp_path: Path) -> None:
    """The copy was made by renaming another file, then deleted: its own history holds the pinned bytes (under
    its former name), which the note names; that former name is not the original path, which the claim says."""
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {LONG_ORIGINAL: "<svg>1</svg>\n" * 20})
    (repo / COPY / "c").mkdir(parents=True)
    git(repo, "mv", LONG_ORIGINAL, COPY + "c/f.svg")
    commit(repo, "rename")
    commit(repo, "delete", {COPY + "c/f.svg": None})
    mechanism(repo, [{"path": COPY + "c/f.svg", "sha256": sha("<svg>1</svg>\n" * 20)}])
    at_first = f"{_short(LONG_ORIGINAL)} in commit {_named(repo, first)}"
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", but its pinned bytes never existed at "c/f.svg" (or a '
            f"name it had before a rename) in any commit of HEAD's history; those bytes were at {at_first}; the copy "
            f"is not the pre-migration file; {_never_held_advice(SHORT_ORIGINAL)}",
        ),
        (
            "provenance/frozen-resolved",
            "/sources/0/path",
            f'"{COPY}c/f.svg" is gone from the working tree; its pinned bytes were at {at_first}, the name this path '
            "had before a rename",
        ),
    ]


# -- digest-mismatch: each kind of source, and the advice each is given ----------------------------------------

NEITHER = "nor any version of it in the history of HEAD have the pinned sha256"
PIN_RIGHT = "pin the right file (mechlint pin) after review"


def test_digest_mismatch_shortens_a_long_path_and_advises_pinning(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: "v1\n"})
    mechanism(repo, [{"path": LONG, "sha256": sha("never\n")}])
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f"neither the current bytes of {_short(LONG)} {NEITHER}; {PIN_RIGHT}",
        )
    ]


def test_digest_mismatch_with_the_bytes_at_another_path_advises_fixing_the_path(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n", "other.md": "o\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("o\n")}])
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f'neither the current bytes of "post.md" {NEITHER}; those bytes are at "other.md" now; fix the path, or '
            f"{PIN_RIGHT}",
        )
    ]


def test_digest_mismatch_of_a_gone_file_says_which_commit_deleted_it(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: "v1\n"})
    deleted = commit(repo, "delete", {LONG: None})
    mechanism(repo, [{"path": LONG, "sha256": sha("never\n")}])
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f"{_short(LONG)} was in history, but no version of it has the pinned sha256; commit "
            f"{_named(repo, deleted)} deleted it; fix the digest or the path",
        )
    ]


def test_digest_mismatch_of_a_gone_file_whose_bytes_are_elsewhere_still_says_fix_the_digest(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n", "other.md": "o\n"})
    deleted = commit(repo, "delete", {"post.md": None})
    mechanism(repo, [{"path": "post.md", "sha256": sha("o\n")}])
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f'"post.md" was in history, but no version of it has the pinned sha256; commit {_named(repo, deleted)} '
            'deleted it; those bytes are at "other.md" now; fix the digest or the path',
        )
    ]


def test_digest_mismatch_of_a_gone_file_pinned_on_a_branch_advises_merging(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {"post.md": "v2\n"})
    git(repo, "checkout", "-q", "main")
    deleted = commit(repo, "delete", {"post.md": None})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v2\n")}])
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f'"post.md" was in history, but no version of it has the pinned sha256; commit {_named(repo, deleted)} '
            f'deleted it; the pinned bytes are at this path only in commit {_named(repo, side)}, on branch "side", '
            "which HEAD does not contain; merge that branch first, or pin what HEAD has (mechlint pin) after review",
        )
    ]


def test_digest_mismatch_of_a_gone_frozen_copy_says_what_it_must_hold_not_who_deleted_it(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {COPY + "c/f.svg": "v1\n", "c/f.svg": "o1\n"})
    commit(repo, "delete", {COPY + "c/f.svg": None})
    mechanism(repo, [{"path": COPY + "c/f.svg", "sha256": sha("never\n")}])
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", but its pinned bytes never existed at "c/f.svg" (or a '
            "name it had before a rename) in any commit of HEAD's history; the copy is not the pre-migration file; "
            f"{_never_held_advice(SHORT_ORIGINAL)}",
        ),
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f'"{COPY}c/f.svg" was in history, but no version of it has the pinned sha256; '
            f"{_never_held_advice(SHORT_ORIGINAL)}",
        ),
    ]


def test_digest_mismatch_of_a_frozen_copy_pinned_on_a_branch_says_what_it_must_hold(tmp_path: Path) -> None:
    """A frozen copy is told what it must hold, never to merge a branch: its own path is no source of bytes."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"c/f.svg": "o1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {COPY + "c/f.svg": "v2\n"})
    git(repo, "checkout", "-q", "main")
    write(repo, COPY + "c/f.svg", "edited\n")
    mechanism(repo, [{"path": COPY + "c/f.svg", "sha256": sha("v2\n")}])
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", but its pinned bytes never existed at "c/f.svg" (or a '
            "name it had before a rename) in any commit of HEAD's history; the copy is not the pre-migration file; "
            f"{_never_held_advice(SHORT_ORIGINAL)}",
        ),
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f'neither the current bytes of "{COPY}c/f.svg" {NEITHER}; the pinned bytes are at this path only in commit '
            f'{_named(repo, side)}, on branch "side", which HEAD does not contain; '
            f"{_never_held_advice(SHORT_ORIGINAL)}",
        ),
    ]


# -- gone-source: every way a file goes, each message whole ---------------------------------------------------

ARTICLE = "".join(f"Line {n} of the article.\n" for n in range(30))  # long enough for git's rename detection
LONG_NEW = "e/" + "w" * 199 + ".md"
NOTHING = "readers following the citation find nothing"
RESTORE = "restore the file, cite where its content lives now, or keep a frozen copy of it"


def _gone(message: str, index: int = 0) -> tuple[str, str, str]:
    return ("provenance/gone-source", f"/sources/{index}/path", message)


def _unpinned(path: str, index: int) -> tuple[str, str, str]:
    return (
        "provenance/unpinned-source",
        f"/sources/{index}",
        f'the source "{path}" has no sha256; run mechlint pin to add it',
    )


def test_gone_source_deleted_shortens_the_path_and_names_both_commits(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {LONG: ARTICLE})
    deleted = commit(repo, "delete", {LONG: None})
    mechanism(repo, [{"path": LONG, "sha256": sha(ARTICLE)}])
    assert run(repo) == [
        _gone(
            f"{_short(LONG)} is gone from the working tree: commit {_named(repo, deleted)} deleted it; {NOTHING}; its "
            f"pinned bytes were at this path in commit {_named(repo, first)}: {RESTORE}"
        )
    ]


def test_gone_source_deleted_and_not_committed_says_so(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: ARTICLE})
    (repo / LONG).unlink()
    mechanism(repo, [{"path": LONG, "sha256": sha(ARTICLE)}])
    assert run(repo) == [
        _gone(
            f"{_short(LONG)} was deleted from the working tree, and the deletion is not committed (HEAD still holds "
            f"it); once it is, {NOTHING}: restore the file (git restore), or cite where its content lives now"
        )
    ]


def test_gone_source_renamed_shortens_the_new_path_it_offers(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: ARTICLE})
    (repo / "e").mkdir()
    git(repo, "mv", LONG, LONG_NEW)
    renamed = commit(repo, "rename")
    mechanism(repo, [{"path": LONG, "sha256": sha(ARTICLE)}])
    new = _short(LONG_NEW)
    assert run(repo) == [
        _gone(
            f"{_short(LONG)} is gone from the working tree: commit {_named(repo, renamed)} renamed it to {new}, which "
            f"still holds the pinned bytes; {NOTHING}: change the path to {new}"
        )
    ]


def test_gone_source_renamed_and_edited_asks_for_review_and_an_unpinned_one_is_told_less(tmp_path: Path) -> None:
    """Renamed, then edited: the new path no longer holds the pinned bytes; for a source with no sha256 the
    message cannot say whether it does, and does not."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: ARTICLE})
    (repo / "e").mkdir()
    git(repo, "mv", LONG, LONG_NEW)
    renamed = commit(repo, "rename")
    commit(repo, "edit", {LONG_NEW: ARTICLE + "A paragraph added later.\n"})
    mechanism(repo, [{"path": LONG, "sha256": sha(ARTICLE)}, {"path": LONG}])
    new = _short(LONG_NEW)
    moved = f"{_short(LONG)} is gone from the working tree: commit {_named(repo, renamed)} renamed it to {new}"
    review = f"{NOTHING}: change the path to {new}, then review the mechanism against it and run mechlint pin"
    assert run(repo) == [
        _gone(f"{moved}, which no longer holds the pinned bytes; {review}"),
        (
            "provenance/unpinned-source",
            "/sources/1",
            f"the source {_short(LONG)} has no sha256; run mechlint pin to add it",
        ),
        _gone(f"{moved}; {review}", 1),
    ]


def test_gone_source_renamed_twice_then_deleted_names_every_step(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {"a.md": ARTICLE})
    git(repo, "mv", "a.md", "b.md")
    one = commit(repo, "r1")
    git(repo, "mv", "b.md", "c.md")
    two = commit(repo, "r2")
    deleted = commit(repo, "del", {"c.md": None})
    mechanism(repo, [{"path": "a.md", "sha256": sha(ARTICLE)}, {"path": "a.md"}])
    went = (
        f'"a.md" is gone from the working tree: commit {_named(repo, one)} renamed it to "b.md", then commit '
        f'{_named(repo, two)} renamed that to "c.md", and commit {_named(repo, deleted)} deleted that; {NOTHING}'
    )
    assert run(repo) == [
        _gone(f"{went}; its pinned bytes were at this path in commit {_named(repo, first)}: {RESTORE}"),
        _unpinned("a.md", 1),
        _gone(f"{went}: {RESTORE}", 1),
    ]


def test_gone_source_with_no_or_a_malformed_sha256_is_reported_when_the_path_was_in_history(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"a.md": ARTICLE})
    deleted = commit(repo, "del", {"a.md": None})
    mechanism(repo, [{"path": "a.md"}, {"path": "a.md", "sha256": "zz"}, {"path": "never.md", "sha256": "zz"}])
    message = f'"a.md" is gone from the working tree: commit {_named(repo, deleted)} deleted it; {NOTHING}: {RESTORE}'
    found = run(repo)
    assert [f for f in found if f[0] == "provenance/gone-source"] == [_gone(message), _gone(message, 1)]


def test_gone_source_dropped_by_a_merge_says_git_cannot_name_the_commit(tmp_path: Path) -> None:
    """An unrelated history merged in with ``-s ours``: its file is in HEAD's history, but no commit deleted it."""
    repo = init(tmp_path / "blog")
    commit(repo, "start", {"readme.md": "r\n"})
    git(repo, "checkout", "-q", "--orphan", "old")
    git(repo, "rm", "-rq", "--cached", ".")
    (repo / "readme.md").unlink()
    old = commit(repo, "old article", {"a.md": ARTICLE})
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "-s", "ours", "--allow-unrelated-histories", "old", "-m", "merge old")
    mechanism(repo, [{"path": "a.md", "sha256": sha(ARTICLE)}])
    assert run(repo) == [
        _gone(
            f'"a.md" is gone from the working tree: git could not say which commit removed it; {NOTHING}; its pinned '
            f"bytes were at this path in commit {_named(repo, old)}: {RESTORE}"
        )
    ]


# -- missing-source: the message for each kind of missing path -------------------------------------------------

NEVER = "and nothing ever was in the history of HEAD"
FIX_PATH = "fix the path or remove the source"


def _missing(message: str, index: int = 0) -> tuple[str, str, str]:
    return ("provenance/missing-source", f"/sources/{index}/path", message)


def test_missing_source_shortens_the_path_pinned_or_not(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    mechanism(repo, [{"path": LONG, "sha256": sha("never\n")}, {"path": LONG}])
    message = f"nothing is at {_short(LONG)}, {NEVER}; {FIX_PATH}"
    assert run(repo) == [
        _missing(message),
        (
            "provenance/unpinned-source",
            "/sources/1",
            f"the source {_short(LONG)} has no sha256; run mechlint pin to add it",
        ),
        _missing(message, 1),
    ]


def test_missing_source_on_an_unmerged_branch_names_the_pinned_commit_or_the_newest_file(tmp_path: Path) -> None:
    """Pinned: the commit of the branch that holds the pinned bytes (not the newer one that changed them);
    unpinned: the newest commit with a file at the path."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    one = commit(repo, "s1", {"new.md": "n1\n"})
    two = commit(repo, "s2", {"new.md": "n2\n"})
    git(repo, "checkout", "-q", "main")
    mechanism(repo, [{"path": "new.md", "sha256": sha("n1\n")}, {"path": "new.md"}])
    branch = (
        'on branch "side", which HEAD does not contain; merge that branch first, or fix the path or remove the source'
    )
    assert run(repo) == [
        _missing(
            f'nothing is at "new.md", {NEVER}; the pinned bytes are at this path only in commit {_named(repo, one)}, '
            f"{branch}"
        ),
        _unpinned("new.md", 1),
        _missing(
            f'nothing is at "new.md", {NEVER}; a file is at this path only in commit {_named(repo, two)}, {branch}', 1
        ),
    ]


def test_missing_source_frozen_copy_is_told_what_it_must_hold_never_to_fix_its_path(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"c/f.svg": "o1\n", "other.svg": "ot\n"})
    mechanism(
        repo, [{"path": COPY + "c/f.svg", "sha256": sha("never\n")}, {"path": COPY + "c/f.svg", "sha256": sha("ot\n")}]
    )
    claim = (
        f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", but its pinned bytes never existed at "c/f.svg" (or a name '
        "it had before a rename) in any commit of HEAD's history"
    )
    after = f"the copy is not the pre-migration file; {_never_held_advice(SHORT_ORIGINAL)}"
    nothing = f'nothing is at "{COPY}c/f.svg", {NEVER}'
    assert run(repo) == [
        ("provenance/frozen-copy-mismatch", "/sources/0/path", f"{claim}; {after}"),
        _missing(f"{nothing}; {_never_held_advice(SHORT_ORIGINAL)}"),
        ("provenance/frozen-copy-mismatch", "/sources/1/path", f'{claim}; those bytes are at "other.svg" now; {after}'),
        _missing(f'{nothing}; those bytes are at "other.svg" now; {_never_held_advice(SHORT_ORIGINAL)}', 1),
    ]


def test_missing_source_suggests_the_path_that_held_the_bytes_in_a_commit(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {"other.md": ARTICLE})
    commit(repo, "del", {"other.md": None})
    commit(repo, "x", {"post.md": "p\n"})
    mechanism(repo, [{"path": "psot.md", "sha256": sha(ARTICLE)}])
    assert run(repo) == [
        _missing(
            f'nothing is at "psot.md", {NEVER}; {FIX_PATH}; did you mean "other.md"? it held the pinned bytes in '
            f"commit {_named(repo, first)}"
        )
    ]


def test_missing_source_shortens_the_path_it_suggests(tmp_path: Path) -> None:
    """By the bytes it holds, or by its name."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: ARTICLE})
    typo = LONG[:-1] + "x"
    mechanism(repo, [{"path": "psot.md", "sha256": sha(ARTICLE)}, {"path": typo, "sha256": sha("never\n")}])
    assert run(repo) == [
        _missing(
            f'nothing is at "psot.md", {NEVER}; {FIX_PATH}; did you mean {_short(LONG)}? it holds the pinned bytes now'
        ),
        _missing(f"nothing is at {_short(typo)}, {NEVER}; {FIX_PATH}; did you mean {_short(LONG)}?", 1),
    ]


def test_missing_source_unpinned_is_left_open_in_a_shallow_clone(tmp_path: Path) -> None:
    """With no sha256 to look for, a path absent from a shallow clone's history may still be in the history it
    lacks: history-unavailable, never missing-source."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"a.md": ARTICLE})
    commit(repo, "second", {"b.md": "b\n"})
    clone = shallow_clone(repo, tmp_path / "clone")
    mechanism(clone, [{"path": "never.md"}])
    assert run(clone) == [
        _unpinned("never.md", 0),
        (
            "provenance/history-unavailable",
            "/sources/0/path",
            'nothing is at "never.md" in the working tree, but this is a shallow clone; mechlint could not judge '
            "provenance/missing-source or provenance/gone-source; fetch the full history (git fetch --unshallow; in "
            "GitHub Actions, actions/checkout with fetch-depth: 0)",
        ),
    ]


def _look_alike(path_form: str, file_form: str, difference: str, case: str = "") -> str:
    return (
        f" (the names look alike but differ in Unicode normalization{case}: the source path is written in {path_form}, "
        f"the file name in {file_form}{difference}; write the path as the file name is written)"
    )


E_ACUTE_NFD = "U+0065 LATIN SMALL LETTER E + U+0301 COMBINING ACUTE ACCENT"
E_ACUTE_NFC = "U+00E9 LATIN SMALL LETTER E WITH ACUTE"
NFC_FORM, NFD_FORM, MIXED_FORM = "NFC (composed)", "NFD (decomposed)", "neither NFC nor NFD (a mix)"


@pytest.mark.parametrize(
    ("path", "other", "note"),
    [
        ("a.md", "a.md", ""),
        ("a.md", "b.md", ""),
        ("Post.md", "post.md", " (the names differ only in case)"),
        (
            "cafe\u0301.md",
            "caf\u00e9.md",
            _look_alike(NFD_FORM, NFC_FORM, f': "\u00e9" is {E_ACUTE_NFD} in the path, {E_ACUTE_NFC} in the file name'),
        ),
        (
            "caf\u00e9.md",
            "Cafe\u0301.md",
            _look_alike(
                NFC_FORM,
                NFD_FORM,
                ': "c" is U+0063 LATIN SMALL LETTER C in the path, U+0043 LATIN CAPITAL LETTER C in the file name',
                " and in case",
            ),
        ),
        (  # a mix of both forms; the combining accent belongs to the character just before it, not the first
            "caf\u00e9/cafe\u0301.md",
            "caf\u00e9/caf\u00e9.md",
            _look_alike(
                MIXED_FORM, NFC_FORM, f': "\u00e9" is {E_ACUTE_NFD} in the path, {E_ACUTE_NFC} in the file name'
            ),
        ),
        # Hangul jamo do not combine: the names cut into different numbers of characters, and none is named
        ("\ud55c.md", "\u1112\u1161\u11ab.md", _look_alike(NFC_FORM, NFD_FORM, "")),
        (  # two accents in either order, on a private-use character, which has no name
            "\ue000\u0301\u0323.md",
            "\ue000\u0323\u0301.md",
            _look_alike(
                MIXED_FORM,
                NFC_FORM,
                ': "\\ue000\u0323\u0301" is U+E000 an unnamed character + U+0301 COMBINING ACUTE ACCENT + U+0323 '
                "COMBINING DOT BELOW in the path, U+E000 an unnamed character + U+0323 COMBINING DOT BELOW + U+0301 "
                "COMBINING ACUTE ACCENT in the file name",
            ),
        ),
    ],
    ids=["same", "other", "case", "nfd-nfc", "nfc-nfd-and-case", "mix", "hangul", "unnamed"],
)
def test_missing_source_name_note_says_how_two_look_alike_names_differ(path: str, other: str, note: str) -> None:
    assert name_note(path, other) == note


# -- history-unavailable: what could not be judged, why, and what to do ------------------------------------------

NEEDS_REPOSITORY = (
    "provenance needs a git repository (its history tells a stale pin from a wrong one, and a deleted source from a "
    "mistyped path): run mechlint in a clone of the repository that holds the sources"
)
FETCH = "fetch the full history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)"
CHANGED = "mechlint could not judge provenance/stale-source or provenance/digest-mismatch"
GONE = "mechlint could not judge provenance/missing-source, provenance/gone-source or provenance/digest-mismatch"
UNPINNED_GONE = "mechlint could not judge provenance/missing-source or provenance/gone-source"
FROZEN_GONE = (
    "mechlint could not judge provenance/missing-source, provenance/frozen-resolved, provenance/digest-mismatch or "
    "provenance/frozen-copy-mismatch"
)
V1_START, V2_START, CRLF_START = sha("v1\n")[:12], sha("v2\n")[:12], sha("a\r\nb\r\n")[:12]
REPAIR = "this could not be checked, so it is an error: repair the repository (git fsck) or make a fresh clone"


def _unavailable(message: str, index: int = 0) -> tuple[str, str, str]:
    return ("provenance/history-unavailable", f"/sources/{index}/path", message)


def _levels(repo: Path) -> list[tuple[str, str, Level, str]]:
    report = lint([repo / "content"], Config(root=repo), root=repo)
    return [(r.rule_id, r.pointer, r.level, r.message) for r in report.results if r.rule_id.startswith("provenance/")]


def test_history_unavailable_outside_any_repository_names_each_verdict_left_open(tmp_path: Path) -> None:
    folder = tmp_path / "not-a-repository"
    write(folder, LONG, "v2\n")
    write(folder, "crlf.md", "a\r\nb\r\n")
    write(folder, COPY + "c/f.svg", "<svg/>\n")
    mechanism(
        folder,
        [
            {"path": LONG, "sha256": sha("v1\n")},
            {"path": "crlf.md", "sha256": sha("a\nb\n")},
            {"path": "gone.md", "sha256": sha("v1\n")},
            {"path": COPY + "c/f.svg", "sha256": sha("<svg/>\n")},
            {"path": COPY + LONG, "sha256": sha("v1\n")},
        ],
    )
    but = "but the folder is not in a git repository"
    copy = _short(COPY + LONG)
    assert run(folder) == [
        _unavailable(
            f"the bytes of {_short(LONG)} do not have the pinned sha256 (they have {V2_START}…), {but}; "
            f"{CHANGED}; {NEEDS_REPOSITORY}"
        ),
        _unavailable(
            f'the bytes of "crlf.md" do not have the pinned sha256 (they have {CRLF_START}…) (the pinned '
            "sha256 is that of this file with LF line endings: only its line endings differ, and git would store them "
            f"as they are here; restore them, or pin after review), {but}; {CHANGED}; {NEEDS_REPOSITORY}",
            1,
        ),
        _unavailable(f'nothing is at "gone.md" in the working tree, {but}; {GONE}; {NEEDS_REPOSITORY}', 2),
        _unavailable(
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", whose bytes can only be checked in history, {but}; '
            f"mechlint could not judge provenance/frozen-copy-mismatch; {NEEDS_REPOSITORY}",
            3,
        ),
        _unavailable(
            f"nothing is at {copy} in the working tree; and {copy} is a frozen copy of {_short(LONG)}, whose bytes can "
            f"only be checked in history, {but}; {FROZEN_GONE}; {NEEDS_REPOSITORY}",
            4,
        ),
    ]


def test_history_unavailable_in_a_shallow_clone_says_to_fetch_the_history(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: "l1\n", "c/f.svg": "<svg>1</svg>\n"})
    commit(repo, "second", {LONG: "l2\n", "c/f.svg": "<svg>2</svg>\n", "old.md": "o\n"})
    commit(repo, "third", {"old.md": None})
    clone = shallow_clone(repo, tmp_path / "clone")
    write(clone, COPY + "c/f.svg", "<svg>1</svg>\n")
    mechanism(
        clone,
        [
            {"path": LONG, "sha256": sha("l1\n")},
            {"path": "old.md", "sha256": sha("never\n")},
            {"path": COPY + "c/f.svg", "sha256": sha("<svg>1</svg>\n")},
            {"path": COPY + "c/g.svg", "sha256": sha("<svg>1</svg>\n")},
            {"path": "never.md"},
        ],
    )
    not_here = "the pinned bytes are not in the history this clone has"
    shallow = "but this is a shallow clone"
    assert run(clone) == [
        _unavailable(
            f"the pinned bytes of {_short(LONG)} are not in the history this clone has, {shallow}; {CHANGED}; {FETCH}"
        ),
        _unavailable(f'nothing is at "old.md" and {not_here}, {shallow}; {GONE}; {FETCH}', 1),
        _unavailable(
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", and its pinned bytes are not in the history this clone '
            f"has, {shallow}; mechlint could not judge provenance/frozen-copy-mismatch; {FETCH}",
            2,
        ),
        _unavailable(
            f'nothing is at "{COPY}c/g.svg" and {not_here}; and "{COPY}c/g.svg" is a frozen copy of "c/g.svg", and '
            f"its pinned bytes are not in the history this clone has, {shallow}; {FROZEN_GONE}; {FETCH}",
            3,
        ),
        _unpinned("never.md", 4),
        _unavailable(f'nothing is at "never.md" in the working tree, {shallow}; {UNPINNED_GONE}; {FETCH}', 4),
    ]


def test_history_unavailable_when_a_lookup_fails_is_an_error_that_says_so(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n", "c/f.svg": "<svg>1</svg>\n"})
    commit(repo, "second", {"post.md": "v2\n", "c/f.svg": "<svg>2</svg>\n"})
    head = git(repo, "rev-parse", "HEAD")
    parent = git(repo, "rev-parse", "HEAD~1")
    loose = repo / ".git" / "objects" / parent[:2] / parent[2:]
    loose.chmod(0o644)
    loose.unlink()
    write(repo, COPY + "c/f.svg", "<svg>1</svg>\n")
    mechanism(
        repo,
        [
            {"path": "post.md", "sha256": sha("v1\n")},
            {"path": COPY + "c/f.svg", "sha256": sha("<svg>1</svg>\n")},
            {"path": COPY + "c/g.svg", "sha256": sha("<svg>1</svg>\n")},
        ],
    )
    failed = f"failed (git failed: fatal: Failed to traverse parents of commit {head})"
    but = f"but git could not read all of the history; {REPAIR}"
    rule = "provenance/history-unavailable"
    assert _levels(repo) == [
        (rule, "/sources/0/path", Level.ERROR, f'looking up "post.md" {failed}, {but}'),
        (
            rule,
            "/sources/1/path",
            Level.ERROR,
            f'"{COPY}c/f.svg" is a frozen copy of "c/f.svg", and looking it up {failed}, {but}',
        ),
        (
            rule,
            "/sources/2/path",
            Level.ERROR,
            f'looking up "{COPY}c/g.svg" {failed}; and "{COPY}c/g.svg" is a frozen copy of "c/g.svg", and looking it '
            f"up {failed}, {but}",
        ),
    ]


def test_history_unavailable_inside_a_submodule_says_where_to_check_as_a_warning(tmp_path: Path) -> None:
    inner = init(tmp_path / "inner")
    commit(inner, "inner", {"x.md": "x1\n"})
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"a.md": "a\n"})
    folder = "lib" + "y" * 199
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), folder)
    git(repo, "commit", "-qm", "submodule")
    mechanism(repo, [{"path": f"{folder}/x.md", "sha256": sha("other\n")}])
    assert _levels(repo) == [
        (
            "provenance/history-unavailable",
            "/sources/0/path",
            Level.WARNING,
            f"{_short(folder + '/x.md')} does not match the pinned sha256, and it is inside the submodule "
            f"{_short(folder)}, whose history mechlint does not read; check it in that repository",
        )
    ]


def test_history_unavailable_where_dot_git_names_no_repository_says_git_must_read_it(tmp_path: Path) -> None:
    folder = tmp_path / "blog"
    write(folder, ".git", "nonsense\n")
    write(folder, "post.md", "v2\n")
    mechanism(folder, [{"path": "post.md", "sha256": sha("v1\n")}])
    assert _levels(folder) == [
        (
            "provenance/history-unavailable",
            "/sources/0/path",
            Level.WARNING,
            f'the bytes of "post.md" do not have the pinned sha256 (they have {V2_START}…), but this is not a '
            f"git repository (.git is a file without gitdir:); {CHANGED}; provenance needs git to read this "
            "repository's history",
        )
    ]


@pytest.mark.needs_root
def test_history_unavailable_in_a_repository_another_user_owns_gives_its_own_fix(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v0\n")}, {"path": "gone.md", "sha256": sha("v0\n")}])
    for folder, _, files in os.walk(repo):
        os.chown(folder, 12345, 12345)
        for name in files:
            os.chown(os.path.join(folder, name), 12345, 12345)
    refused = (
        'but git refuses to read this repository because another user owns it (git said: "detected dubious '
        f"ownership in repository at '{repo}'\")"
    )
    allow = (
        "if you trust the repository, allow it (as the user running mechlint): git config --global --add "
        f"safe.directory {repo}"
    )
    assert _levels(repo) == [
        (
            "provenance/history-unavailable",
            "/sources/0/path",
            Level.WARNING,
            f'the bytes of "post.md" do not have the pinned sha256 (they have {V1_START}…), {refused}; '
            f"{CHANGED}; {allow}",
        ),
        (
            "provenance/history-unavailable",
            "/sources/1/path",
            Level.WARNING,
            f'nothing is at "gone.md" in the working tree, {refused}; {GONE}; {allow}',
        ),
    ]


# -- the shared wording of rules/provenance/__init__.py ---------------------------------------------------------


def test_provenance_rules_leave_placeholder_paths_to_schema_placeholder(tmp_path: Path) -> None:
    """A source whose path is still a placeholder is not judged, pinned or not; the sources around it are."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "p\n"})
    mechanism(
        repo,
        [
            {"path": "TODO: the source", "sha256": sha("x\n")},
            {"path": "gone.md", "sha256": sha("x\n")},
            {"path": "TBD"},
        ],
    )
    assert run(repo) == [_missing(f'nothing is at "gone.md", {NEVER}; {FIX_PATH}', 1)]


def test_provenance_elsewhere_shortens_the_path_that_holds_the_bytes_now_or_held_them(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG: "o\n", "post.md": "p\n"})
    second = commit(repo, "second", {LONG_NEW: "w\n"})
    commit(repo, "del", {LONG_NEW: None})
    mechanism(repo, [{"path": "post.md", "sha256": sha("o\n")}, {"path": "post.md", "sha256": sha("w\n")}])
    neither = f'neither the current bytes of "post.md" {NEITHER}'
    advice = f"fix the path, or {PIN_RIGHT}"
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f"{neither}; those bytes are at {_short(LONG)} now; {advice}",
        ),
        (
            "provenance/digest-mismatch",
            "/sources/1/sha256",
            f"{neither}; those bytes were at {_short(LONG_NEW)} in commit {_named(repo, second)}; {advice}",
        ),
    ]


def test_provenance_frozen_copy_advice_names_the_pinned_version_to_put_back(tmp_path: Path) -> None:
    """An edited frozen copy whose pinned bytes its original held: ``git show COMMIT:PATH`` (12 digits, the
    whole shortened to 200 characters) gives them back."""
    repo = init(tmp_path / "blog")
    first = commit(repo, "first", {LONG_ORIGINAL: "<svg>1</svg>\n"})
    commit(repo, "second", {LONG_ORIGINAL: "<svg>2</svg>\n"})
    write(repo, COPY + LONG_ORIGINAL, "<svg>1, edited</svg>\n")
    mechanism(repo, [{"path": COPY + LONG_ORIGINAL, "sha256": sha("<svg>1</svg>\n")}])
    original = _short(LONG_ORIGINAL)
    spec = _short(f"{first[:12]}:{LONG_ORIGINAL}")
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f"neither the current bytes of {_short(COPY + LONG_ORIGINAL)} {NEITHER}; those bytes were at {original} in "
            f"commit {_named(repo, first)}; a frozen copy must hold, byte for byte, a version its original path "
            f"{original} had in a commit: the pinned one is git show {spec}; put those bytes back in the copy, never "
            "re-pin an edit",
        )
    ]


def test_provenance_frozen_copy_advice_for_an_unpinned_copy(tmp_path: Path) -> None:
    """A frozen copy with no sha256, or a malformed one, makes no claim to check; it is still told what to hold."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"c/f.svg": "o1\n"})
    mechanism(repo, [{"path": COPY + "c/f.svg"}, {"path": COPY + "c/f.svg", "sha256": "zz"}])
    message = f'nothing is at "{COPY}c/f.svg", {NEVER}; {_never_held_advice(SHORT_ORIGINAL)}'
    assert run(repo) == [_unpinned(COPY + "c/f.svg", 0), _missing(message), _missing(message, 1)]


def test_provenance_unreachable_names_the_original_path_of_a_frozen_copy(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {LONG_ORIGINAL: "<svg>1</svg>\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {LONG_ORIGINAL: "<svg>2</svg>\n"})
    git(repo, "checkout", "-q", "main")
    mechanism(repo, [{"path": COPY + LONG_ORIGINAL, "sha256": sha("<svg>2</svg>\n")}])
    original = _short(LONG_ORIGINAL)
    on_side = f'commit {_named(repo, side)}, on branch "side", which HEAD does not contain'
    advice = _never_held_advice(original)
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            f"{_short(COPY + LONG_ORIGINAL)} is a frozen copy of {original}, but its pinned bytes never existed at "
            f"{original} (or a name it had before a rename) in any commit of HEAD's history; they are there only in "
            f"{on_side}; the copy is not the pre-migration file; {advice}",
        ),
        _missing(
            f"nothing is at {_short(COPY + LONG_ORIGINAL)}, {NEVER}; the pinned bytes are at its original path "
            f"{original} only in {on_side}; {advice}"
        ),
    ]


def test_provenance_sparse_checkout_says_the_bytes_in_head_were_checked(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"kept/k.md": "k\n", "out/o.md": "o\n"})
    git(repo, "sparse-checkout", "set", "kept", "content")
    mechanism(repo, [{"path": "out/o.md", "sha256": sha("never\n")}, {"path": "out/o.md", "sha256": sha("o\n")}])
    assert run(repo) == [
        (
            "provenance/digest-mismatch",
            "/sources/0/sha256",
            f'neither the current bytes of "out/o.md" {NEITHER} (the file is outside the sparse checkout, so its bytes '
            f"in HEAD were checked); {PIN_RIGHT}",
        )
    ]


def test_provenance_sources_needs_both_a_run_and_a_file_on_disk(tmp_path: Path) -> None:
    """A document held in memory (no location), or one checked outside a run (no services), has no sources to
    judge; with both, its sources are there."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    target = mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    services = RunServices(root=repo)
    try:
        in_memory = load("m.json", target.read_bytes())
        on_disk = load("m.json", target.read_bytes())
        on_disk.location = target
        assert sources(in_memory, RuleContext(services=services)) == []
        assert sources(on_disk, RuleContext()) == []
        assert [found.pointer for found in sources(on_disk, RuleContext(services=services))] == ["/sources/0"]
    finally:
        services.close()
