"""The edges of ``mechlint/provenance/gitdir.py`` that ``scripts/mutate.py`` found unchecked (issue 32).

``gitdir`` finds a repository's git folders and checks them before git is
let in: a special file where git reads one, an include, a working tree moved
elsewhere, a partial or shallow clone. Each test builds its own folders in
``tmp_path`` and asks the module for the exact answer: the whole value, the
whole message, whether the error says the repository is broken.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mechlint.provenance import gitdir
from mechlint.provenance.errors import GitError
from mechlint.provenance.gitdir import Configuration, GitDirs

from .gitrepo import commit, git, init, write

REFUSED = "not a regular file; git is not run on it"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    return repo


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    os.mkfifo(path)
    return path


def _error(call: Any, *args: Any) -> tuple[str, bool]:
    """The message of the :class:`GitError` ``call(*args)`` raises, and whether it calls the repository broken."""
    with pytest.raises(GitError) as caught:
        call(*args)
    return str(caught.value), caught.value.broken


def _os_with(**replaced: Any) -> SimpleNamespace:
    """``os`` as ``gitdir`` sees it, with some functions replaced (the rest of the process keeps the real ones)."""
    return SimpleNamespace(**{**vars(os), **replaced})


# -- is_regular and read_small: a regular file or a refusal naming it --------------------------------------------


def test_is_regular_answers_for_a_file_and_for_nothing_and_refuses_the_rest(tmp_path: Path) -> None:
    assert gitdir.is_regular(tmp_path / "absent", "the thing") is False
    assert gitdir.is_regular(write(tmp_path, "file", "x"), "the thing") is True
    assert _error(gitdir.is_regular, tmp_path, "the folder") == (f"the folder is a folder, {REFUSED}", True)
    assert _error(gitdir.is_regular, _fifo(tmp_path / "pipe"), "the pipe") == (f"the pipe is a FIFO, {REFUSED}", True)
    assert _error(gitdir.is_regular, Path(os.devnull), "null") == (f"null is a device, {REFUSED}", True)
    below_a_file = tmp_path / "file" / "below"
    assert _error(gitdir.is_regular, below_a_file, "the path") == ("the path cannot be read (Not a directory)", True)


def test_a_socket_is_called_a_special_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.chdir(tmp_path)  # a socket's path is short: named from its folder
    with socket.socket(socket.AF_UNIX) as bound:
        bound.bind("socket")
        assert _error(gitdir.is_regular, Path("socket"), "HEAD") == (f"HEAD is a special file, {REFUSED}", True)
        assert _error(gitdir.read_small, Path("socket"), "HEAD") == (f"HEAD is a special file, {REFUSED}", True)


def test_read_small_reads_up_to_64_kib_and_refuses_more(tmp_path: Path) -> None:
    assert gitdir.read_small(tmp_path / "absent", "the file") is None
    assert gitdir.read_small(write(tmp_path, "empty", b""), "the file") == b""
    limit = bytes(range(256)) * 256  # 65,536 bytes, no two neighbours alike
    assert gitdir.read_small(write(tmp_path, "limit", limit), "the file") == limit
    over = write(tmp_path, "over", limit + b"!")
    assert _error(gitdir.read_small, over, "the file") == (
        "the file is larger than 65536 bytes; git is not run on it",
        True,
    )


def test_read_small_refuses_a_special_file_and_one_it_cannot_reach(tmp_path: Path) -> None:
    assert _error(gitdir.read_small, tmp_path, "HEAD") == (f"HEAD is a folder, {REFUSED}", True)
    assert _error(gitdir.read_small, _fifo(tmp_path / "pipe"), "HEAD") == (f"HEAD is a FIFO, {REFUSED}", True)
    assert _error(gitdir.read_small, Path(os.devnull), "HEAD") == (f"HEAD is a device, {REFUSED}", True)
    below = write(tmp_path, "file", "x") / "below"
    assert _error(gitdir.read_small, below, "HEAD") == ("HEAD cannot be read (Not a directory)", True)


def test_read_small_names_a_file_it_may_not_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Permissions do not bind root: the refusal to open is made by hand, as the system gives it (with strerror)."""
    import errno

    def refuse(path: Any, flags: int, *args: Any) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))

    monkeypatch.setattr(gitdir, "os", _os_with(open=refuse))
    assert _error(gitdir.read_small, write(tmp_path, "HEAD", "ref: x\n"), "HEAD") == (
        "HEAD cannot be read (Permission denied)",
        True,
    )


def test_read_small_refuses_a_file_that_became_a_fifo_before_it_was_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the look (a regular file) and the open (a FIFO, opened without waiting), the file was replaced."""
    pipe = _fifo(tmp_path / "HEAD")
    looked = os.stat(write(tmp_path, "regular", "ref: x\n"))
    real_stat = os.stat

    def stat_before_the_swap(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return looked if os.fspath(path) == os.fspath(pipe) else real_stat(path, *args, **kwargs)

    monkeypatch.setattr(gitdir, "os", _os_with(stat=stat_before_the_swap))
    assert _error(gitdir.read_small, pipe, "HEAD") == ("HEAD changed into a special file while it was opened", True)


# -- locate: the git folder and the common folder ---------------------------------------------------------------


def test_locate_finds_a_repository_s_own_git_folder(repo: Path) -> None:
    dotgit = (repo / ".git").resolve()
    assert gitdir.locate(repo) == GitDirs(dotgit, dotgit)


def test_locate_follows_a_linked_worktree_to_its_git_folder_and_common_folder(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked))
    dotgit = (repo / ".git").resolve()
    assert gitdir.locate(linked) == GitDirs(dotgit / "worktrees" / "linked", dotgit)


def test_locate_reads_a_relative_gitdir_from_the_working_tree(repo: Path, tmp_path: Path) -> None:
    """As a submodule's ``.git`` file does: ``gitdir:`` relative to the folder holding the file, spaces around it."""
    other = tmp_path / "other"
    other.mkdir()
    (other / ".git").write_text("gitdir:   ../blog/.git  \n")
    dotgit = (repo / ".git").resolve()
    assert gitdir.locate(other) == GitDirs(dotgit, dotgit)


NOT_A_REPOSITORY = "this is not a git repository"


@pytest.mark.parametrize(
    ("dotgit", "message"),
    [
        (None, NOT_A_REPOSITORY),
        (b"", f"{NOT_A_REPOSITORY} (.git is a file without gitdir:)"),
        (b"../blog/.git\n", f"{NOT_A_REPOSITORY} (.git is a file without gitdir:)"),
        (b"gitdir: ../nowhere\n", "the git folder named by .git does not exist"),
    ],
    ids=["no .git", "empty .git file", ".git file without gitdir", "gitdir names nothing"],
)
def test_locate_says_when_there_is_no_repository(tmp_path: Path, dotgit: bytes | None, message: str) -> None:
    """Not a repository is no broken one: ``broken`` is false, history is simply not there."""
    folder = tmp_path / "folder"
    folder.mkdir()
    if dotgit is not None:
        (folder / ".git").write_bytes(dotgit)
    assert _error(gitdir.locate, folder) == (message, False)


def test_locate_says_when_the_common_folder_is_missing(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked))
    (repo / ".git" / "worktrees" / "linked" / "commondir").write_text("../../nowhere\n")
    assert _error(gitdir.locate, linked) == ("the git folder named by .git does not exist", False)


@pytest.mark.parametrize("missing", ["HEAD", "objects"])
def test_locate_wants_head_and_objects(repo: Path, missing: str) -> None:
    target = repo / ".git" / missing
    if target.is_dir():
        target.rename(repo / "elsewhere")
    else:
        target.unlink()
    assert _error(gitdir.locate, repo) == (f"{NOT_A_REPOSITORY} (no HEAD or objects in the git folder)", False)


def test_locate_refuses_a_special_file_where_it_reads_one(repo: Path, tmp_path: Path) -> None:
    """A FIFO as HEAD, as a linked worktree's commondir, or as .git itself: named, and the repository broken."""
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked))
    _fifo(repo / ".git" / "worktrees" / "linked" / "commondir")
    assert _error(gitdir.locate, linked) == (f"the git folder's commondir is a FIFO, {REFUSED}", True)
    _fifo(repo / ".git" / "HEAD")
    assert _error(gitdir.locate, repo) == (f"the git folder's HEAD is a FIFO, {REFUSED}", True)
    other = tmp_path / "other"
    _fifo(other / ".git")
    assert _error(gitdir.locate, other) == (f".git is a FIFO, {REFUSED}", True)


# -- special_file: every file git could read, in the folders git reads ---------------------------------------------


def _dirs(repo: Path) -> GitDirs:
    return gitdir.locate(repo)


def test_a_clean_git_folder_has_no_special_file(repo: Path, tmp_path: Path) -> None:
    """Links to regular files and broken links are no reason to refuse (git finds a file or nothing there)."""
    (repo / ".git" / "linked-file").symlink_to(repo / ".git" / "HEAD")
    (repo / ".git" / "refs" / "heads" / "broken").symlink_to(tmp_path / "nothing")
    assert gitdir.special_file(_dirs(repo)) is None


def test_special_file_names_a_fifo_and_a_device_with_their_path(repo: Path) -> None:
    pipe = _fifo(repo / ".git" / "refs" / "heads" / "side")
    dirs = _dirs(repo)
    assert gitdir.special_file(dirs) == f"{dirs.git_dir / 'refs' / 'heads' / 'side'} is a FIFO"
    pipe.unlink()
    (repo / ".git" / "packed-refs").symlink_to(os.devnull)
    assert gitdir.special_file(dirs) == f"{dirs.git_dir / 'packed-refs'} is a device"


@pytest.mark.parametrize("folder", ["hooks", "lfs", "logs", "mechlint", "modules", "rr-cache"])
def test_folders_git_never_reads_are_skipped(repo: Path, folder: str) -> None:
    _fifo(repo / ".git" / folder / "deeper" / "pipe")
    assert gitdir.special_file(_dirs(repo)) is None


def test_linked_folders_are_followed_once_and_only_where_git_reads_them(repo: Path, tmp_path: Path) -> None:
    """An unrelated linked folder is skipped; ``refs`` linked as git-new-workdir links it is followed (its path
    as git sees it named), and a link back into it is not followed twice."""
    dirs = _dirs(repo)
    _fifo(tmp_path / "unrelated" / "pipe")
    (repo / ".git" / "unrelated").symlink_to(tmp_path / "unrelated")
    assert gitdir.special_file(dirs) is None
    (repo / ".git" / "refs").rename(tmp_path / "refs")
    (repo / ".git" / "refs").symlink_to(tmp_path / "refs")
    (tmp_path / "refs" / "heads" / "refs").symlink_to(tmp_path / "refs")  # a loop
    assert gitdir.special_file(dirs) is None
    _fifo(tmp_path / "refs" / "tags" / "v1")
    assert gitdir.special_file(dirs) == f"{dirs.git_dir / 'refs' / 'tags' / 'v1'} is a FIFO"


class _File:
    """A directory entry for a regular file, as ``os.scandir`` gives it."""

    name = path = "file"

    def is_file(self, follow_symlinks: bool = True) -> bool:
        return True


@pytest.mark.parametrize(("others", "found"), [(199_998, True), (199_999, False)])
def test_special_file_looks_at_200_000_entries_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, others: int, found: bool
) -> None:
    """The top folder holds a folder with a FIFO and ``others`` files: the folder is looked into only while fewer
    than 200,000 entries were seen (one more file and the watchdog alone bounds git)."""
    top = tmp_path / "git"
    pipe = _fifo(top / "folder" / "pipe")
    real_scandir = os.scandir

    def scandir(path: str) -> list[Any]:
        entries: list[Any] = list(real_scandir(path))
        return entries + [_File()] * others if path == os.fspath(top) else entries

    monkeypatch.setattr(gitdir, "os", _os_with(scandir=scandir))
    assert gitdir.special_file(GitDirs(top, top)) == (f"{pipe} is a FIFO" if found else None)


# -- alternates: the object folders git borrows from, as deep as git goes -----------------------------------------


def _chain(tmp_path: Path, length: int) -> list[Path]:
    """Object folders ``a0`` … each lending the next through ``info/alternates``."""
    folders = [tmp_path / f"a{n}" / "objects" for n in range(length)]
    for folder, lent in zip(folders, [*folders[1:], None], strict=True):
        (folder / "info").mkdir(parents=True)
        if lent is not None:
            (folder / "info" / "alternates").write_text(f"{lent}\n")
    return folders


def test_alternates_are_followed_six_levels_deep_as_git_does(tmp_path: Path) -> None:
    """git 2.39 reads objects from ``a0`` … ``a5`` of a chain starting at the repository's own alternates, and
    says "nesting too deep" for ``a6``; mechlint looks at the same six folders."""
    own, *chain = _chain(tmp_path, 9)
    assert gitdir.alternates(own) == chain[:6]
    assert gitdir.alternates(chain[0]) == chain[1:7]


def test_a_fifo_six_levels_of_alternates_deep_is_found(repo: Path, tmp_path: Path) -> None:
    chain = _chain(tmp_path, 8)
    (repo / ".git" / "objects" / "info" / "alternates").write_text(f"{chain[0]}\n")
    dirs = _dirs(repo)
    deepest = _fifo(chain[5] / "pack" / "pack-1.idx")
    assert gitdir.special_file(dirs) == f"{deepest} is a FIFO"
    deepest.unlink()
    _fifo(chain[6] / "pack" / "pack-1.idx")  # git never reads a seventh level
    assert gitdir.special_file(dirs) is None
    _fifo(chain[5] / "info" / "alternates")  # but it reads the sixth level's alternates, to say so
    assert _error(gitdir.special_file, dirs) == (f"objects/info/alternates is a FIFO, {REFUSED}", True)


def test_alternates_lines_blank_commented_relative_absolute_and_missing(tmp_path: Path) -> None:
    objects = tmp_path / "own" / "objects"
    for folder in ("info", "#commented", "../../relative/objects"):
        (objects / folder).mkdir(parents=True)
    absolute = tmp_path / "absolute" / "objects"
    absolute.mkdir(parents=True)
    (objects / "info" / "alternates").write_text(
        f"\n   \n#commented\n  ../../relative/objects  \n{absolute}\n{tmp_path / 'missing'}\n"
    )
    assert gitdir.alternates(objects) == [objects / "../../relative/objects", absolute]
    (objects / "info" / "alternates").write_text("")
    assert gitdir.alternates(objects) == []


# -- parse_listing: the configuration git is let to read -----------------------------------------------------------


def _listing(*items: str) -> bytes:
    return "\0".join(items).encode() + b"\0"


def test_an_ordinary_configuration_is_accepted_and_not_partial(tmp_path: Path) -> None:
    listing = _listing(
        "core.bare\nfalse",
        "user.name\nSomeone",
        "submodule.lib.path\nlib",  # a path, not an include
        "remote.origin.url\nfile:///elsewhere",
        "branch.main.promisor\ntrue",  # promisor only counts for a remote
        "remote.origin.promisor\nfalse",
        "core.worktree\n..",  # the working tree itself, named from the git folder
    )
    worktree = tmp_path / "blog"
    worktree.mkdir()
    assert gitdir.parse_listing(listing, worktree, worktree / ".git", ".git/config") == Configuration(False)
    absolute = _listing(f"core.worktree\n{worktree}")
    assert gitdir.parse_listing(absolute, worktree, worktree / ".git", ".git/config") == Configuration(False)


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("include.path\n/etc/other", "includes another file (include.path = '/etc/other')"),
        ("includeif.gitdir:/x/.path\nother", "includes another file (includeif.gitdir:/x/.path = 'other')"),
    ],
)
def test_an_include_is_refused_with_the_key_and_file(tmp_path: Path, item: str, message: str) -> None:
    assert _error(gitdir.parse_listing, _listing(item), tmp_path, tmp_path / ".git", "config.worktree") == (
        f"config.worktree {message}; git cannot be told to ignore an include, so mechlint does not let git read "
        "this configuration",
        True,
    )


@pytest.mark.parametrize("value", ["../elsewhere", ""])
def test_a_working_tree_elsewhere_is_refused(tmp_path: Path, value: str) -> None:
    assert _error(gitdir.parse_listing, _listing(f"core.worktree\n{value}"), tmp_path, tmp_path / ".git", "x") == (
        f"x sets core.worktree to another folder ({value!r}); git is not run on it",
        True,
    )


@pytest.mark.parametrize(
    ("items", "partial"),
    [
        (["extensions.partialclone\norigin"], True),
        (["remote.origin.promisor\ntrue"], True),
        (["remote.origin.promisor"], True),  # a key without a value is a true boolean
        (["remote.origin.promisor\nTRUE", "remote.origin.promisor\nfalse"], True),
        (["remote.origin.promisor\n"], False),  # an empty value is a false one
        (["remote.origin.promisor\nFalse", "remote.other.promisor\nNo", "remote.x.promisor\nOFF"], False),
        (["remote.origin.promisor\n0"], False),
        (["foo.origin.promisor\ntrue", "remote.origin.url\nx"], False),
    ],
)
def test_a_partial_clone_is_told_by_its_configuration(tmp_path: Path, items: list[str], partial: bool) -> None:
    listing = _listing(*items)
    assert gitdir.parse_listing(listing, tmp_path, tmp_path / ".git", "x") == Configuration(partial)


def test_a_promisor_without_a_value_is_read_as_git_reads_it(repo: Path) -> None:
    """What ``git config --list --null`` prints for ``promisor`` written without ``= value``: no line break."""
    with (repo / ".git" / "config").open("a") as stream:
        stream.write('[remote "origin"]\n\tpromisor\n')
    listing = git(repo, "config", "--file", ".git/config", "--no-includes", "--null", "--list").encode()
    assert b"remote.origin.promisor\0" in listing
    assert gitdir.parse_listing(listing, repo, repo / ".git", ".git/config") == Configuration(True)


# -- git_toplevel: the nearest folder holding .git, remembered ------------------------------------------------


def test_git_toplevel_walks_up_and_remembers_every_folder_it_looked_at(repo: Path, tmp_path: Path) -> None:
    deep = repo / "a" / "b"
    deep.mkdir(parents=True)
    assert gitdir.git_toplevel(deep) == repo
    known: dict[str, Path | None] = {}
    assert gitdir.git_toplevel(deep, known) == repo
    assert known == {os.fspath(deep): repo, os.fspath(repo / "a"): repo, os.fspath(repo): repo}
    known[os.fspath(repo / "a")] = tmp_path / "remembered"  # a remembered answer is taken, not looked up again
    (repo / "a" / "c").mkdir()
    assert gitdir.git_toplevel(repo / "a" / "c", known) == tmp_path / "remembered"
    assert known[os.fspath(repo / "a" / "c")] == tmp_path / "remembered"
    assert len(known) == 4


def test_git_toplevel_is_none_up_to_the_root_without_git(tmp_path: Path) -> None:
    folder = tmp_path / "plain" / "folder"
    folder.mkdir(parents=True)
    if any((parent / ".git").exists() for parent in folder.parents):
        pytest.skip("a folder above the temporary folder holds .git")
    known: dict[str, Path | None] = {}
    assert gitdir.git_toplevel(folder, known) is None
    assert known == dict.fromkeys([os.fspath(folder), *map(os.fspath, folder.parents)])


# -- objects_state: what decides which objects a clone has, besides the refs --------------------------------------


def _key(*parts: bytes) -> str:
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def _shallow(data: bytes) -> bytes:
    return b"shallow:" + hashlib.sha256(data).hexdigest().encode()


MAX_SHALLOW = 16 * 1024 * 1024


def test_a_complete_clone_is_told_by_its_refs_alone(repo: Path) -> None:
    assert gitdir.objects_state(_dirs(repo), False) == _key(b"complete")


def test_a_shallow_file_is_hashed_up_to_16_mib_and_never_keyed_beyond(tmp_path: Path) -> None:
    common = tmp_path / "common"
    common.mkdir()
    dirs = GitDirs(common, common)
    small = b"1" * 40 + b"\n"
    (common / "shallow").write_bytes(small)
    assert gitdir.objects_state(dirs, False) == _key(_shallow(small))
    limit = bytes(range(256)) * (MAX_SHALLOW // 256)
    (common / "shallow").write_bytes(limit)
    assert gitdir.objects_state(dirs, False) == _key(_shallow(limit))
    (common / "shallow").write_bytes(limit + b"x")
    keys = {gitdir.objects_state(dirs, False) for _ in range(2)}
    assert len(keys) == 2  # a key no run meets again
    assert not keys & {_key(_shallow(limit + b"x")), _key(_shallow(limit))}


def test_a_shallow_file_that_grew_while_read_never_gets_the_key_of_its_beginning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looked at with 16 MiB, read with more: one byte past the limit is hashed, so the key is not the one a
    file of its first 16 MiB has."""
    common = tmp_path / "common"
    common.mkdir()
    grown = bytes(range(256)) * (MAX_SHALLOW // 256) + b"more"
    shallow = common / "shallow"
    shallow.write_bytes(grown)
    real_stat = os.stat

    def stat_before_it_grew(path: Any, *args: Any, **kwargs: Any) -> Any:
        if os.fspath(path) == os.fspath(shallow):
            return SimpleNamespace(st_size=MAX_SHALLOW)
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(gitdir, "os", _os_with(stat=stat_before_it_grew))
    state = gitdir.objects_state(GitDirs(common, common), False)
    assert state == _key(_shallow(grown[: MAX_SHALLOW + 1]))
    assert state != _key(_shallow(grown[:MAX_SHALLOW]))


def _objects(common: Path) -> Path:
    objects = common / "objects"
    for folder in ("info", "pack", "ab"):
        (objects / folder).mkdir(parents=True)
    for name in ("pack-2.pack", "pack-1.idx"):
        (objects / "pack" / name).write_bytes(b"")
    return objects


def _mtimes(objects: Path, *names: str) -> list[bytes]:
    return [f"{name}:{os.stat(objects / name, follow_symlinks=False).st_mtime_ns}".encode() for name in names]


def test_a_partial_clone_is_told_by_its_packs_loose_folders_and_alternates(tmp_path: Path) -> None:
    common = tmp_path / "common"
    objects = _objects(common)
    dirs = GitDirs(common, common)
    packs = [b"pack-1.idx", b"pack-2.pack"]
    assert gitdir.objects_state(dirs, True) == _key(b"full depth", *_mtimes(objects, "ab", "info", "pack"), *packs, b"")
    (objects / "info" / "alternates").write_bytes(b"/elsewhere/objects\n")
    (common / "shallow").write_bytes(b"2" * 40 + b"\n")
    assert gitdir.objects_state(dirs, True) == _key(
        _shallow(b"2" * 40 + b"\n"), *_mtimes(objects, "ab", "info", "pack"), *packs, b"/elsewhere/objects\n"
    )


def test_a_linked_loose_object_folder_counts_by_the_folder_it_names(tmp_path: Path) -> None:
    """A lazy fetch writes a loose object into the folder a link names: its time, not the link's, must change."""
    common = tmp_path / "common"
    objects = _objects(common)
    elsewhere = tmp_path / "elsewhere" / "cd"
    elsewhere.mkdir(parents=True)
    (objects / "cd").symlink_to(elsewhere)
    dirs = GitDirs(common, common)
    before = gitdir.objects_state(dirs, True)
    os.utime(elsewhere, ns=(1_000_000_000, 1_000_000_000))
    assert gitdir.objects_state(dirs, True) != before
