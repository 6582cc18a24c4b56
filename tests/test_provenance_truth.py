"""Provenance verdicts a reviewer can trust (issue 13, points 1 and 2).

A mistyped path is ``missing-source`` even when some other path held the
pinned bytes, and every commit a message names holds the pinned bytes at the
path the message names: ``git show COMMIT:PATH`` is checked here, through
renames, reverts, import commits and merges.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.provenance.resolve import Provenance

from .gitrepo import commit, git, init, write
from .test_provenance import ids, mechanism, run, sha

ARTICLE = "".join(f"Line {n} of the article about the handshake.\n" for n in range(30))
EDITED = ARTICLE + "A paragraph added later.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


def named_commit(repo: Path, message: str) -> str:
    """The full id of the (first) commit a message names."""
    match = re.search(r"commit ([0-9a-f]{12})", message)
    assert match, message
    return git(repo, "rev-parse", match.group(1))


def holds(repo: Path, commit_id: str, path: str, data: str) -> bool:
    """Whether ``git show COMMIT:PATH`` gives ``data``."""
    try:
        return git(repo, "show", f"{commit_id}:{path}") == data.rstrip("\n")
    except AssertionError:
        return False


# -- point 1: a mistyped path is missing-source, whatever other path held the bytes ----------------------


@pytest.mark.parametrize("typo", ["content/psot.md", "content/Post.md", "Content/post.md", "content/post.md.md"])
def test_a_mistyped_path_is_missing_even_when_the_bytes_are_elsewhere(repo: Path, typo: str) -> None:
    commit(repo, "post", {"content/post.md": ARTICLE})
    mechanism(repo, [{"path": typo, "sha256": sha(ARTICLE)}])
    [(rule, pointer, message)] = run(repo)
    assert (rule, pointer) == ("provenance/missing-source", "/sources/0/path")
    assert 'did you mean "content/post.md"? it holds the pinned bytes now' in message
    if typo.casefold() == "content/post.md":
        assert "differ only in case" in message


def test_a_mechanism_copied_into_another_post_keeps_the_wrong_folder(repo: Path) -> None:
    commit(repo, "tcp", {"content/tcp/article.md": "TCP\n" * 20})
    commit(repo, "raft", {"content/raft/article.md": "Raft\n" * 20, "content/raft/fig.svg": "<svg>raft</svg>\n"})
    mechanism(repo, [{"path": "content/tcp/fig.svg", "sha256": sha("<svg>raft</svg>\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/missing-source"
    assert '"content/raft/fig.svg"? it holds the pinned bytes now' in message


def test_bytes_another_path_held_only_in_history_are_named_with_a_true_commit(repo: Path) -> None:
    commit(repo, "draft", {"notes/draft.md": ARTICLE})
    commit(repo, "drop the draft", {"notes/draft.md": None})
    commit(repo, "revert: add it again", {"notes/draft.md": ARTICLE})
    commit(repo, "drop it again", {"notes/draft.md": None})
    mechanism(repo, [{"path": "notes/drfat.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/missing-source"
    assert '"notes/draft.md"? it held the pinned bytes in commit' in message
    assert holds(repo, named_commit(repo, message), "notes/draft.md", ARTICLE)


@pytest.mark.parametrize(
    ("typo", "meant"),
    [("content/psot.md", "content/post.md"), ("content/Post.md", "content/post.md"), ("post.md", "content/post.md")],
)
def test_a_near_miss_without_the_bytes_suggests_the_closest_name(repo: Path, typo: str, meant: str) -> None:
    commit(repo, "post", {"content/post.md": ARTICLE, "content/figure.svg": "<svg/>\n"})
    mechanism(repo, [{"path": typo, "sha256": sha("bytes nobody ever had\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/missing-source"
    assert f'did you mean "{meant}"?' in message and "pinned bytes" not in message


def test_a_near_miss_of_an_uncommitted_file_is_suggested(repo: Path) -> None:
    commit(repo, "start", {"README.md": "blog\n"})
    write(repo, "content/new-post/article.md", "draft\n")
    mechanism(repo, [{"path": "content/new-post/artcle.md", "sha256": sha("draft\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/missing-source" and '"content/new-post/article.md"?' in message


def test_a_folder_that_once_held_the_bytes_is_not_the_source(repo: Path) -> None:
    commit(repo, "figures", {"content/figs/a.svg": "<svg>a</svg>\n"})
    commit(repo, "drop them", {"content/figs/a.svg": None})
    mechanism(repo, [{"path": "content/figs", "sha256": sha("<svg>a</svg>\n")}, {"path": "content/figs"}])
    found = run(repo)
    assert ids(found) == [
        ("provenance/missing-source", "/sources/0/path"),
        ("provenance/unpinned-source", "/sources/1"),
        ("provenance/missing-source", "/sources/1/path"),
    ]
    assert '"content/figs/a.svg"? it held the pinned bytes' in found[0][2]


def test_a_path_renamed_away_never_held_the_bytes_of_its_new_name(repo: Path) -> None:
    commit(repo, "first", {"content/a.md": ARTICLE})
    git(repo, "mv", "content/a.md", "content/b.md")
    write(repo, "content/b.md", EDITED)
    git(repo, "add", "content/b.md")
    commit(repo, "rename and edit")
    mechanism(repo, [{"path": "content/a.md", "sha256": sha(EDITED)}])
    [(rule, pointer, message)] = run(repo)
    assert (rule, pointer) == ("provenance/digest-mismatch", "/sources/0/sha256")
    assert '"content/b.md" now' in message


def test_a_frozen_copy_may_be_satisfied_by_its_original_path_only(repo: Path) -> None:
    original = commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n", "content/other.svg": "<svg>o</svg>\n"})
    commit(repo, "migrate", {"content/fig.svg": None, "content/other.svg": None})
    mechanism(
        repo,
        [
            {"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")},
            {"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>o</svg>\n")},
        ],
    )
    found = {(rule, pointer): message for rule, pointer, message in run(repo)}
    assert sorted(found) == [
        ("provenance/frozen-copy-mismatch", "/sources/1/path"),
        ("provenance/frozen-resolved", "/sources/0/path"),
        ("provenance/missing-source", "/sources/1/path"),
    ]
    resolved = found["provenance/frozen-resolved", "/sources/0/path"]
    assert named_commit(repo, resolved) == original and '"content/fig.svg"' in resolved
    assert '"content/other.svg"' in found["provenance/missing-source", "/sources/1/path"]


# -- point 2: the commit a message names holds the pinned bytes at the path it names ------------------------


def test_stale_after_a_revert_names_a_commit_that_holds_the_bytes(repo: Path) -> None:
    commit(repo, "v1", {"post.md": ARTICLE})
    commit(repo, "v2", {"post.md": EDITED})
    git(repo, "revert", "--no-edit", "HEAD")
    changed = commit(repo, "v3", {"post.md": EDITED + "More.\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source"
    assert holds(repo, named_commit(repo, message), "post.md", ARTICLE)
    assert changed[:12] in message


def test_stale_across_a_rename_names_the_old_name(repo: Path) -> None:
    commit(repo, "first", {"old-name.md": ARTICLE})
    git(repo, "mv", "old-name.md", "new-name.md")
    commit(repo, "rename")
    commit(repo, "edit", {"new-name.md": EDITED})
    mechanism(repo, [{"path": "new-name.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source"
    named = named_commit(repo, message)
    if '"old-name.md"' in message:
        assert holds(repo, named, "old-name.md", ARTICLE)
    else:
        assert holds(repo, named, "new-name.md", ARTICLE)


def test_gone_source_with_an_import_commit_elsewhere_names_its_own_commit(repo: Path) -> None:
    commit(repo, "article", {"content/post.md": ARTICLE})
    commit(repo, "remove", {"content/post.md": None})
    commit(repo, "import an archive", {"archive/post.md": ARTICLE})
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/gone-source"  # not a frozen copy (issue 26): the deletion commit is named first
    assert holds(repo, named_commit(repo, message.partition("pinned bytes")[2]), "content/post.md", ARTICLE)


def test_a_gone_frozen_copy_names_the_commit_of_its_original_not_its_deletion(repo: Path) -> None:
    commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "edit", {"content/fig.svg": "<svg>2</svg>\n"})
    git(repo, "revert", "--no-edit", "HEAD")
    commit(repo, "gone", {"content/fig.svg": None})
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>1</svg>\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/frozen-resolved"
    assert holds(repo, named_commit(repo, message), "content/fig.svg", "<svg>1</svg>\n")


def test_a_frozen_copy_of_a_renamed_original_says_the_old_name(repo: Path) -> None:
    commit(repo, "figure", {"content/figure.svg": ARTICLE})
    git(repo, "mv", "content/figure.svg", "content/fig.svg")
    commit(repo, "rename")
    commit(repo, "edit", {"content/fig.svg": EDITED})
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/frozen-resolved"
    named = named_commit(repo, message)
    path = "content/figure.svg" if '"content/figure.svg"' in message else "content/fig.svg"
    assert holds(repo, named, path, ARTICLE)


def test_bytes_merged_from_a_side_branch(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n", "other.md": "x\n"})
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side edit", {"post.md": ARTICLE})
    git(repo, "checkout", "-q", "main")
    commit(repo, "main moves on", {"other.md": "y\n"})
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    commit(repo, "edit", {"post.md": EDITED})
    commit(repo, "import", {"vendor/post.md": ARTICLE})
    mechanism(repo, [{"path": "post.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source"
    assert holds(repo, named_commit(repo, message), "post.md", ARTICLE)


def test_digest_mismatch_names_a_commit_in_which_the_other_path_held_the_bytes(repo: Path) -> None:
    commit(repo, "both", {"post.md": "v1\n", "notes.md": ARTICLE})
    commit(repo, "drop notes", {"notes.md": None})
    mechanism(repo, [{"path": "post.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/digest-mismatch"
    assert '"notes.md" in commit' in message
    assert holds(repo, named_commit(repo, message), "notes.md", ARTICLE)


# -- pin, attest and verify resolve a source the same way ------------------------------------------------------


def test_locate_refuses_a_mistyped_path_and_finds_a_frozen_original(repo: Path) -> None:
    original = commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n", "content/post.md": ARTICLE})
    commit(repo, "gone", {"content/fig.svg": None})
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        assert provenance.locate(location, "content/psot.md", sha(ARTICLE)).kind == "refused"
        found = provenance.locate(location, "research/m/before/content/fig.svg", sha("<svg>1</svg>\n"))
        assert (found.kind, found.commit) == ("history", original)
        assert provenance.locate(location, "research/m/before/content/post.md", sha(ARTICLE)).kind == "history"
        assert provenance.locate(location, "content/fig.svg", sha("<svg>1</svg>\n")).commit == original
    finally:
        provenance.close()


def cached_run(repo: Path, cache: Path) -> list[tuple[str, str, str]]:
    report = lint([repo / "content"], Config(root=repo), root=repo, cache=cache)
    return [(r.rule_id, r.pointer, r.message) for r in report.results if r.rule_id.startswith("provenance/")]


def test_a_frozen_copy_of_an_original_not_committed_yet_is_no_mismatch(repo: Path, tmp_path: Path) -> None:
    commit(repo, "start", {"README.md": "blog\n"})
    write(repo, "content/fig.svg", "<svg>new</svg>\n")
    write(repo, "research/m/before/content/fig.svg", "<svg>new</svg>\n")
    mechanism(repo, [{"path": "research/m/before/content/fig.svg", "sha256": sha("<svg>new</svg>\n")}])
    assert cached_run(repo, tmp_path / "cache") == []
    write(repo, "content/fig.svg", "<svg>edited</svg>\n")  # the claim is false again, and the cache knows it
    assert ids(cached_run(repo, tmp_path / "cache")) == [("provenance/frozen-copy-mismatch", "/sources/0/path")]


def test_a_cached_suggestion_follows_the_files_beside_the_path(repo: Path, tmp_path: Path) -> None:
    commit(repo, "start", {"README.md": "blog\n"})
    write(repo, "content/post/article.md", "draft\n")
    mechanism(repo, [{"path": "content/post/artcle.md", "sha256": sha("draft\n")}])
    [(_, _, message)] = cached_run(repo, tmp_path / "cache")
    assert '"content/post/article.md"?' in message
    (repo / "content/post/article.md").rename(repo / "content/post/articles.md")
    [(_, _, message)] = cached_run(repo, tmp_path / "cache")
    assert '"content/post/articles.md"?' in message


# -- stale-source names the change HEAD has, not one made on another branch ----------------------------------


def test_a_crlf_checkout_is_fine_when_another_branch_changed_the_file_later(repo: Path) -> None:
    commit(repo, "first", {".gitattributes": "*.md text eol=crlf\n", "post.md": "a\nb\n"})
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side edit", {"post.md": "a\nb\nc\n"})
    git(repo, "checkout", "-q", "main")
    (repo / "post.md").unlink()
    git(repo, "checkout", "--", "post.md")
    assert (repo / "post.md").read_bytes() == b"a\r\nb\r\n"
    mechanism(repo, [{"path": "post.md", "sha256": sha("a\nb\n")}])
    assert run(repo) == []


def test_an_uncommitted_change_is_not_blamed_on_another_branch(repo: Path) -> None:
    commit(repo, "first", {"post.md": ARTICLE})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side edit", {"post.md": EDITED})
    git(repo, "checkout", "-q", "main")
    write(repo, "post.md", "edited here\n")
    mechanism(repo, [{"path": "post.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source" and "not committed" in message and side[:12] not in message


def test_stale_names_the_change_on_the_branch_checked_out(repo: Path) -> None:
    commit(repo, "first", {"post.md": ARTICLE})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side edit", {"post.md": EDITED})
    git(repo, "checkout", "-q", "main")
    ours = commit(repo, "main edit", {"post.md": ARTICLE + "Ours.\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha(ARTICLE)}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/stale-source" and ours[:12] in message and side[:12] not in message


# -- the stash is not history -----------------------------------------------------------------------------------


def test_bytes_only_in_the_stash_are_not_history(repo: Path) -> None:
    commit(repo, "first", {"post.md": "v1\n"})
    write(repo, "post.md", "stashed edit\n")
    write(repo, "new.md", "never committed\n")
    git(repo, "add", "new.md")
    git(repo, "stash", "push", "-q")
    assert not (repo / "new.md").exists()
    mechanism(
        repo,
        [{"path": "post.md", "sha256": sha("stashed edit\n")}, {"path": "new.md", "sha256": sha("never committed\n")}],
    )
    assert ids(run(repo)) == [
        ("provenance/digest-mismatch", "/sources/0/sha256"),
        ("provenance/missing-source", "/sources/1/path"),
    ]


# -- "did you mean": a table ------------------------------------------------------------------------------------

TREE = [
    "content/blog/tcp/post.md",
    "content/blog/tcp/figure.svg",
    "content/blog/raft/post.md",
    "content/blog/raft/election.svg",
    "README.md",
]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("content/blog/tcp/psot.md", "content/blog/tcp/post.md"),
        ("content/blog/tcp/Post.md", "content/blog/tcp/post.md"),
        ("Content/Blog/TCP/post.md", "content/blog/tcp/post.md"),
        ("content/blog/tcp/figure.svgz", "content/blog/tcp/figure.svg"),
        ("content/blog/tpc/post.md", "content/blog/tcp/post.md"),
        ("content/blog/tcp/election.svg", "content/blog/raft/election.svg"),
        ("content/blog/raft/electoin.svg", "content/blog/raft/election.svg"),
        ("content/blog/dns/figure.svgg", None),
        ("content/blog/tcp/handshake.md", None),
        ("notes/todo.txt", None),
    ],
)
def test_closest_name(typed: str, meant: str | None) -> None:
    from mechlint.provenance.whereabouts import Names

    assert Names(TREE).closest(typed) == meant


# -- pin, attest and verify use the configured frozen-copy pattern, as check does ------------------------------


def test_pin_resolves_a_gone_frozen_copy_by_the_configured_pattern(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mechlint.cli import main

    commit(repo, "figure", {"content/fig.svg": "<svg>1</svg>\n"})
    commit(repo, "migrate", {"content/fig.svg": None})
    write(repo, "mechlint.toml", '[rules."provenance/frozen-copy-mismatch"]\npattern = "archive/**"\n')
    target = mechanism(repo, [{"path": "archive/content/fig.svg", "sha256": sha("<svg>1</svg>\n")}])
    monkeypatch.chdir(repo)
    assert ids(run(repo, options={"provenance/frozen-copy-mismatch": {"pattern": "archive/**"}})) == [
        ("provenance/frozen-resolved", "/sources/0/path")
    ]
    assert main(["pin", "--check", str(target)]) == 0, capsys.readouterr().err
    write(repo, "mechlint.toml", '[rules."provenance/frozen-copy-mismatch"]\npattern = "elsewhere/**"\n')
    assert main(["pin", "--check", str(target)]) == 1
    write(repo, "mechlint.toml", "[rules\n")
    assert main(["pin", "--check", str(target)]) == 2
    assert "invalid-config" in capsys.readouterr().err


def test_locate_says_which_path_held_the_bytes_in_the_commit_it_names(repo: Path) -> None:
    commit(repo, "figure", {"content/figure.svg": ARTICLE})
    git(repo, "mv", "content/figure.svg", "content/fig.svg")
    commit(repo, "rename")
    commit(repo, "gone", {"content/fig.svg": None})
    location = mechanism(repo, [])
    provenance = Provenance(repo)
    try:
        for path in ("content/fig.svg", "research/m/before/content/fig.svg"):
            found = provenance.locate(location, path, sha(ARTICLE))
            assert found.kind == "history" and holds(repo, found.commit, found.at or path, ARTICLE)
    finally:
        provenance.close()
