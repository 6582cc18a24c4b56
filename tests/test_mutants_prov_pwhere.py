"""The edges of ``mechlint/provenance``'s whereabouts, blob index and resolver that ``scripts/mutate.py`` found
unchecked (issue 32).

Each test asks the module it is about (imported by its dotted name) for the exact answer: the whole list,
the whole message, every field. Repositories are built in ``tmp_path``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from mechlint.provenance import index as index_module
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.errors import GitError
from mechlint.provenance.git import History, open_history
from mechlint.provenance.index import BlobIndex
from mechlint.provenance.log import Revision
from mechlint.provenance.pinned import FETCH_HISTORY
from mechlint.provenance.repository import refs_key
from mechlint.provenance.resolve import CLASSIFICATION, Located, Provenance, frozen_regex, pin_of
from mechlint.provenance.source import Source
from mechlint.provenance.whereabouts import MAX_NEARBY, Holder, Names, best_holder, holders, lineage, nearby_files

from .gitrepo import commit, git, init, shallow_clone, write
from .test_provenance import sha


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


def _revision(commit: str, path: str, origin: str | None = None) -> Revision:
    return Revision(commit=commit, time=0, path=path, blob=None, previous=None, origin=origin)


def test_lineage_keeps_the_path_and_its_earlier_names_only() -> None:
    """A rename's origin is followed; a file under a name that was once a folder is left out."""
    renamed = _revision("c3", "new.md", origin="old.md")
    under = _revision("c2", "old.md/inner.md")
    before = _revision("c1", "old.md")
    assert lineage([renamed, under, before], "new.md") == [renamed, before]


# -- holders: where the pinned bytes are, at HEAD or in some commit ----------------------------------------


def _holders(repo: Path, data: str, exclude: str) -> list[Holder]:
    history = open_history(repo)
    try:
        return holders(history, BlobIndex(history, BlobCache(None)), sha(data.encode()), "posts/", exclude)
    finally:
        history.close()


def test_holders_at_head_are_the_other_paths_inside_the_sources_folder(repo: Path) -> None:
    """Only paths holding the bytes, inside the prefix (given without it), the source's own path left out."""
    commit(
        repo,
        "copies",
        {"posts/a.md": "pinned\n", "posts/b.md": "pinned\n", "posts/z.md": "other\n", "notes/c.md": "pinned\n"},
    )
    assert _holders(repo, "pinned\n", "a.md") == [Holder("b.md")]
    assert _holders(repo, "pinned\n", "gone.md") == [Holder("a.md"), Holder("b.md")]


def test_holders_in_history_come_newest_first_each_path_once_with_its_newest_commit(repo: Path) -> None:
    first = commit(repo, "old", {"posts/old.md": "pinned\n"})
    commit(repo, "edit", {"posts/old.md": "edited\n"})
    moved = commit(repo, "copy", {"posts/moved.md": "pinned\n"})
    again = commit(repo, "revert", {"posts/old.md": "pinned\n", "notes/out.md": "pinned\n"})
    commit(repo, "remove", {"posts/old.md": None, "posts/moved.md": None, "notes/out.md": None})
    assert _holders(repo, "pinned\n", "gone.md") == [Holder("old.md", again), Holder("moved.md", moved)]
    assert _holders(repo, "pinned\n", "old.md") == [Holder("moved.md", moved)]
    assert first != again


def test_holders_of_bytes_no_commit_holds_are_none(repo: Path) -> None:
    commit(repo, "one", {"posts/a.md": "pinned\n"})
    assert _holders(repo, "never committed\n", "a.md") == []


# -- Names.closest: the "did you mean" of missing-source -----------------------------------------------------


def test_a_name_differing_only_in_case_wins_over_a_closer_spelling() -> None:
    assert Names(["READ.MD", "readme.md"]).closest("README.MD") == "readme.md"
    assert Names(["READ.MD"]).closest("README.MD", beside=["readme.md"]) == "readme.md"


def test_the_same_file_name_in_the_folder_closest_to_the_path_is_chosen() -> None:
    tree = ["a/post.md", "content/blog/tcp2/post.md"]
    assert Names(tree).closest("content/blog/tcp/post.md") == "content/blog/tcp2/post.md"
    assert Names(["a/post.md"]).closest("content/blog/tcp/post.md", beside=tree[1:]) == "content/blog/tcp2/post.md"


def test_a_close_name_in_the_deepest_existing_folder_of_the_path() -> None:
    """``docs/x`` does not exist: its parent ``docs`` is searched, with the stricter cut-off (0.75)."""
    assert Names(["docs/guide.md", "docs/a/b.md"]).closest("docs/x/gude.md") == "docs/guide.md"
    assert Names(["notes/n.md"]).closest("docs/x/gude.md", beside=["docs/guide.md"]) == "docs/guide.md"
    assert Names(["docs/guide.md"]).closest("docs/x/gxxxe.md") is None  # 0.625: close enough beside it, not here


# -- nearby_files: the working-tree files beside a missing path --------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    base = tmp_path / "base"
    for relative in ("top.md", "posts/a.md", "posts/b.md", "posts/.git", "posts/sub/c.md"):
        write(base, relative, "x\n")
    (base / "posts" / "link.md").symlink_to("a.md")
    (base / "linked").symlink_to("posts")
    return base


def test_nearby_files_are_the_regular_files_of_the_deepest_existing_folder(tree: Path) -> None:
    assert nearby_files(tree, "posts/missing.md") == ["posts/a.md", "posts/b.md"]
    assert nearby_files(tree, "posts/sub/missing.md") == ["posts/sub/c.md"]
    assert nearby_files(tree, "posts/none/deeper/missing.md") == ["posts/a.md", "posts/b.md"]
    assert nearby_files(tree, "missing.md") == ["top.md"]


def test_nearby_files_follow_no_link_and_no_file_taken_for_a_folder(tree: Path) -> None:
    assert nearby_files(tree, "linked/a.md") == ["top.md"]
    assert nearby_files(tree, "top.md/x.md") == ["top.md"]


def test_nearby_files_of_a_base_that_does_not_exist_are_none(tmp_path: Path) -> None:
    assert nearby_files(tmp_path / "absent", "posts/x.md") == []


def test_nearby_files_offers_at_most_max_nearby_names(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(MAX_NEARBY + 1):
        (folder / f"f{n:05}.md").write_bytes(b"")
    assert MAX_NEARBY == 2000
    assert len(nearby_files(tmp_path, "many/x.md")) == 2000


# -- best_holder: the holder a message names ----------------------------------------------------------------


def test_best_holder_prefers_a_holder_at_head_to_a_closer_name_in_history() -> None:
    found = [Holder("x/a.md", "c1"), Holder("zzz.md")]
    assert best_holder("posts/a.md", found) == Holder("zzz.md")
    assert best_holder("posts/a.md", found[:1]) == Holder("x/a.md", "c1")
    assert best_holder("posts/a.md", []) is None


def test_best_holder_prefers_the_same_name_in_another_case_to_any_close_name() -> None:
    found = [Holder("posts/Post.mdx"), Holder("POSTS/POST.MD"), Holder("posts/Post.m")]
    assert best_holder("posts/Post.md", found) == Holder("POSTS/POST.MD")
    assert best_holder("posts/Post.md", [found[0], found[2]]) == Holder("posts/Post.mdx")


# -- BlobIndex: the digests of git's blobs, and the reachable blobs with a digest ----------------------------

LFS_OID = "a" * 64
LFS_POINTER = f"version https://git-lfs.github.com/spec/v1\noid sha256:{LFS_OID}\nsize 12\n"


@pytest.fixture
def history(repo: Path) -> Iterator[History]:
    commit(repo, "one", {"posts/a.md": "pinned\n", "posts/b.md": "other\n", "posts/big.bin": LFS_POINTER})
    opened = open_history(repo)
    yield opened
    opened.close()


def _blob(repo: Path, path: str) -> str:
    return git(repo, "rev-parse", f"HEAD:{path}")


def test_digests_are_of_blobs_only_and_an_object_written_later_is_hashed_then(repo: Path, history: History) -> None:
    """A tree, a commit and an absent object have no digest; an absent one is asked again once it exists."""
    index = BlobIndex(history, BlobCache(None))
    blob, tree, head = _blob(repo, "posts/a.md"), git(repo, "rev-parse", "HEAD^{tree}"), git(repo, "rev-parse", "HEAD")
    outside = write(repo.parent, "later.txt", "later\n")
    later = git(repo, "hash-object", str(outside))
    assert index.digests([blob, tree, head, later]) == {blob: sha("pinned\n"), tree: None, head: None, later: None}
    assert index.digest(blob) == sha("pinned\n")
    git(repo, "hash-object", "-w", str(outside))
    assert index.digest(later) == sha("later\n")


def test_find_all_finds_the_blobs_with_the_bytes_or_the_lfs_pointer(repo: Path, history: History) -> None:
    index = BlobIndex(history, BlobCache(None))
    assert index.find_all(sha("pinned\n")) == [_blob(repo, "posts/a.md")]
    assert index.find_all(LFS_OID) == [_blob(repo, "posts/big.bin")]
    assert index.find_all(sha("never\n")) == []


def test_a_blob_hashed_by_another_index_is_read_again_before_it_is_believed(repo: Path, history: History) -> None:
    """The cache's rows are not believed alone: a row that lies about a blob's bytes is left out."""
    cache = BlobCache(None)
    BlobIndex(history, cache).ensure()
    pinned, other = _blob(repo, "posts/a.md"), _blob(repo, "posts/b.md")
    cache.add([(other, "blob", sha("pinned\n"), None)])  # a damaged or forged row
    index = BlobIndex(history, cache)
    assert index.digests([pinned]) == {pinned: sha("pinned\n")}
    assert sorted(index.find_all(sha("pinned\n"))) == [pinned]
    assert index.find_all(LFS_OID) == [_blob(repo, "posts/big.bin")]
    assert index.verified(pinned, sha("pinned\n")) is True
    assert index.verified(other, sha("pinned\n")) is False


def test_only_a_blob_is_verified_to_hold_bytes(repo: Path, history: History) -> None:
    """An object missing from the clone (a submodule's commit, say) or a tree holds no pinned bytes."""
    index = BlobIndex(history, BlobCache(None))
    tree = git(repo, "rev-parse", "HEAD:posts")
    raw = subprocess.run(["git", "cat-file", "tree", tree], cwd=repo, capture_output=True, check=True).stdout
    assert index.verified(tree, sha(raw)) is False
    assert index.verified("0123456789" * 4, sha("pinned\n")) is False


def test_a_reachable_set_stored_before_the_stash_was_left_out_is_made_again(repo: Path, history: History) -> None:
    """A cache whose reachable set is keyed by the refs alone (made when the stash counted) is not believed."""
    cache = BlobCache(None)
    cache.set_reachable(history.refs_key(), [])
    assert BlobIndex(history, cache).find_all(sha("pinned\n")) == [_blob(repo, "posts/a.md")]


def test_many_unknown_blobs_are_hashed_by_several_readers(
    repo: Path, history: History, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From PARALLEL_FROM unknown objects on (here 3), the blobs are hashed in chunks, each by its own ``cat-file``."""
    monkeypatch.setattr(index_module, "PARALLEL_FROM", 3)
    commit(repo, "more", {f"many/{n}.md": f"file {n}\n" for n in range(5)})
    fresh = open_history(repo)
    try:
        index = BlobIndex(fresh, BlobCache(None))
        assert index.find_all(sha("file 4\n")) == [_blob(repo, "many/4.md")]
        assert index.find_all(sha("pinned\n")) == [_blob(repo, "posts/a.md")]
        assert index.digests([_blob(repo, "many/0.md"), _blob(repo, "posts/b.md")]) == {
            _blob(repo, "many/0.md"): sha("file 0\n"),
            _blob(repo, "posts/b.md"): sha("other\n"),
        }
    finally:
        fresh.close()


# -- resolve: the pin as the facts read it, the frozen-copy pattern, the sources of a mechanism -----------------


def test_pin_of_reads_a_digest_in_any_case_and_keeps_anything_else_as_written() -> None:
    assert pin_of("AB" * 32) == "ab" * 32
    assert pin_of("Ab" * 32) == "ab" * 32
    assert pin_of("ABC") == "ABC"
    assert pin_of("") == ""
    assert pin_of(64) is None
    assert pin_of(None) is None


@pytest.mark.parametrize(
    ("pattern", "path", "original"),
    [
        ("research/*/before/**", "research/tcp/before/content/post.md", "content/post.md"),
        ("research/*/before/**", "research/tcp/x/before/content/post.md", None),  # `*` is one folder
        ("research/*/before/**", "research/tcp/before/", None),
        ("v?/**", "v1/post.md", "post.md"),
        ("v?/**", "v12/post.md", None),  # `?` is one character
        ("v?/**", "v/post.md", None),
        ("v.1/**", "vx1/post.md", None),  # other characters are themselves
        ("/archive/", "archive/a/b.md", "a/b.md"),  # no `**`: everything under the folder
        ("/archive/", "archived/b.md", None),
        ("a/**/b/**", "a/x/y/b/c.md", "c.md"),  # an inner `**/` is any number of folders
        ("a/**/b/**", "a/b/c.md", "c.md"),
        ("old/**.bak", "old/a/b.md.bak", "a/b.md"),  # what follows the last `**` is matched too
    ],
)
def test_frozen_regex_takes_the_original_path_from_the_last_double_star(
    pattern: str, path: str, original: str | None
) -> None:
    match = frozen_regex(pattern).fullmatch(path)
    assert (match.group("original") if match else None) == original


def test_frozen_original_without_a_pattern_is_none() -> None:
    assert Provenance(frozen="").frozen_original("research/tcp/before/post.md") is None
    assert Provenance().frozen_original("research/tcp/before/post.md") == "post.md"
    assert Provenance().frozen_original("research/tcp/after/post.md") is None


def test_sources_are_the_entries_with_a_path_each_pin_looked_up_once(repo: Path) -> None:
    location = repo / "content" / "m.json"
    location.parent.mkdir(parents=True)
    data = {
        "sources": [
            "posts/a.md",
            {"path": 3},
            {"sha256": "ab" * 32},
            {"path": "posts/a.md", "sha256": "AB" * 32},
            {"path": "posts/a.md", "sha256": "ab" * 32},
            {"path": "research/t/before/posts/a.md", "sha256": 7},
        ]
    }
    provenance = Provenance(repo)
    try:
        found = provenance.sources(data, location)
        assert [(s.pointer, s.source.path, s.source.digest, s.source.original) for s in found] == [
            ("/sources/3", "posts/a.md", "ab" * 32, None),
            ("/sources/4", "posts/a.md", "ab" * 32, None),
            ("/sources/5", "research/t/before/posts/a.md", None, "posts/a.md"),
        ]
        assert found[0].source is found[1].source
        assert provenance.sources([data], location) == []
        assert provenance.sources({"sources": {"path": "a.md"}}, location) == []
    finally:
        provenance.close()


def _mechanism(repo: Path) -> Path:
    location = repo / "content" / "m.json"
    location.parent.mkdir(parents=True, exist_ok=True)
    return location


def test_the_cache_key_names_each_source_s_state_and_what_is_beside_a_missing_one(repo: Path) -> None:
    """Each path once computed, in order, then the originals of frozen copies; an absent path adds its neighbours."""
    commit(repo, "one", {"posts/a.md": "pinned\n", "posts/b.md": "b\n"})
    location, pinned = _mechanism(repo), sha("pinned\n")
    provenance = Provenance(repo)
    try:
        key = provenance.cache_key(location, ["posts/a.md", "posts/gone.md", "../x", "research/t/before/posts/a.md"])
        assert provenance.cache_key(location, ["posts/a.md"]) == "\0".join(
            [CLASSIFICATION, str(repo.resolve()), refs_key(repo.resolve()), f"posts/a.md=file:{pinned}:"]
        )
    finally:
        provenance.close()
    assert key.split("\0") == [
        CLASSIFICATION,
        str(repo.resolve()),
        refs_key(repo.resolve()),
        f"posts/a.md=file:{pinned}:",
        "posts/gone.md=absent::",
        "posts/a.md",
        "posts/b.md",
        "../x=unsafe",
        "research/t/before/posts/a.md=absent::",
        "",
        f"posts/a.md=file:{pinned}:",
    ]


# -- Provenance.locate: where pin, attest and verify find a source's bytes ----------------------------------


def _locate(repo: Path, path: str, digest: str | None) -> Located:
    provenance = Provenance(repo)
    try:
        return provenance.locate(_mechanism(repo), path, digest)
    finally:
        provenance.close()


def test_locate_a_file_in_the_working_tree(repo: Path) -> None:
    commit(repo, "one", {"posts/a.md": "pinned\n"})
    write(repo, "posts/new.md", "new\n")
    blob = _blob(repo, "posts/a.md")
    assert _locate(repo, "posts/a.md", None) == Located("working-tree", sha("pinned\n"), blob)
    assert _locate(repo, "posts/a.md", sha("pinned\n")) == Located("working-tree", sha("pinned\n"), blob)
    new = git(repo, "hash-object", "posts/new.md")
    assert _locate(repo, "posts/new.md", None) == Located("working-tree", sha("new\n"), new)
    assert _locate(repo, "posts/a.md", sha("other\n")) == Located(
        "changed", sha("pinned\n"), blob, detail='"posts/a.md" has other bytes now'
    )


def test_locate_refuses_an_unsafe_path_and_a_missing_unpinned_one(repo: Path) -> None:
    commit(repo, "one", {"posts/a.md": "pinned\n"})
    (repo / "posts" / "link.md").symlink_to("/etc/hostname")
    assert _locate(repo, "../x", sha("pinned\n")) == Located(
        "refused", detail="\"../x\": the path has a '..' component"
    )
    assert _locate(repo, "posts/link.md", sha("pinned\n")) == Located(
        "refused", detail='"posts/link.md" resolves, through a symbolic link, to a place outside the repository'
    )
    assert _locate(repo, "posts/gone.md", None) == Located("refused", detail='nothing is at "posts/gone.md"')
    long = "posts/" + "a" * 195
    assert _locate(repo, long, None) == Located("refused", detail=f'nothing is at "{long[:199]}…"')
    assert _locate(repo, long[:200], None) == Located("refused", detail=f'nothing is at "{long[:200]}"')


def test_locate_finds_the_pinned_bytes_of_a_gone_file_in_history(repo: Path) -> None:
    held = commit(repo, "one", {"posts/gone.md": "pinned\n", "posts/old.md": "renamed\n", "posts/f.md": "frozen\n"})
    blobs = {path: _blob(repo, path) for path in ("posts/gone.md", "posts/old.md", "posts/f.md")}
    git(repo, "mv", "posts/old.md", "posts/new.md")
    git(repo, "commit", "-q", "-m", "rename")
    commit(repo, "remove", {"posts/gone.md": None, "posts/new.md": None, "posts/f.md": None})
    assert _locate(repo, "posts/gone.md", sha("pinned\n")) == Located(
        "history", sha("pinned\n"), blobs["posts/gone.md"], held
    )
    assert _locate(repo, "posts/new.md", sha("renamed\n")) == Located(
        "history", sha("renamed\n"), blobs["posts/old.md"], held, at="posts/old.md"
    )
    assert _locate(repo, "research/t/before/posts/f.md", sha("frozen\n")) == Located(
        "history", sha("frozen\n"), blobs["posts/f.md"], held, at="posts/f.md"
    )


def test_locate_says_why_history_does_not_give_the_bytes(repo: Path) -> None:
    commit(repo, "one", {"posts/a.md": "a\n"})
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {"posts/gone.md": "pinned\n"})
    git(repo, "checkout", "-q", "main")
    assert _locate(repo, "posts/gone.md", sha("pinned\n")) == Located(
        "refused",
        detail=f'nothing is at "posts/gone.md", and only commit {side[:12]}, which HEAD does not contain, held the '
        "pinned bytes there (history is what HEAD reaches: merge it first)",
    )
    assert _locate(repo, "posts/gone.md", sha("never\n")) == Located(
        "refused", detail='nothing is at "posts/gone.md", and no commit held the pinned bytes at that path'
    )
    assert _locate(repo, "research/t/before/posts/gone.md", sha("never\n")) == Located(
        "refused",
        detail='nothing is at "research/t/before/posts/gone.md", and no commit held the pinned bytes at that path '
        "or at its original path",
    )


def test_locate_without_history(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert _locate(plain, "posts/gone.md", sha("pinned\n")) == Located(
        "refused", detail='nothing is at "posts/gone.md" and the folder is not in a git repository'
    )


def test_locate_when_git_fails(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, "one", {"posts/a.md": "a\n"})

    def fail(self: Source, path: str) -> None:
        raise GitError(f"git log -- {path} failed")

    monkeypatch.setattr(Source, "_hit", fail)
    assert _locate(repo, "posts/gone.md", sha("pinned\n")) == Located(
        "refused", detail='"posts/gone.md": git log -- posts/gone.md failed'
    )


def test_locate_in_a_shallow_clone_says_the_bytes_may_be_in_history_it_lacks(repo: Path, tmp_path: Path) -> None:
    commit(repo, "one", {"posts/gone.md": "pinned\n"})
    commit(repo, "remove", {"posts/gone.md": None})
    clone = shallow_clone(repo, tmp_path / "clone")
    assert _locate(clone, "posts/gone.md", sha("pinned\n")) == Located(
        "refused",
        detail='nothing is at "posts/gone.md", and the pinned bytes are not in the history this clone has: '
        f"this is a shallow clone; {FETCH_HISTORY}",
    )


def _no_reads(oids: object) -> None:
    raise AssertionError(f"read again: {oids}")


def test_a_blob_this_index_hashed_is_believed_without_a_second_read(
    repo: Path, history: History, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = BlobIndex(history, BlobCache(None))
    pinned = _blob(repo, "posts/a.md")
    assert index.find_all(sha("pinned\n")) == [pinned]
    monkeypatch.setattr(history.cat, "read_many", _no_reads)
    assert index.verified(pinned, sha("pinned\n")) is True
    assert index.verified(_blob(repo, "posts/big.bin"), LFS_OID) is True
    assert index.verified(pinned, sha("other\n")) is False
    assert index.find_all(LFS_OID) == [_blob(repo, "posts/big.bin")]
