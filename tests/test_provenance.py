"""Provenance against real repositories built here: every case of the catalogue, and hostile ones."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint import lint
from mechlint.config import Config
from mechlint.provenance.log import parse_log
from mechlint.provenance.paths import path_problem

from .gitrepo import commit, git, init, shallow_clone, write


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def mechanism(repo: Path, sources: list[dict[str, str]], name: str = "m.json") -> Path:
    base = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json").read_text()
    )
    base["sources"] = [{"description": "A source.", **source} for source in sources]
    return write(repo, f"content/mechanisms/{name}", json.dumps(base, indent=2, ensure_ascii=False))


def run(repo: Path, target: Path | None = None, **config: object) -> list[tuple[str, str, str]]:
    report = lint([target or repo / "content"], Config(root=repo, **config), root=repo)  # type: ignore[arg-type]
    return [(r.rule_id, r.pointer, r.message) for r in report.results if r.rule_id.startswith("provenance/")]


def ids(found: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    return [(rule, pointer) for rule, pointer, _ in found]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


# -- paths ---------------------------------------------------------------------


ABSOLUTE = "the path is absolute; write it relative to the repository root"
DOTS = "the path has a '..' component"
EMPTY_PART = "the path has an empty or '.' component"
INTO_GIT = "the path goes into .git"


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("", "the path is empty"),
        ("/etc/passwd", ABSOLUTE),
        ("../x", DOTS),
        ("a/../b", DOTS),
        ("a//b", EMPTY_PART),
        ("./a", EMPTY_PART),
        ("a/./b", EMPTY_PART),
        (".git/config", INTO_GIT),
        ("a/.GIT/x", INTO_GIT),
        (".Git./config", INTO_GIT),
        ("a\\b", "the path contains a backslash; use / between folders"),
        ("-rf", "the path starts with '-'"),
        ("a\0b", "the path contains the control or invisible character U+0000"),
        ("a\nb", "the path contains the control or invisible character U+000A"),
        ("a\u202eb", "the path contains the control or invisible character U+202E"),
        ("a\u200bb", "the path contains the control or invisible character U+200B"),
        ("C:/x", ABSOLUTE),
        ("a/", EMPTY_PART),
    ],
)
def test_unsafe_paths_are_refused(path: str, why: str) -> None:
    assert path_problem(path) == why


@pytest.mark.parametrize(
    "path", ["a", "content/blog/post.md", "a-b/c_d.svg", "x/.gitignore", "日本/ファイル.md", "a/-b"]
)
def test_safe_paths_pass(path: str) -> None:
    assert path_problem(path) is None


# -- the catalogue, case by case -----------------------------------------------


def test_matching_file_is_fine_and_unpinned_is_reported(repo: Path) -> None:
    commit(repo, "post", {"post.md": "v1\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}, {"path": "post.md"}])
    assert ids(run(repo)) == [("provenance/unpinned-source", "/sources/1")]


def test_modified_source_is_stale_and_names_both_commits(repo: Path) -> None:
    first = commit(repo, "first", {"post.md": "v1\n"})
    second = commit(repo, "second", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    [(rule, pointer, message)] = run(repo)
    assert (rule, pointer) == ("provenance/stale-source", "/sources/0/sha256")
    assert first[:12] in message and second[:12] in message


def test_uncommitted_change_is_stale(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    write(repo, "post.md", "edited\n")
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source" and "not committed" in message


def test_deleted_source_is_gone_with_its_commits(repo: Path) -> None:
    first = commit(repo, "first", {"old.svg": "<svg/>\n"})
    deleted = commit(repo, "delete", {"old.svg": None})
    mechanism(repo, [{"path": "old.svg", "sha256": sha("<svg/>\n")}])
    [(rule, pointer, message)] = run(repo)
    assert (rule, pointer) == ("provenance/gone-source", "/sources/0/path")  # not a frozen copy: a warning (issue 26)
    assert f"commit {deleted[:12]}" in message and "deleted it" in message and first[:12] in message


def test_never_held_bytes_are_a_digest_mismatch(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("never\n")}])
    assert ids(run(repo)) == [("provenance/digest-mismatch", "/sources/0/sha256")]


def test_gone_and_never_held_at_a_path_that_existed_is_a_digest_mismatch(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    commit(repo, "delete", {"post.md": None})
    mechanism(repo, [{"path": "post.md", "sha256": sha("never\n")}])
    assert ids(run(repo)) == [("provenance/digest-mismatch", "/sources/0/sha256")]


def test_nothing_anywhere_is_missing_source(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    mechanism(repo, [{"path": "psot.md", "sha256": sha("never\n")}])
    assert ids(run(repo)) == [("provenance/missing-source", "/sources/0/path")]


def test_rename_is_followed(repo: Path) -> None:
    first = commit(repo, "first", {"old-name.md": "v1\n" * 20})
    git(repo, "mv", "old-name.md", "new-name.md")
    commit(repo, "rename")
    commit(repo, "edit", {"new-name.md": "v1\n" * 20 + "v2\n"})
    mechanism(repo, [{"path": "new-name.md", "sha256": sha("v1\n" * 20)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source" and first[:12] in message


def test_rename_inside_a_merge_is_followed(repo: Path) -> None:
    commit(repo, "first", {"a.md": "alpha\n" * 20, "other.md": "x\n"})
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "mv", "a.md", "b.md")
    commit(repo, "rename on side")
    git(repo, "checkout", "-q", "main")
    commit(repo, "main moves on", {"other.md": "y\n"})
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    commit(repo, "edit", {"b.md": "alpha\n" * 20 + "beta\n"})
    mechanism(repo, [{"path": "b.md", "sha256": sha("alpha\n" * 20)}])
    assert ids(run(repo)) == [("provenance/stale-source", "/sources/0/sha256")]


def test_bytes_only_on_a_side_branch_or_tag_are_found_never_a_resolution(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {"draft.md": "draft\n"})
    git(repo, "tag", "kept", side)
    git(repo, "checkout", "-q", "main")
    git(repo, "branch", "-q", "-D", "side")
    mechanism(repo, [{"path": "draft.md", "sha256": sha("draft\n")}])
    [(rule, _, message)] = run(repo)
    # history is what HEAD reaches: the bytes are said to be on the tag, and the path is missing from HEAD's
    assert rule == "provenance/missing-source" and side[:12] in message and 'tag "kept"' in message


def test_frozen_copy_claim(repo: Path) -> None:
    commit(repo, "original", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "changed", {"content/fig.svg": "<svg>2</svg>\n"})
    write(repo, "research/m/before/content/fig.svg", "<svg>1</svg>\n")
    write(repo, "research/m/before/content/forged.svg", "<svg>forged</svg>\n")
    mechanism(
        repo,
        [
            {"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")},
            {"path": "research/m/before/content/forged.svg", "sha256": sha("<svg>forged</svg>\n")},
        ],
    )
    assert ids(run(repo)) == [("provenance/frozen-copy-mismatch", "/sources/1/path")]


def test_frozen_copy_pattern_is_configurable(repo: Path) -> None:
    commit(repo, "original", {"content/fig.svg": "<svg>1</svg>\n"})
    write(repo, "archive/content/fig.svg", "<svg>edited</svg>\n")
    mechanism(repo, [{"path": "archive/content/fig.svg", "sha256": sha("<svg>edited</svg>\n")}])
    assert run(repo) == []
    options = {"provenance/frozen-copy-mismatch": {"pattern": "archive/**"}}
    assert ids(run(repo, options=options)) == [("provenance/frozen-copy-mismatch", "/sources/0/path")]


def test_shallow_clone_reports_history_unavailable_never_missing(repo: Path, tmp_path: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n", "old.svg": "<svg/>\n"})
    commit(repo, "second", {"post.md": "v2\n", "old.svg": None})
    mechanism(
        repo,
        [
            {"path": "post.md", "sha256": sha("v1\n")},
            {"path": "old.svg", "sha256": sha("<svg/>\n")},
            {"path": "post.md", "sha256": sha("v2\n")},
        ],
    )
    commit(repo, "mechanism", {"content/mechanisms/m.json": (repo / "content/mechanisms/m.json").read_bytes()})
    clone = shallow_clone(repo, tmp_path / "clone")
    found = run(clone)
    assert ids(found) == [
        ("provenance/history-unavailable", "/sources/0/path"),
        ("provenance/history-unavailable", "/sources/1/path"),
    ]
    assert all("fetch-depth: 0" in message for _, _, message in found)


def test_no_git_repository_reports_history_unavailable(tmp_path: Path) -> None:
    write(tmp_path, "post.md", "v2\n")
    mechanism(tmp_path, [{"path": "post.md", "sha256": sha("v1\n")}, {"path": "post.md", "sha256": sha("v2\n")}])
    assert ids(run(tmp_path)) == [("provenance/history-unavailable", "/sources/0/path")]


def test_line_endings_explain_a_mismatch(repo: Path) -> None:
    commit(repo, "first", {"post.md": b"line one\r\nline two\r\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha(b"line one\nline two\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/digest-mismatch" and "with LF line endings: only its line endings differ" in message


def test_crlf_checkout_of_the_pinned_blob_is_fine(repo: Path) -> None:
    write(repo, ".gitattributes", "*.md text eol=crlf\n")
    commit(repo, "first", {".gitattributes": "*.md text eol=crlf\n", "post.md": "a\nb\n"})
    (repo / "post.md").unlink()
    git(repo, "checkout", "--", "post.md")
    assert (repo / "post.md").read_bytes() == b"a\r\nb\r\n"
    mechanism(repo, [{"path": "post.md", "sha256": sha("a\nb\n")}])
    assert run(repo) == []


def test_lfs_pointer_matches_by_its_oid(repo: Path) -> None:
    oid = sha(b"large binary content")
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize 20\n"
    commit(repo, "lfs", {"big.bin": pointer})
    mechanism(repo, [{"path": "big.bin", "sha256": oid}])
    assert run(repo) == []
    commit(repo, "gone", {"big.bin": None})
    assert ids(run(repo)) == [("provenance/gone-source", "/sources/0/path")]


def test_hostile_working_tree_entries_are_unsafe_and_never_opened(repo: Path, tmp_path: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    outside = tmp_path / "secret.txt"
    outside.write_text("secret\n")
    (repo / "out.md").symlink_to(outside)
    (repo / "loop.md").symlink_to(repo / "loop.md")
    (repo / "broken.md").symlink_to(repo / "nothing.md")
    os.mkfifo(repo / "pipe.md")
    (repo / "folder.md").mkdir()
    names = ["out.md", "loop.md", "broken.md", "pipe.md", "folder.md"]
    mechanism(repo, [{"path": name, "sha256": sha("secret\n")} for name in names])
    assert ids(run(repo)) == [("provenance/unsafe-path", f"/sources/{i}/path") for i in range(len(names))]


def test_unsafe_path_reads_nothing(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    mechanism(repo, [{"path": p, "sha256": sha("x")} for p in ("../etc/passwd", ".git/config", "/etc/passwd")])
    assert [rule for rule, _, _ in run(repo)] == ["provenance/unsafe-path"] * 3


def test_submodule_path(repo: Path, tmp_path: Path) -> None:
    sub = init(tmp_path / "sub")
    commit(sub, "sub", {"notes.md": "sub v1\n"})
    commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.as_uri(), "vendor/sub")
    commit(repo, "add submodule")
    mechanism(
        repo,
        [
            {"path": "vendor/sub/notes.md", "sha256": sha("sub v1\n")},
            {"path": "vendor/sub/notes.md", "sha256": sha("x")},
        ],
    )
    assert ids(run(repo)) == [("provenance/history-unavailable", "/sources/1/path")]


def test_hostile_git_configuration_never_runs(repo: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\ncat\n")
    script.chmod(0o755)
    commit(repo, "first", {".gitattributes": "*.md filter=evil diff=evil\n", "post.md": "v1\n"})
    commit(repo, "second", {"post.md": "v2\n"})
    for key, value in [
        ("core.fsmonitor", str(script)),
        ("filter.evil.clean", str(script)),
        ("filter.evil.smudge", str(script)),
        ("diff.evil.textconv", str(script)),
        ("core.pager", str(script)),
        ("diff.external", str(script)),
    ]:
        git(repo, "config", key, value)
    hooks = repo / ".git" / "hooks"
    for hook in ("post-checkout", "pre-commit", "reference-transaction"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (hooks / hook).chmod(0o755)
    marker.unlink(missing_ok=True)
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}, {"path": "gone.md", "sha256": sha("zz")}])
    assert ids(run(repo)) == [
        ("provenance/stale-source", "/sources/0/sha256"),
        ("provenance/missing-source", "/sources/1/path"),
    ]
    assert not marker.exists()


def test_inherited_git_environment_is_ignored(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = init(tmp_path / "other")
    commit(other, "other", {"post.md": "other\n"})
    commit(repo, "first", {"post.md": "v1\n"})
    commit(repo, "second", {"post.md": "v2\n"})
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    assert ids(run(repo)) == [("provenance/stale-source", "/sources/0/sha256")]


def test_cache_is_used_rebuilt_when_corrupt_and_optional(repo: Path) -> None:
    commit(repo, "first", {"a.md": "a\n", "b.md": "b\n"})
    commit(repo, "second", {"a.md": None})
    mechanism(repo, [{"path": "a.md", "sha256": sha("a\n")}, {"path": "moved.md", "sha256": sha("a\n")}])
    expected = [("provenance/gone-source", "/sources/0/path"), ("provenance/missing-source", "/sources/1/path")]
    assert ids(run(repo)) == expected
    cache = repo / ".git" / "mechlint" / "blobs.sqlite3"
    assert cache.is_file()
    assert ids(run(repo)) == expected
    cache.write_bytes(b"this is not a database" * 100)
    assert ids(run(repo)) == expected
    (repo / ".git" / "mechlint").chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert ids(run(repo)) == expected
    finally:
        (repo / ".git" / "mechlint").chmod(stat.S_IRWXU)


def test_a_lying_cache_is_not_trusted(repo: Path) -> None:
    import sqlite3

    commit(repo, "first", {"a.md": "a\n"})
    commit(repo, "second", {"a.md": None})
    mechanism(repo, [{"path": "elsewhere.md", "sha256": sha("forged\n")}])
    assert ids(run(repo)) == [("provenance/missing-source", "/sources/0/path")]
    connection = sqlite3.connect(repo / ".git" / "mechlint" / "blobs.sqlite3")
    with connection:
        connection.execute("UPDATE blobs SET sha256 = ?", (sha("forged\n"),))
    connection.close()
    assert ids(run(repo)) == [("provenance/missing-source", "/sources/0/path")]


def test_parse_log_reads_renames_and_deletions() -> None:
    a, b, c = "a" * 40, "b" * 40, "c" * 40
    zero = "0" * 40
    output = (
        f"\x01{c} 30\0\n:100644 000000 {b} {zero} D\0new.md\0"
        f"\x01{b} 20\0\n:100644 100644 {a} {b} R090\0old.md\0new.md\0"
    ).encode()
    revisions = parse_log(output)
    assert [(r.commit[0], r.path, r.blob, r.previous) for r in revisions] == [
        ("c", "new.md", None, b),
        ("b", "new.md", b, a),
    ]


def test_parallel_indexing_gives_the_same_answer(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mechlint.provenance.index as index

    commit(repo, "first", {f"f{i}.md": f"file {i}\n" for i in range(30)})
    commit(repo, "second", {"f7.md": None})
    mechanism(repo, [{"path": "f7.md", "sha256": sha("file 7\n")}, {"path": "x.md", "sha256": sha("never\n")}])
    expected = [("provenance/gone-source", "/sources/0/path"), ("provenance/missing-source", "/sources/1/path")]
    assert ids(run(repo)) == expected
    (repo / ".git" / "mechlint" / "blobs.sqlite3").unlink()
    monkeypatch.setattr(index, "PARALLEL_FROM", 1)
    assert ids(run(repo)) == expected


def test_history_answers_are_kept_between_runs_while_the_refs_stay(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mechlint.provenance.git import Git

    commit(repo, "first", {"post.md": "v1\n"})
    commit(repo, "second", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v3\n")}])
    first = run(repo)
    assert ids(first) == [("provenance/digest-mismatch", "/sources/0/sha256")]
    asked: list[tuple[str, ...]] = []
    real_run = Git.run

    def counting(self: Git, *args: str, check: bool = True) -> bytes:
        asked.append(args)
        return real_run(self, *args, check=check)

    monkeypatch.setattr(Git, "run", counting)
    assert run(repo) == first  # the same answer, and git was not asked for the log again
    assert not [args for args in asked if args[0] == "log"]
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "third", {"post.md": "v3\n"})
    git(repo, "checkout", "-q", "main")  # new refs: the kept answers no longer apply
    asked.clear()
    [(rule, _, message)] = run(repo)  # bytes on an unmerged branch are said to be there, never a resolution
    assert rule == "provenance/digest-mismatch" and 'branch "side"' in message
    assert [args for args in asked if args[0] == "log"]


def test_history_folders_are_those_gitpython_finds(repo: Path, tmp_path: Path) -> None:
    import git as gitpython

    from mechlint.provenance.git import open_history

    commit(repo, "first", {"post.md": "v1\n"})
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked))  # a .git file, not a folder: gitpython reads it
    for worktree in (repo, linked):
        history = open_history(worktree)
        expected = gitpython.Repo(worktree)
        found = (history.git_dir, history.common_dir)
        assert found == (Path(expected.git_dir).resolve(), Path(expected.common_dir).resolve())
        history.close()


def test_a_frozen_copy_in_the_working_tree_vouches_for_its_blob(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mechlint.provenance.git import CatFile

    commit(repo, "original", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "changed", {"content/fig.svg": "<svg>2</svg>\n"})
    write(repo, "research/m/before/content/fig.svg", "<svg>1</svg>\n")
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")}])
    assert run(repo) == []  # fills the blob cache
    reads: list[list[str]] = []
    real_read = CatFile.read_many

    def counting(self: CatFile, oids: Any) -> Any:
        wanted = list(oids)
        reads.append(wanted)
        return real_read(self, wanted)

    monkeypatch.setattr(CatFile, "read_many", counting)
    assert run(repo) == []  # the copy's own bytes have the blob's id: git is not asked for the blob again
    assert not [oids for oids in reads if oids]


@pytest.mark.parametrize(
    "path",
    ["post.md", "sub/post.md", "missing.md", "post.md/below", "inside-link/post.md", "outside-link/x", "loop", "dead"],
)
def test_real_path_is_realpath(repo: Path, tmp_path: Path, path: str) -> None:
    from mechlint.provenance.paths import real_path

    write(repo, "post.md", "a\n")
    write(repo, "sub/post.md", "b\n")
    (repo / "inside-link").symlink_to(repo / "sub")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x").write_text("x\n")
    (repo / "outside-link").symlink_to(tmp_path / "elsewhere")
    (repo / "loop").symlink_to(repo / "loop")
    (repo / "dead").symlink_to(repo / "nothing")
    top = str(repo.resolve())

    def outcome(function: Any) -> object:
        try:
            return function()
        except (OSError, RuntimeError) as error:
            return type(error)

    assert outcome(lambda: real_path(top, path)) == outcome(
        lambda: os.path.realpath(os.path.join(top, path), strict=True)
    )


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x3000), min_size=1, max_size=12))
def test_path_problem_finds_the_first_invisible_character(path: str) -> None:
    import unicodedata

    invisible = next((c for c in path if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
    problem = path_problem(path) or ""
    if invisible is not None:
        assert f"U+{ord(invisible):04X}" in problem
    else:
        assert "invisible" not in problem
