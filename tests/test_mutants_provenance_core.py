"""The edges of ``mechlint/provenance``'s shared analysis that ``scripts/mutate.py`` found unchecked (issue 32).

Each test builds its own repository and asks the module it is about
(imported by its dotted name, which is how the mutation run picks this file)
for the exact answer: the whole list, the whole message, every field.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.provenance import attributes, departure, reach, stored
from mechlint.provenance.errors import GitError
from mechlint.provenance.git import History, open_history
from mechlint.provenance.log import Revision
from mechlint.provenance.nohistory import RepositoryState
from mechlint.provenance.paths import FileState
from mechlint.provenance.pinned import HISTORY, NOWHERE, WORKING_TREE, Pinned
from mechlint.provenance.resolve import Provenance

from .gitrepo import _ENV, commit, git, init, shallow_clone, write
from .test_checkout_shapes import MECHANISM, V1, V2, mechanism_json, provenance
from .test_provenance import mechanism, run, sha

ARTICLE = "".join(f"Line {n} of the article about the handshake.\n" for n in range(30))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


def _history(repo: Path) -> History:
    return open_history(repo)


def _describe(repo: Path, commit_id: str) -> str:
    """How messages name a commit: its short id, date and subject."""
    return f"commit {commit_id[:12]} ({git(repo, 'show', '-s', '--format=%cs', commit_id)}, "


# -- reach: which refs hold a commit, and whether HEAD does ---------------------------------------------


def _side_commit(repo: Path) -> tuple[str, str]:
    """A commit on main, and one on a branch ``side`` that main does not contain; HEAD stays on main."""
    base = commit(repo, "base", {"a.md": "a\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {"b.md": "b\n"})
    git(repo, "checkout", "-q", "main")
    return base, side


def test_reach_names_each_kind_of_ref_and_counts_those_past_three(repo: Path) -> None:
    """Branches, remote branches, tags and other refs are named by kind, in git's order; past three, counted."""
    _, side = _side_commit(repo)
    git(repo, "update-ref", "refs/remotes/origin/side", side)
    git(repo, "tag", "kept", side)
    git(repo, "update-ref", "refs/keep/side", side)
    history = _history(repo)
    try:
        assert reach.refs_holding(history, side) == (
            'branch "side", "refs/keep/side", remote branch "origin/side" and 1 more'
        )
        git(repo, "tag", "-d", "kept")
        fresh = _history(repo)
        try:
            assert reach.refs_holding(fresh, side) == 'branch "side", "refs/keep/side" and remote branch "origin/side"'
        finally:
            fresh.close()
    finally:
        history.close()


@pytest.mark.parametrize(
    ("refs", "named"),
    [
        (["refs/heads/side"], 'branch "side"'),
        (["refs/heads/side", "refs/tags/v1"], 'branch "side" and tag "v1"'),
        ([], "no branch or tag"),
    ],
)
def test_reach_names_one_ref_two_refs_and_none(repo: Path, refs: list[str], named: str) -> None:
    _, side = _side_commit(repo)
    for ref in refs[1:]:
        git(repo, "update-ref", ref, side)
    if not refs:  # the commit is kept only by the reflog: no ref holds it
        git(repo, "branch", "-D", "side")
    history = _history(repo)
    try:
        assert reach.refs_holding(history, side) == named
    finally:
        history.close()


def test_reach_shortens_a_ref_name_past_a_hundred_characters(repo: Path) -> None:
    """A name of 100 characters is shown whole; one of 101 is cut to 99 and an ellipsis (branches and other refs)."""
    _, side = _side_commit(repo)
    git(repo, "branch", "-D", "side")
    long_branch, longer_branch = "b" * 100, "c" * 101
    other, longer_other = "refs/k/" + "d" * 93, "refs/k/" + "e" * 94
    for name in (f"refs/heads/{long_branch}", f"refs/heads/{longer_branch}", other, longer_other):
        git(repo, "update-ref", name, side)
    history = _history(repo)
    try:
        assert reach.refs_holding(history, side) == (
            f'branch "{long_branch}", branch "{"c" * 99}…", "{other}" and 1 more'
        )
    finally:
        history.close()
    git(repo, "update-ref", "-d", f"refs/heads/{long_branch}")
    git(repo, "update-ref", "-d", f"refs/heads/{longer_branch}")
    history = _history(repo)
    try:
        assert reach.refs_holding(history, side) == f'"{other}" and "{longer_other[:99]}…"'
    finally:
        history.close()


def test_reach_from_head_with_an_unmerged_branch(repo: Path) -> None:
    """HEAD itself and its ancestors are history; a commit only on an unmerged branch is not."""
    base, side = _side_commit(repo)
    head = commit(repo, "on main", {"c.md": "c\n"})
    history = _history(repo)
    try:
        assert [reach.from_head(history, c) for c in (head, base, side)] == [True, True, False]
    finally:
        history.close()


def test_reach_from_head_is_false_on_an_unborn_branch(repo: Path) -> None:
    """HEAD on a branch with no commit yet (``git checkout --orphan``) holds nothing, though main has commits."""
    base = commit(repo, "base", {"a.md": "a\n"})
    git(repo, "checkout", "-q", "--orphan", "fresh")
    history = _history(repo)
    try:
        assert reach.from_head(history, base) is False
    finally:
        history.close()


def test_reach_asks_git_nothing_more_when_every_ref_is_merged(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The usual CI checkout: every ref is in HEAD, so every commit of the log is history, and no merge base is
    asked (the module's promise: "nothing more is asked")."""
    base = commit(repo, "base", {"a.md": "a\n"})
    commit(repo, "second", {"a.md": "b\n"})
    history = _history(repo)
    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(history, "is_ancestor", lambda commit, head: asked.append((commit, head)) or True)
    try:
        assert reach.from_head(history, base) is True
        assert asked == []
    finally:
        history.close()


class _FailingHistory:
    """A history whose merge-base question fails (git could not say), with one unmerged ref."""

    def state(self) -> RepositoryState:
        return RepositoryState(shallow=False, partial=False, head="a" * 40)

    def unmerged_refs(self) -> list[str]:
        return ["refs/heads/side"]

    def is_ancestor(self, commit: str, descendant: str) -> bool:
        raise GitError("git merge-base failed")


def test_reach_any_reached_guesses_no_absence_when_git_cannot_say() -> None:
    """When git cannot say whether a commit is in HEAD, a path with revisions is in history; one with none is not."""
    revision = Revision(commit="b" * 40, time=0, path="post.md", blob="c" * 40, previous=None)
    history = _FailingHistory()
    assert reach.any_reached(history, [revision]) is True  # type: ignore[arg-type]
    assert reach.any_reached(history, []) is False  # type: ignore[arg-type]


# -- departure: where a gone source went --------------------------------------------------------------


def _departure(repo: Path, source: dict[str, str]) -> departure.Departure:
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        [(_, found)] = provenance.sources({"sources": [source]}, location)
        return found.departure
    finally:
        provenance.close()


def _fields(gone: departure.Departure) -> tuple[object, ...]:
    """Every field, so that a default that changed is seen too."""
    return (
        gone.removed_in,
        [(r.commit, r.to) for r in gone.renames],
        gone.moved_to,
        gone.deleted_in,
        gone.holds_pinned,
        gone.uncommitted,
    )


def test_departure_of_a_file_deleted_in_a_commit_that_changed_other_files_too(repo: Path) -> None:
    """The commit that deleted the source also edited a file sorted before it: that file is no rename target."""
    commit(repo, "article", {"README.md": "blog\n", "content/post.md": ARTICLE})
    deleted = commit(repo, "remove the article", {"README.md": "blog, edited\n", "content/post.md": None})
    gone = _departure(repo, {"path": "content/post.md", "sha256": sha(ARTICLE)})
    assert _fields(gone) == (deleted, [], None, deleted, False, False)


def test_departure_of_a_renamed_file_holding_the_pinned_bytes(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    renamed = commit(repo, "rename")
    gone = _departure(repo, {"path": "content/post.md", "sha256": sha(ARTICLE)})
    assert _fields(gone) == (renamed, [(renamed, "content/article.md")], "content/article.md", None, True, False)


def test_departure_of_an_uncommitted_deletion(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    (repo / "content" / "post.md").unlink()
    gone = _departure(repo, {"path": "content/post.md", "sha256": sha(ARTICLE)})
    assert _fields(gone) == (None, [], None, None, False, True)


def _renamed_times(repo: Path, count: int) -> list[str]:
    commit(repo, "article", {"content/r0.md": ARTICLE})
    commits = []
    for n in range(1, count + 1):
        git(repo, "mv", f"content/r{n - 1}.md", f"content/r{n}.md")
        commits.append(commit(repo, f"rename {n}"))
    return commits


def test_departure_follows_eight_renames_to_the_name_head_holds(repo: Path) -> None:
    commits = _renamed_times(repo, 8)
    gone = _departure(repo, {"path": "content/r0.md", "sha256": sha(ARTICLE)})
    renames = [(c, f"content/r{n}.md") for n, c in enumerate(commits, 1)]
    assert _fields(gone) == (commits[0], renames, "content/r8.md", None, True, False)


def test_departure_stops_after_eight_renames(repo: Path) -> None:
    """A file renamed nine times is reported where the eighth rename left it: no new path, no deletion."""
    commits = _renamed_times(repo, 9)
    gone = _departure(repo, {"path": "content/r0.md", "sha256": sha(ARTICLE)})
    renames = [(c, f"content/r{n}.md") for n, c in enumerate(commits[:8], 1)]
    assert _fields(gone) == (commits[0], renames, None, None, False, False)


def test_departure_of_a_file_no_commit_of_head_removed(repo: Path) -> None:
    """HEAD's history held the file (an unrelated history merged in with ``-s ours``), but no commit on HEAD's
    first-parent line deleted it: git cannot say which commit removed it, and the message says so."""
    first = commit(repo, "first", {"post.md": ARTICLE})
    git(repo, "checkout", "-q", "--orphan", "fresh")
    git(repo, "rm", "-rq", "--cached", ".")
    (repo / "post.md").unlink()
    commit(repo, "fresh start", {"other.md": "other\n"})
    git(repo, "merge", "-q", "-s", "ours", "--allow-unrelated-histories", "main", "-m", "merge main")
    gone = _departure(repo, {"path": "post.md", "sha256": sha(ARTICLE)})
    assert _fields(gone) == (None, [], None, None, False, False)
    mechanism(repo, [{"path": "post.md", "sha256": sha(ARTICLE)}])
    assert run(repo) == [
        (
            "provenance/gone-source",
            "/sources/0/path",
            '"post.md" is gone from the working tree: git could not say which commit removed it; readers following '
            f'the citation find nothing; its pinned bytes were at this path in {_describe(repo, first)}"first"): '
            "restore the file, cite where its content lives now, or keep a frozen copy of it",
        )
    ]


def test_departure_when_git_fails_says_nothing(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git fails while listing HEAD's tree: no commit is named, nothing is guessed."""
    commit(repo, "article", {"content/post.md": ARTICLE})
    commit(repo, "remove", {"content/post.md": None})

    def failing(self: History, commit: str) -> dict[str, str]:
        raise GitError("git ls-tree failed")

    monkeypatch.setattr(History, "tree", failing)
    gone = _departure(repo, {"path": "content/post.md", "sha256": sha(ARTICLE)})
    assert _fields(gone) == (None, [], None, None, False, False)


def test_departure_out_of_the_sources_folder_is_never_offered_as_the_new_path(tmp_path: Path) -> None:
    """Source paths are relative to ``site/``; the file moved to ``other/``, which HEAD holds: no source path
    names it, so it is no fix (``other/post.md`` would be ``site/other/post.md``), and the rename is still said."""
    repo = init(tmp_path / "blog")
    added = commit(repo, "article", {"site/content/post.md": ARTICLE})
    (repo / "other").mkdir()
    git(repo, "mv", "site/content/post.md", "other/post.md")
    moved = commit(repo, "move it out")
    mechanism(repo / "site", [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    report = lint([repo / "site" / "content"], Config(root=repo), root=repo, source_root=repo / "site")
    found = [(r.rule_id, r.pointer, r.message) for r in report.results if r.rule_id.startswith("provenance/")]
    assert found == [
        (
            "provenance/gone-source",
            "/sources/0/path",
            f'"content/post.md" is gone from the working tree: {_describe(repo, moved)}"move it out") renamed it to '
            '"other/post.md"; readers following the citation find nothing; its pinned bytes were at this path in '
            f'{_describe(repo, added)}"article"): restore the file, cite where its content lives now, or keep a '
            "frozen copy of it",
        )
    ]


@pytest.mark.parametrize("pin", [{}, {"sha256": "not a digest"}])
def test_departure_of_a_renamed_source_with_no_good_pin_never_says_it_holds_the_pinned_bytes(
    repo: Path, pin: dict[str, str]
) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/article.md")
    renamed = commit(repo, "rename the article")
    gone = _departure(repo, {"path": "content/post.md", **pin})
    assert _fields(gone) == (renamed, [(renamed, "content/article.md")], "content/article.md", None, False, False)


# -- attributes: git check-attr, read field by field ----------------------------------------------------


def _reader(repo: Path) -> tuple[History, attributes.AttributeReader]:
    history = _history(repo)
    return history, attributes.AttributeReader(history.git)


def test_attributes_reads_a_field_of_the_longest_length_and_refuses_one_byte_more(repo: Path) -> None:
    """``check-attr`` echoes the path: one of 65,536 bytes is read, one of 65,537 is refused, by name."""
    commit(repo, "attributes", {".gitattributes": "*.md text eol=crlf\n"})
    history, reader = _reader(repo)
    try:
        assert reader.ask("a" * 65533 + ".md") == {"text": "set", "crlf": "unspecified", "eol": "crlf"}
        with pytest.raises(GitError) as raised:
            reader.ask("a" * 65534 + ".md")
        assert str(raised.value) == "git check-attr gave a field longer than mechlint reads"
        assert reader.ask("b.md") == {"text": "set", "crlf": "unspecified", "eol": "crlf"}  # not the rest of that
    finally:
        reader.close()
        history.close()


def test_attributes_says_when_check_attr_stops_before_answering(repo: Path) -> None:
    """A path git refuses (outside the repository) ends ``check-attr``: the error says it stopped."""
    commit(repo, "first", {"a.md": "a\n"})
    history, reader = _reader(repo)
    try:
        with pytest.raises(GitError) as raised:
            reader.ask("../outside.md")
        assert str(raised.value) == "git check-attr stopped unexpectedly"
        assert reader.ask("a.md") == {"text": "unspecified", "crlf": "unspecified", "eol": "unspecified"}
    finally:
        reader.close()
        history.close()


class _ClosedPipe:
    def write(self, data: bytes) -> int:
        raise BrokenPipeError("the reader is gone")

    def flush(self) -> None:  # pragma: no cover - never reached: write fails first
        raise BrokenPipeError("the reader is gone")


def test_attributes_says_when_check_attr_is_gone_before_reading_the_path(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git ended between two questions (its input is a closed pipe): the error says it stopped, unless the
    watchdog gave a reason of its own."""
    commit(repo, "first", {"a.md": "a\n"})
    history, reader = _reader(repo)
    dog = SimpleNamespace(verdict="")
    process = SimpleNamespace(stdin=_ClosedPipe(), stdout=object())
    monkeypatch.setattr(reader, "_start", lambda: (process, dog))
    try:
        with pytest.raises(GitError) as raised:
            reader.ask("a.md")
        assert str(raised.value) == "git check-attr stopped unexpectedly"
        dog.verdict = "git check-attr made no progress for 5 s and was stopped"
        with pytest.raises(GitError) as raised:
            reader.ask("a.md")
        assert str(raised.value) == dog.verdict
    finally:
        history.close()


@pytest.mark.parametrize(
    ("value", "autocrlf"),
    [
        ("true", "true"),
        ("YES", "true"),
        ("on\n", "true"),
        ("1", "true"),
        ("input", "input"),
        ("Input\n", "input"),
        ("false", "false"),
        ("", "false"),
        ("no", "false"),
    ],
)
def test_attributes_reads_core_autocrlf_as_git_does(value: str, autocrlf: str) -> None:
    assert attributes.parse_autocrlf(value.encode()) == autocrlf


@pytest.mark.parametrize(
    ("given", "autocrlf", "action"),
    [
        ({"text": "set"}, "false", attributes.TEXT),
        ({"text": "input"}, "false", attributes.TEXT),
        ({"text": "unset", "eol": "crlf"}, "true", attributes.BINARY),
        ({"text": "auto", "eol": "lf"}, "false", attributes.AUTO),
        ({"crlf": "set"}, "false", attributes.TEXT),
        ({"crlf": "input"}, "false", attributes.TEXT),
        ({"crlf": "unset"}, "true", attributes.BINARY),
        ({"crlf": "auto"}, "false", attributes.AUTO),
        ({"text": "unspecified", "crlf": "unset"}, "true", attributes.BINARY),
        ({"eol": "lf"}, "false", attributes.TEXT),
        ({"eol": "crlf"}, "false", attributes.TEXT),
        ({"eol": "unspecified"}, "false", attributes.BINARY),
        ({"eol": "other"}, "true", attributes.AUTO),
        ({}, "false", attributes.BINARY),
        ({}, "true", attributes.AUTO),
        ({}, "input", attributes.AUTO),
    ],
)
def test_attributes_clean_action_in_git_order(given: dict[str, str], autocrlf: str, action: str) -> None:
    """``text``, else the old ``crlf``; an ``eol`` makes a path text; then ``core.autocrlf``."""
    assert attributes.clean_action(given, autocrlf) == action


# -- stored: the bytes git stores for a path --------------------------------------------------------------


def _checkout(repo: Path) -> tuple[History, stored.Checkout]:
    history = _history(repo)
    return history, stored.Checkout(history.git, history.cat, str(history.git_dir))


def _index_bytes(repo: Path, path: str) -> bytes:
    done = subprocess.run(["git", "cat-file", "blob", f":{path}"], cwd=repo, env=_ENV, capture_output=True, check=True)
    return done.stdout


def _boundary_contents() -> dict[str, bytes]:
    """Files around git's binary guess: one byte of each kind at 127 and 128 printable bytes (the guess is
    ``printable >> 7 < not printable``), two at 255 and 256, a trailing Ctrl-Z, which is not counted."""
    contents: dict[str, bytes] = {}
    for byte in [*range(32), 127, 128, 255]:
        if byte in (10, 13):
            continue
        for count in (127, 128):
            contents[f"byte-{byte}-{count}.md"] = b"x" * count + bytes([byte]) + b"\r\n"
    for count in (255, 256):
        contents[f"two-{count}.md"] = b"x" * count + b"\x01\x02\r\n"
    for count in (127, 128):
        contents[f"spaces-{count}.md"] = b" " * count + b"\x01\r\n"  # a space is printable
    for count in (127, 128):
        contents[f"ctrl-z-{count}.md"] = b"x" * count + b"\x01\r\n\x1a"
        contents[f"ctrl-z-inside-{count}.md"] = b"x" * count + b"\x1a\r\n"
    contents["ctrl-z-only.md"] = b"x\r\n\x1a"
    return contents


def test_stored_guesses_binary_as_git_does_at_every_boundary(repo: Path) -> None:
    """Under ``core.autocrlf=true`` git keeps a file it guesses binary as it is, and stores the others with LF:
    mechlint's bytes are what ``git add`` stores, for every kind of byte on both sides of the threshold."""
    commit(repo, "first", {"README.md": "blog\n"})
    git(repo, "config", "core.autocrlf", "true")
    git(repo, "config", "core.safecrlf", "false")
    contents = _boundary_contents()
    for path, data in contents.items():
        write(repo, path, data)
    history, checkout = _checkout(repo)
    try:
        ours = {path: checkout.stored(path, data) for path, data in contents.items()}
    finally:
        checkout.close()
        history.close()
    git(repo, "add", "--", *contents)
    theirs = {path: _index_bytes(repo, path) for path in contents}
    assert ours == theirs
    converted = sorted(path for path, data in contents.items() if theirs[path] != data)
    kept = sorted(path for path, data in contents.items() if theirs[path] == data)
    assert "byte-1-128.md" in converted and "byte-1-127.md" in kept  # both sides of the threshold are met
    assert "two-256.md" in converted and "two-255.md" in kept
    assert "spaces-128.md" in converted and "spaces-127.md" in kept


def test_stored_reads_an_unset_core_autocrlf_as_false(repo: Path) -> None:
    """No ``core.autocrlf`` at all (``git config`` fails): git stores a CRLF file as it is."""
    commit(repo, "first", {"README.md": "blog\n"})
    history, checkout = _checkout(repo)
    try:
        assert checkout.autocrlf() == "false"
        assert checkout.stored("a.md", b"one\r\ntwo\r\n") == b"one\r\ntwo\r\n"
    finally:
        checkout.close()
        history.close()


@pytest.mark.parametrize("version", [2, 3, 4])
def test_stored_reads_the_index_format_version(repo: Path, version: int) -> None:
    commit(repo, "first", {"README.md": "blog\n"})
    if version == 3:  # git writes format 3 only for an entry with extended flags (skip-worktree)
        git(repo, "update-index", "--skip-worktree", "README.md")
    else:
        git(repo, "update-index", "--index-version", str(version))
    git_dir = str(repo / ".git")
    assert stored.index_version(git_dir) == version
    history, checkout = _checkout(repo)
    try:
        assert checkout.may_skip() is (version >= 3)
    finally:
        checkout.close()
        history.close()


@pytest.mark.parametrize(
    ("index", "version"),
    [
        (None, 0),
        (b"DIRC\x00\x00\x00", 0),  # cut short
        (b"DIRX\x00\x00\x00\x03", 0),  # not an index
        (b"DIRC\x01\x00\x00\x03", 0x01000003),  # all four bytes of the version, big-endian
        ("folder", 0),
    ],
)
def test_stored_index_version_of_a_missing_short_or_strange_index(
    tmp_path: Path, index: bytes | str | None, version: int
) -> None:
    if index == "folder":
        (tmp_path / "index").mkdir()
    elif isinstance(index, bytes):
        (tmp_path / "index").write_bytes(index)
    assert stored.index_version(str(tmp_path)) == version


def test_stored_lists_head_and_the_index_with_modes_sparse_paths_and_conflicts(repo: Path) -> None:
    """``ls-tree`` and ``ls-files -s -t`` read whole: modes, blob ids, the skip-worktree paths, and an unmerged
    path as a conflict."""
    first = commit(repo, "first", {"a.md": "a\n", "kept/b.md": "b\n", "left/c.md": "c\n"})
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    git(repo, "add", "run.sh")
    commit(repo, "script")
    blob = {path: git(repo, "rev-parse", f"HEAD:{path}") for path in ("a.md", "kept/b.md", "left/c.md", "run.sh")}
    head = {
        "a.md": ("100644", blob["a.md"]),
        "kept/b.md": ("100644", blob["kept/b.md"]),
        "left/c.md": ("100644", blob["left/c.md"]),
        "run.sh": ("100755", blob["run.sh"]),
    }
    history, checkout = _checkout(repo)
    try:
        assert stored.tree_entries(history.git, "HEAD") == head
        assert checkout.head() == head
        assert stored.tree_entries(history.git, first) == {k: v for k, v in head.items() if k != "run.sh"}
    finally:
        checkout.close()
        history.close()
    git(repo, "sparse-checkout", "set", "--no-cone", "/a.md", "/kept/", "/run.sh")
    git(repo, "checkout", "-q", "-b", "other")
    commit(repo, "other side", {"a.md": "other\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "this side", {"a.md": "this\n"})
    subprocess.run(["git", "merge", "-q", "other"], cwd=repo, env=_ENV, capture_output=True, check=False)
    history, checkout = _checkout(repo)
    try:
        entries, skipped = stored.index_entries(history.git)
        assert entries == {**head, "a.md": ("100644", "conflict")}
        assert skipped == {"left/c.md"}
        assert checkout.outside("left/c.md") == blob["left/c.md"]
        assert [checkout.outside(path) for path in ("a.md", "kept/b.md", "gone.md")] == [None, None, None]
    finally:
        checkout.close()
        history.close()


def test_stored_head_before_the_first_commit_is_empty(repo: Path) -> None:
    history, checkout = _checkout(repo)
    try:
        assert checkout.head() == {}
    finally:
        checkout.close()
        history.close()


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_stored_blob_id_in_the_object_format_of_the_repository(tmp_path: Path, object_format: str) -> None:
    repo = tmp_path / object_format
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", f"--object-format={object_format}")
    data = b"the bytes\n"
    write(repo, "a.md", data)
    oid = git(repo, "hash-object", "a.md")
    assert stored.blob_id(data, oid) == oid
    assert stored.blob_id(b"", oid) == git(repo, "hash-object", "--stdin")  # empty standard input


def test_stored_a_sparse_path_and_the_same_bytes_checked_out_are_not_one_cached_answer(repo: Path) -> None:
    """The result cache's key holds what the working tree has at a source path, the sparse checkout's word
    included: once the path is checked out again, with the very bytes HEAD has, the message no longer says
    it is outside the sparse checkout."""
    commit(repo, "v1", {"sources/post.md": V1, "sources/kept.md": V1})
    commit(repo, "v2", {"sources/post.md": V2})
    commit(repo, "mechanism", {MECHANISM: mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}])})
    git(repo, "sparse-checkout", "set", "content")
    _, results = provenance(repo, MECHANISM)
    assert [(r["rule"], r["pointer"]) for r in results] == [("provenance/stale-source", "/sources/0/sha256")]
    assert "the file is outside the sparse checkout, so its bytes in HEAD were checked" in results[0]["message"]
    git(repo, "sparse-checkout", "disable")
    assert (repo / "sources" / "post.md").read_text() == V2
    again = provenance(repo, MECHANISM)
    assert again == provenance(repo, "--no-cache", MECHANISM)
    assert [(r["rule"], r["pointer"]) for r in again[1]] == [("provenance/stale-source", "/sources/0/sha256")]
    assert "sparse" not in again[1][0]["message"]


@pytest.fixture
def small_keep(monkeypatch: pytest.MonkeyPatch) -> int:
    """Bytes kept in memory of a file: 16 here, so that the files around the limit are small."""
    from mechlint.provenance import paths

    monkeypatch.setattr(paths, "KEEP_BYTES", 16)
    return 16


def _source_state(repo: Path, path: str, *, blob_id: bool = False) -> FileState:
    from mechlint.provenance import paths

    history, checkout = _checkout(repo)
    try:
        state = paths.hash_source(repo, path, blob_id=blob_id, keep=paths.KEEP_BYTES)
        return stored.source_state(checkout, repo, path, path, state, blob_id)
    finally:
        checkout.close()
        history.close()


def test_stored_keeps_the_bytes_of_a_sparse_path_up_to_the_limit(repo: Path, small_keep: int) -> None:
    commit(repo, "first", {"left/a.md": b"a" * 15 + b"\n", "left/b.md": b"b" * 16 + b"\n", "kept.md": "k\n"})
    git(repo, "sparse-checkout", "set", "--no-cone", "/kept.md")
    a, b = _source_state(repo, "left/a.md"), _source_state(repo, "left/b.md")
    blob = git(repo, "rev-parse", "HEAD:left/a.md")
    detail = "is outside the sparse checkout (its bytes in HEAD are used)"
    assert a == FileState("file", sha(b"a" * 15 + b"\n"), 16, b"a" * 15 + b"\n", detail, blob, False, sparse=True)
    assert (b.size, b.data, b.sparse) == (17, None, True)


def test_stored_converts_a_file_too_large_to_keep_by_reading_it_again(repo: Path, small_keep: int) -> None:
    """A CRLF file larger than is kept is read again, whole, and converted; the converted bytes are kept up to
    the limit (16 bytes: kept; 17: not)."""
    commit(repo, "first", {"README.md": "blog\n"})
    git(repo, "config", "core.autocrlf", "true")
    write(repo, "a.md", b"0123456\r\n0123456\r\n")  # 18 bytes, 16 once converted
    write(repo, "b.md", b"01234567\r\n0123456\r\n")  # 19 bytes, 17 once converted
    a, b = _source_state(repo, "a.md", blob_id=True), _source_state(repo, "b.md")
    assert (a.sha256, a.size, a.data, a.git_blob) == (
        sha(b"0123456\n0123456\n"),
        16,
        b"0123456\n0123456\n",
        stored.blob_id(b"0123456\n0123456\n", "0" * 40),
    )
    assert (b.sha256, b.size, b.data, b.git_blob) == (sha(b"01234567\n0123456\n"), 17, None, "")


def test_stored_leaves_a_file_that_changed_while_read_to_the_rules(
    repo: Path, small_keep: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read again whole, the file had grown past what was read: its first state stands (the rules read it again)."""
    from mechlint.provenance import paths

    commit(repo, "first", {"README.md": "blog\n"})
    git(repo, "config", "core.autocrlf", "true")
    write(repo, "a.md", b"0123456\r\n0123456\r\n")
    first = paths.hash_source(repo, "a.md", keep=16)
    monkeypatch.setattr(paths, "hash_source", lambda *args, **kwargs: FileState("file", "grown", 99))
    history, checkout = _checkout(repo)
    try:
        assert stored.source_state(checkout, repo, "a.md", "a.md", first, False) is first
    finally:
        checkout.close()
        history.close()


def test_stored_asks_git_nothing_about_a_file_without_a_crlf_pair(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git converts nothing in a file with no CRLF pair: its bytes are stored as they are, and ``check-attr`` is
    not asked about it (the module's promise: git is asked only where it can matter)."""
    commit(repo, "attributes", {".gitattributes": "* text\n"})
    git(repo, "config", "core.autocrlf", "true")
    asked: list[str] = []
    ask = attributes.AttributeReader.ask
    monkeypatch.setattr(attributes.AttributeReader, "ask", lambda self, path: asked.append(path) or ask(self, path))
    history, checkout = _checkout(repo)
    try:
        assert checkout.stored("a.md", b"one\rtwo\n") == b"one\rtwo\n"
        assert asked == []
        assert checkout.stored("b.md", b"one\r\ntwo\n") == b"one\ntwo\n"
        assert asked == ["b.md"]
    finally:
        checkout.close()
        history.close()


# -- source: the facts the rules decide on ------------------------------------------------------------------


def test_source_says_when_git_fails_looking_the_pinned_bytes_up(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git fails while listing a path's history: the source, and a frozen copy's original, are "failed", with
    git's words, never "nowhere"."""

    def failing(self: History, path: str) -> list[Revision]:
        raise GitError("git log failed: a test")

    commit(repo, "article", {"content/post.md": "v1\n", "content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "figure", {"content/fig.svg": "<svg>2</svg>\n"})
    write(repo, "content/post.md", "v2\n")
    write(repo, "research/m/before/content/fig.svg", "<svg>1</svg>\n")
    mechanism(
        repo,
        [
            {"path": "content/post.md", "sha256": sha("v1\n")},
            {"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")},
        ],
    )
    monkeypatch.setattr(History, "path_history", failing)
    unread = "git could not read all of the history; this could not be checked, so it is an error: repair the "
    assert run(repo) == [
        (
            "provenance/history-unavailable",
            "/sources/0/path",
            f'looking up "content/post.md" failed (git log failed: a test), but {unread}repository (git fsck) or '
            "make a fresh clone",
        ),
        (
            "provenance/history-unavailable",
            "/sources/1/path",
            '"research/m/before/content/fig.svg" is a frozen copy of "content/fig.svg", and looking it up failed '
            f"(git log failed: a test), but {unread}repository (git fsck) or make a fresh clone",
        ),
    ]


def test_source_a_gone_frozen_copy_whose_original_held_the_bytes_only_on_an_unmerged_branch(repo: Path) -> None:
    """No copy in the working tree, and only a branch HEAD lacks held the pinned bytes at the original path: the
    source is "unreachable" at its original path (named, with the branch), not "nowhere"."""
    commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    git(repo, "checkout", "-q", "-b", "feature")
    side = commit(repo, "on the feature branch", {"content/fig.svg": "<svg>side</svg>\n"})
    git(repo, "checkout", "-q", "main")
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>side</svg>\n")}])
    there = f'{_describe(repo, side)}"on the feature branch"), on branch "feature", which HEAD does not contain'
    must = (
        'a frozen copy must hold, byte for byte, a version its original path "content/fig.svg" had in a commit '
        '(git log -- "content/fig.svg" lists them): copy the version the mechanism was made from, and pin that'
    )
    assert run(repo) == [
        (
            "provenance/frozen-copy-mismatch",
            "/sources/0/path",
            '"research/m/before/content/fig.svg" is a frozen copy of "content/fig.svg", but its pinned bytes never '
            'existed at "content/fig.svg" (or a name it had before a rename) in any commit of HEAD\'s history; they '
            f"are there only in {there}; the copy is not the pre-migration file; {must}",
        ),
        (
            "provenance/missing-source",
            "/sources/0/path",
            'nothing is at "research/m/before/content/fig.svg", and nothing ever was in the history of HEAD; the '
            f'pinned bytes are at its original path "content/fig.svg" only in {there}; {must}',
        ),
    ]


def test_source_claims_of_frozen_copies(repo: Path) -> None:
    """A frozen copy's claim, as :attr:`Source.claim` documents it: the commit that held its bytes at the original
    path, the original path holding them now (not committed yet, and only when the copy holds them too), or
    nowhere; none for a source that is no copy."""
    first = commit(
        repo,
        "figures",
        {"content/a.svg": "<svg>a</svg>\n", "content/b.svg": "<svg>b</svg>\n", "content/e.svg": "<svg>e</svg>\n"},
    )
    write(repo, "content/b.svg", "<svg>b, new</svg>\n")
    write(repo, "content/d.svg", "<svg>d</svg>\n")
    copies = {
        "research/m/before/content/a.svg": ("<svg>a</svg>\n", "<svg>a</svg>\n"),
        "research/m/before/content/b.svg": ("<svg>b, new</svg>\n", "<svg>b, new</svg>\n"),
        "research/m/before/content/c.svg": ("<svg>c</svg>\n", "<svg>c</svg>\n"),
        # the original holds the pinned bytes now, but the copy holds others: nothing vouches for them
        "research/m/before/content/d.svg": ("<svg>d, edited copy</svg>\n", "<svg>d</svg>\n"),
        # the copy holds the pinned bytes, the original other ones
        "research/m/before/content/e.svg": ("<svg>e, copy</svg>\n", "<svg>e, copy</svg>\n"),
    }
    for path, (data, _) in copies.items():
        write(repo, path, data)
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        data = {"sources": [{"path": p, "sha256": sha(pinned)} for p, (_, pinned) in copies.items()]}
        data["sources"].append({"path": "content/a.svg", "sha256": sha("<svg>a</svg>\n")})
        claims = [source.claim for _, source in provenance.sources(data, location)]
    finally:
        provenance.close()
    a, *others = claims
    assert a is not None and (a.kind, a.original, a.revision and a.revision.commit) == (
        HISTORY,
        "content/a.svg",
        first,
    )
    assert others == [
        Pinned(WORKING_TREE, original="content/b.svg"),
        Pinned(NOWHERE, original="content/c.svg"),
        Pinned(NOWHERE, original="content/d.svg"),
        Pinned(NOWHERE, original="content/e.svg"),
        None,
    ]


def test_source_a_frozen_copy_in_a_shallow_clone_cannot_be_checked(tmp_path: Path) -> None:
    """The copy's bytes were at its original path only in a commit beyond the shallow boundary: its claim is
    "beyond the clone", which history-unavailable names, never a mismatch."""
    repo = init(tmp_path / "blog")
    commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "migrate", {"content/fig.svg": "<svg>2</svg>\n"})
    write(repo, "research/m/before/content/fig.svg", "<svg>1</svg>\n")
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")}])
    git(repo, "add", "-A")
    commit(repo, "mechanism")
    clone = shallow_clone(repo, tmp_path / "clone")
    assert run(clone) == [
        (
            "provenance/history-unavailable",
            "/sources/0/path",
            '"research/m/before/content/fig.svg" is a frozen copy of "content/fig.svg", and its pinned bytes are not '
            "in the history this clone has, but this is a shallow clone; mechlint could not judge "
            "provenance/frozen-copy-mismatch; fetch the full history (git fetch --unshallow; in GitHub Actions, "
            "actions/checkout with fetch-depth: 0)",
        )
    ]


def test_source_revisions_are_none_when_git_cannot_say(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """:attr:`Source.revisions` is the empty list, not an error, when git fails listing the path's history."""

    def failing(self: History, path: str) -> list[Revision]:
        raise GitError("git log failed: a test")

    commit(repo, "article", {"content/post.md": "v1\n"})
    location = mechanism(repo, [])
    monkeypatch.setattr(History, "path_history", failing)
    provenance = Provenance(repo)
    try:
        [(_, source)] = provenance.sources({"sources": [{"path": "content/post.md"}]}, location)
        assert source.revisions == []
    finally:
        provenance.close()


def test_source_never_takes_the_digest_cache_at_its_word(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The blob digests kept between runs say every blob has the pinned sha256 (a cache gone wrong): each blob
    is read again before a commit is said to hold the pinned bytes, so none is."""
    from mechlint.provenance.index import BlobIndex

    commit(repo, "article", {"content/post.md": "v1\n"})
    commit(repo, "edit", {"content/post.md": "v2\n"})
    write(repo, "content/post.md", "v3\n")
    pinned = sha("never committed\n")
    monkeypatch.setattr(BlobIndex, "digests", lambda self, oids: dict.fromkeys(oids, pinned))
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        [(_, source)] = provenance.sources({"sources": [{"path": "content/post.md", "sha256": pinned}]}, location)
        assert source.pinned == Pinned(NOWHERE)
    finally:
        provenance.close()


def test_source_holders_of_a_source_with_no_sha256_are_none(repo: Path) -> None:
    """Which paths hold the pinned bytes is unknowable without a sha256: none, though other files exist."""
    commit(repo, "article", {"content/post.md": "v1\n", "content/other.md": "v1\n"})
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        [(_, source)] = provenance.sources({"sources": [{"path": "content/gone.md"}]}, location)
        assert source.holders == []
    finally:
        provenance.close()


def test_source_holders_outside_any_repository_are_none(tmp_path: Path) -> None:
    """No history, no index of blobs: which paths hold the pinned bytes is unknowable, so none."""
    folder = tmp_path / "blog"
    folder.mkdir()
    location = mechanism(folder, [])
    provenance = Provenance(folder)
    try:
        [(_, source)] = provenance.sources({"sources": [{"path": "content/gone.md", "sha256": sha("v1\n")}]}, location)
        assert source.holders == []
    finally:
        provenance.close()


def test_source_holders_when_git_fails_are_none(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HEAD holds the pinned bytes at another path, but git fails listing HEAD's tree: none are named."""
    commit(repo, "article", {"content/other.md": "v1\n"})
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        [(_, source)] = provenance.sources({"sources": [{"path": "content/gone.md", "sha256": sha("v1\n")}]}, location)
        [(_, again)] = provenance.sources({"sources": [{"path": "content/lost.md", "sha256": sha("v1\n")}]}, location)
        assert [holder.path for holder in source.holders] == ["content/other.md"]

        def failing(self: History, commit: str) -> dict[str, str]:
            raise GitError("git ls-tree failed: a test")

        monkeypatch.setattr(History, "tree", failing)
        assert again.holders == []
    finally:
        provenance.close()


def test_stored_leaves_a_gone_path_and_a_plain_file_as_they_are_and_marks_a_sparse_path_without_its_blob(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing to convert: a path gone from the index too and a file with no CRLF pair keep the state read from
    the working tree. A path the sparse checkout leaves out whose blob the clone lacks (a partial clone) stays
    absent, marked as left out: it is not gone, its bytes are unknown."""
    from mechlint.provenance import paths

    commit(repo, "first", {"plain.md": "plain\n", "left/a.md": "a\n", "kept.md": "k\n"})
    git(repo, "sparse-checkout", "set", "--no-cone", "/plain.md", "/kept.md")
    history, checkout = _checkout(repo)
    try:
        for path in ("gone.md", "plain.md"):
            state = paths.hash_source(repo, path)
            assert stored.source_state(checkout, repo, path, path, state, False) is state
        monkeypatch.setattr(stored.Checkout, "read", lambda self, oid: None)
        state = paths.hash_source(repo, "left/a.md")
        assert state.kind == "absent"
        assert stored.source_state(checkout, repo, "left/a.md", "left/a.md", state, False) == paths.FileState(
            "absent", detail="is outside the sparse checkout, and its bytes are not in the clone", sparse=True
        )
    finally:
        checkout.close()
        history.close()


def test_stored_leaves_a_crlf_file_git_stores_as_it_is(repo: Path) -> None:
    """A CRLF file in a checkout with no line-ending conversion: git stores its bytes as they are, so its state
    is the one read."""
    from mechlint.provenance import paths

    commit(repo, "first", {"README.md": "blog\n"})
    write(repo, "a.md", b"one\r\ntwo\r\n")
    state = paths.hash_source(repo, "a.md")
    assert state.crlf
    history, checkout = _checkout(repo)
    try:
        assert stored.source_state(checkout, repo, "a.md", "a.md", state, False) is state
    finally:
        checkout.close()
        history.close()


# -- services: the per-run services, built lazily and closed once ---------------------------------------------------


def test_the_run_services_flush_and_close_only_what_was_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mechlint.provenance.services import RunServices

    flushed: list[object] = []
    monkeypatch.setattr(Provenance, "flush", lambda self: flushed.append(self))
    idle = RunServices(tmp_path)
    idle.flush()  # nothing built: nothing to flush or close, and no error
    idle.close()
    assert flushed == []
    services = RunServices(tmp_path)
    first = services.provenance()
    assert services.provenance() is first  # built once
    services.flush()
    assert flushed == [first]
    services.close()
    again = services.provenance()  # closed: the next run's call builds a new one
    assert again is not first
    services.close()


def test_no_history_answers_every_question_with_nothing_and_vouches_for_nothing() -> None:
    """The history of a folder outside any repository: the same questions as ``History``, each answered with
    nothing found (never ``None``), and a working tree that may differ from anything (``is_dirty``)."""
    from mechlint.provenance.nohistory import NoHistory

    none = NoHistory("not in a git repository")
    assert (none.exists, none.complete, none.answers) == (False, False, None)
    assert none.state() == RepositoryState(shallow=False, partial=False, head=None)
    assert none.state().shallow is False and none.state().partial is False
    assert none.path_history("post.md") == [] and none.blob_holders("0" * 40) == []
    assert none.tree("HEAD") == {} and none.changes("HEAD") == []
    assert none.unmerged_refs() == [] and none.refs_containing("HEAD") == []
    assert none.is_ancestor("a", "b") is False
    assert none.is_dirty() is True
    assert none.describe("0123456789abcdef") == "0123456789ab"
    assert none.unavailable() == none.unavailable(GitError("ignored"))
    none.close()


def test_the_one_pass_answers_for_a_path_added_in_the_root_commit_only(tmp_path: Path) -> None:
    """``AllChanges.follow`` gives the revisions of a path every addition of which is in a root commit, and
    ``None`` (ask git for that path alone) for a path added in a commit with a parent."""
    from mechlint.provenance.onepass import ARGS, AllChanges

    repo = init(tmp_path / "blog")
    commit(repo, "first", {"a.md": "1\n"})
    commit(repo, "second", {"a.md": "2\n", "b.md": "b\n"})
    output = subprocess.run(["git", "log", *ARGS, "HEAD"], cwd=repo, env=_ENV, capture_output=True, check=True).stdout
    changes = AllChanges(output)
    followed = changes.follow("a.md")
    assert followed is not None and [r.path for r in followed] == ["a.md", "a.md"]
    assert changes.follow("b.md") is None
    assert changes.follow("c.md") == []
