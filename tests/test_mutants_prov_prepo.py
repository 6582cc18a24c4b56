"""The edges of ``provenance/repository.py`` and ``log.py`` that ``scripts/mutate.py`` found unchecked (issue 32).

Each test builds its own repository in ``tmp_path`` and asks the module for
the exact answer: the whole state, the whole key, every field.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from mechlint.provenance import gitdir, stored
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.git import History
from mechlint.provenance.index import BlobIndex
from mechlint.provenance.log import Revision, date_and_subject, is_hex, parse_log
from mechlint.provenance.nohistory import NoHistory
from mechlint.provenance.paths import FileState
from mechlint.provenance.repository import Repository, refs_key

from .gitrepo import _ENV, commit, git, init, write
from .test_provenance_describe import CASES

LF = b"one\ntwo\n"
CRLF = b"one\r\ntwo\r\n"
LF_SHA = hashlib.sha256(LF).hexdigest()
CRLF_SHA = hashlib.sha256(CRLF).hexdigest()
GONE = FileState("absent")


def _sha1_blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _broken(folder: Path) -> Path:
    """A folder whose ``.git`` file names a git folder that does not exist."""
    folder.mkdir(parents=True)
    (folder / ".git").write_text("gitdir: nowhere\n")
    return folder


def _repository(base: Path, toplevel: Path | None) -> Repository:
    return Repository(base, toplevel, many=False)


# -- prefix: where base is inside the repository ---------------------------------------------------------


def test_prefix_is_base_from_the_top_with_a_slash_and_empty_at_the_top_or_outside(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    (top / "site" / "docs").mkdir(parents=True)
    assert _repository(top / "site" / "docs", top).prefix == "site/docs/"
    assert _repository(top, top).prefix == ""
    assert _repository(tmp_path, None).prefix == ""


# -- file_state: the bytes of a source, read once a run ----------------------------------------------------


def test_file_state_reads_once_a_run_and_adds_the_blob_id_when_asked_later(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    repository = _repository(top, top)
    plain = repository.file_state("post.md")
    assert plain == FileState("file", LF_SHA, len(LF), LF)  # no blob id unless asked for
    write(top, "post.md", b"changed\n")
    assert repository.file_state("post.md") == plain  # read once a run: the first answer stands
    # asked for the blob id afterwards, the file is read again for it (here: its new bytes)
    changed = b"changed\n"
    assert repository.file_state("post.md", blob_id=True) == FileState(
        "file", hashlib.sha256(changed).hexdigest(), len(changed), changed, git_blob=_sha1_blob(changed)
    )


def test_file_state_of_a_gone_path_is_absent_in_a_repository_and_outside_one(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    assert stored.index_version(os.fspath(top / ".git")) == 2
    assert _repository(top, top).file_state("gone.md") == GONE
    assert _repository(top, top).file_state("gone.md", blob_id=True) == GONE
    outside = tmp_path / "plain"
    outside.mkdir()
    assert _repository(outside, None).file_state("gone.md") == GONE
    write(outside, "crlf.md", CRLF)  # outside a repository, the bytes as they are
    assert _repository(outside, None).file_state("crlf.md") == FileState("file", CRLF_SHA, len(CRLF), CRLF, crlf=True)


@pytest.mark.parametrize("subfolder", ["", "site/"])
def test_file_state_of_a_crlf_file_is_the_bytes_git_stores(tmp_path: Path, subfolder: str) -> None:
    """With ``core.autocrlf=true`` git stores LF: the source's bytes are those, also from a base below the top."""
    top = init(tmp_path / "blog")
    git(top, "config", "core.autocrlf", "true")
    commit(top, "first", {f"{subfolder}post.md": LF})
    write(top, f"{subfolder}post.md", CRLF)
    assert stored.index_version(os.fspath(top / ".git")) == 2
    repository = _repository(top / subfolder if subfolder else top, top)
    assert repository.file_state("post.md") == FileState("file", LF_SHA, len(LF), LF, crlf=True)
    fresh = _repository(top / subfolder if subfolder else top, top)
    assert fresh.file_state("post.md", blob_id=True) == FileState(
        "file", LF_SHA, len(LF), LF, git_blob=_sha1_blob(LF), crlf=True
    )


def test_file_state_where_history_cannot_be_opened_is_the_bytes_as_they_are(tmp_path: Path) -> None:
    top = _broken(tmp_path / "blog")
    write(top, "post.md", CRLF)
    repository = _repository(top, top)
    assert repository.file_state("post.md") == FileState("file", CRLF_SHA, len(CRLF), CRLF, crlf=True)
    assert repository.file_state("gone.md") == GONE
    assert repository.checkout() is None


def test_file_state_of_a_path_a_sparse_checkout_leaves_out_is_its_bytes_in_head(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"sources/post.md": LF, "content/kept.md": "kept\n"})
    git(top, "sparse-checkout", "set", "content")
    assert not (top / "sources").exists()
    assert stored.index_version(os.fspath(top / ".git")) == 3  # the least version that can hold such entries
    sparse = FileState(
        "file",
        LF_SHA,
        len(LF),
        LF,
        "is outside the sparse checkout (its bytes in HEAD are used)",
        _sha1_blob(LF),
        sparse=True,
    )
    assert _repository(top, top).file_state("sources/post.md") == sparse
    assert _repository(top / "sources", top).file_state("post.md") == sparse
    assert _repository(top, top).file_state("sources/gone.md") == GONE


def test_file_state_when_git_cannot_read_the_index_is_the_bytes_as_they_are(tmp_path: Path) -> None:
    """An index git calls corrupt (its header says version 3): git could not say, so a gone path is gone."""
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    (top / ".git" / "index").write_bytes(b"DIRC\0\0\0\3" + b"\xff" * 40)
    repository = _repository(top, top)
    assert repository.file_state("gone.md") == GONE
    assert repository.history().exists  # history itself opened: only the index failed


# -- object_format: the hash of git's object ids ----------------------------------------------------------


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
@pytest.mark.parametrize("committed", [True, False])
def test_object_format_is_the_repositorys_before_and_after_the_first_commit(
    tmp_path: Path, object_format: str, committed: bool
) -> None:
    top = tmp_path / "blog"
    top.mkdir()
    git(top, "init", "-q", "-b", "main", f"--object-format={object_format}")
    if committed:
        commit(top, "first", {"post.md": LF})
    repository = _repository(top, top)
    assert (repository.history().state().head is not None) == committed
    assert repository.object_format() == object_format


def test_object_format_without_history_or_when_git_cannot_say_is_sha1(tmp_path: Path) -> None:
    assert _repository(tmp_path, None).object_format() == "sha1"
    assert _repository(_broken(tmp_path / "broken"), tmp_path / "broken").object_format() == "sha1"
    top = tmp_path / "blog"
    top.mkdir()
    git(top, "init", "-q", "-b", "main", "--object-format=sha256")
    repository = _repository(top, top)
    assert repository.history().state().head is None  # opened, with no commit yet
    os.rename(top, tmp_path / "moved")  # and then the repository is gone: git cannot even start there
    assert repository.object_format() == "sha1"


# -- history, checkout, index, names: opened when first needed, once --------------------------------------


def test_history_outside_a_repository_says_why_there_is_none(tmp_path: Path) -> None:
    history = _repository(tmp_path, None).history()
    assert isinstance(history, NoHistory)
    assert (history.reason, history.broken, history.fix) == ("the folder is not in a git repository", False, "")


def test_history_of_a_repository_git_cannot_open_gives_gits_reason(tmp_path: Path) -> None:
    top = _broken(tmp_path / "blog")
    repository = _repository(top, top)
    history = repository.history()
    assert isinstance(history, NoHistory)
    assert (history.reason, history.broken, history.fix) == ("the git folder named by .git does not exist", False, "")
    assert repository.history() is history
    assert repository.index() is None
    assert repository.checkout() is None


@pytest.mark.parametrize("many", [False, True])
def test_history_of_a_repository_is_opened_once_with_its_answers_and_the_runs_kind(tmp_path: Path, many: bool) -> None:
    top = init(tmp_path / "blog")
    first = commit(top, "first", {"post.md": LF})
    repository = Repository(top, top, many=many)
    history = repository.history()
    try:
        assert isinstance(history, History)
        assert history.state().head == first
        assert isinstance(history.answers, BlobCache)
        assert history.many_files is many
        assert repository.history() is history
        checkout = repository.checkout()
        assert checkout is not None
        assert repository.checkout() is checkout
        index = repository.index()
        assert isinstance(index, BlobIndex)
        assert repository.index() is index
    finally:
        repository.close()


def test_names_are_the_files_of_head_inside_base_as_source_paths(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"site/content/post.md": LF, "site/other.md": LF, "elsewhere/post.md": LF})
    write(top, "site/content/new.md", LF)  # not in HEAD
    repository = _repository(top / "site", top)
    names = repository.names()
    assert repository.names() is names
    assert names.by_folder == {"content": ["content/post.md"], "": ["other.md"]}
    assert names.closest("content/Post.md") == "content/post.md"
    assert _repository(tmp_path, None).names().by_folder == {}


def test_names_before_the_first_commit_are_none(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    assert _repository(top, top).names().by_folder == {}


# -- submodule: the nested repository holding a path --------------------------------------------------------


def test_submodule_is_the_nearest_folder_with_a_git_of_its_own(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    init(top / "vendor" / "lib")
    init(top / "mod")
    repository = _repository(top, top)
    assert repository.submodule("mod/file.md") == "mod"
    assert repository.submodule("vendor/lib/file.md") == "vendor/lib"
    assert repository.submodule("vendor/lib/deeper/file.md") == "vendor/lib"
    assert repository.submodule("vendor/file.md") is None
    assert repository.submodule("post.md") is None  # the top's own .git is no submodule
    assert repository.submodules == {"mod": True, "vendor": False, "vendor/lib": True}


# -- flush and close ------------------------------------------------------------------------------------


class _Answers:
    """Stands for a history's kept answers, recording what is asked of it."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    def flush(self) -> None:
        self.calls.append("answers.flush")

    def close(self) -> None:
        self.calls.append("answers.close")


def _record(monkeypatch: pytest.MonkeyPatch, thing: object, name: str, calls: list[str]) -> None:
    """Record each ``close()`` of ``thing`` in ``calls``, and still close it (no git left running)."""
    close = thing.close  # type: ignore[attr-defined]

    def recorded() -> None:
        calls.append(f"{name}.close")
        close()

    monkeypatch.setattr(thing, "close", recorded)


def test_flush_and_close_with_nothing_opened_open_nothing(tmp_path: Path) -> None:
    """Neither opens history to close it: the answers kept between runs (``.git/mechlint``) are never made."""
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    repository = _repository(top, top)
    repository.flush()
    repository.close()
    outside = _repository(tmp_path, None)
    outside.flush()
    outside.close()
    assert not (top / ".git" / "mechlint").exists()


def test_flush_writes_the_answers_and_close_closes_checkout_history_and_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    repository = _repository(top, top)
    calls: list[str] = []
    history = repository.history()
    assert isinstance(history, History)
    assert history.answers is not None
    history.answers.close()
    history.answers = _Answers(calls)  # type: ignore[assignment]
    checkout = repository.checkout()
    assert checkout is not None
    _record(monkeypatch, checkout, "checkout", calls)
    _record(monkeypatch, history, "history", calls)
    repository.flush()
    assert calls == ["answers.flush"]
    calls.clear()
    repository.close()
    assert calls == ["answers.flush", "checkout.close", "history.close", "answers.close"]


def test_flush_and_close_without_kept_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    repository = _repository(top, top)
    history = repository.history()
    assert isinstance(history, History)
    assert history.answers is not None
    history.answers.close()
    history.answers = None
    calls: list[str] = []
    _record(monkeypatch, history, "history", calls)
    repository.flush()
    repository.close()
    assert calls == ["history.close"]


# -- refs_key: what the result cache's history part is ---------------------------------------------------


#: ``gitdir.objects_state`` of a complete clone: the objects its refs reach are all there
COMPLETE = hashlib.sha256(b"complete").hexdigest().encode()


def _key(refs: bytes, head: bytes) -> str:
    return hashlib.sha256(refs + b"\0" + head + b"\0" + COMPLETE).hexdigest()


def test_refs_key_outside_a_repository(tmp_path: Path) -> None:
    assert refs_key(None) == "no repository"


def test_refs_key_hashes_every_ref_with_its_object_head_and_the_objects(tmp_path: Path) -> None:
    top = init(tmp_path / "blog")
    assert refs_key(top) == _key(b"", b"")  # no commit yet: no refs, no HEAD
    first = commit(top, "first", {"post.md": LF})
    second = commit(top, "second", {"post.md": b"two\n"})
    git(top, "branch", "side", first)
    expected = _key(f"{second} refs/heads/main\n{first} refs/heads/side\n".encode(), f"{second}\n".encode())
    assert refs_key(top) == expected
    git(top, "branch", "-f", "side", second)  # a ref other than HEAD moves: the key changes
    assert refs_key(top) == _key(
        f"{second} refs/heads/main\n{second} refs/heads/side\n".encode(), f"{second}\n".encode()
    )
    assert gitdir.objects_state(gitdir.locate(top), False).encode() == COMPLETE


def test_refs_key_of_a_repository_git_cannot_read_says_why(tmp_path: Path) -> None:
    top = _broken(tmp_path / "blog")
    assert refs_key(top) == "unreadable: the git folder named by .git does not exist"


# -- log: what git log --raw -z says, as revisions ---------------------------------------------------------


def _log(repo: Path, *args: str) -> bytes:
    """``git log --raw -z`` in the format ``parse_log`` reads, the output exactly as git prints it."""
    done = subprocess.run(
        ["git", "log", "--raw", "--no-abbrev", "-z", "--format=%x01%H %ct", *args],
        cwd=repo,
        env=_ENV,
        capture_output=True,
        check=True,
    )
    return done.stdout


def _blob(repo: Path, spec: str) -> str:
    return git(repo, "rev-parse", spec)


def _time(repo: Path, commit_id: str) -> int:
    return int(git(repo, "show", "-s", "--format=%ct", commit_id))


def _history_of_every_kind(repo: Path) -> list[Revision]:
    """Commits that add, modify, rename, copy and delete files and add and remove a submodule; their revisions."""
    first = commit(repo, "add", {"a.md": LF, "b.md": "bee\n" * 20})
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{first},mod")
    add_mod = commit(repo, "submodule")
    git(repo, "mv", "b.md", "c.md")
    renamed = commit(repo, "modify and rename", {"a.md": b"one\ntwo\nthree\n"})
    copied = commit(repo, "copy", {"d.md": b"one\ntwo\nthree\n"})
    git(repo, "rm", "-q", "--cached", "mod")
    gone = commit(repo, "delete", {"a.md": None})
    a1, a2, bee = _blob(repo, f"{first}:a.md"), _blob(repo, f"{renamed}:a.md"), _blob(repo, f"{first}:b.md")
    return [
        Revision(gone, _time(repo, gone), "a.md", None, a2),
        Revision(gone, _time(repo, gone), "mod", None, first),
        Revision(copied, _time(repo, copied), "d.md", a2, a2, "a.md"),
        Revision(renamed, _time(repo, renamed), "a.md", a2, a1),
        Revision(renamed, _time(repo, renamed), "c.md", bee, bee, "b.md"),
        Revision(add_mod, _time(repo, add_mod), "mod", None, None),
        Revision(first, _time(repo, first), "a.md", a1, None),
        Revision(first, _time(repo, first), "b.md", bee, None),
    ]


def test_parse_log_reads_every_kind_of_change_git_prints(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    expected = _history_of_every_kind(repo)
    assert parse_log(_log(repo, "-M", "-C", "--find-copies-harder")) == expected
    assert parse_log(b"") == []


def test_parse_log_skips_a_record_whose_header_is_not_a_commit_and_its_time(tmp_path: Path) -> None:
    commit_id, blob = "a" * 40, "b" * 40
    entry = b":000000 100644 " + b"0" * 40 + b" " + blob.encode() + b" A\0new.md\0"

    def record(header: bytes) -> bytes:
        return b"\x01" + header + b"\0\n" + entry

    assert parse_log(record(b"not-a-commit 1700000000")) == []
    assert parse_log(record(commit_id.encode() + b" 1700000000 extra")) == []
    assert parse_log(record(commit_id.encode())) == []
    assert parse_log(record(commit_id.encode() + b" soon")) == [Revision(commit_id, 0, "new.md", blob, None)]
    assert parse_log(record(b"c" * 64 + b" 17")) == [Revision("c" * 64, 17, "new.md", blob, None)]


def test_parse_log_of_output_cut_anywhere_keeps_the_whole_entries_before_the_cut(tmp_path: Path) -> None:
    """Each prefix of git's output parses without an error; an entry cut short is left out, a rename too."""
    repo = init(tmp_path / "blog")
    expected = _history_of_every_kind(repo)
    output = _log(repo, "-M", "-C", "--find-copies-harder")
    for end in range(len(output) + 1):
        parse_log(output[:end])
    rename = output.index(b"\0b.md\0") + len(b"\0b.md")
    assert parse_log(output[:rename]) == expected[:4]  # "R100 b.md" without its second name
    assert parse_log(output[: rename + 1]) == expected[:4]  # its second name empty: no name either
    deleted = output.index(b" D\0") + len(b" D")
    assert parse_log(output[:deleted]) == []  # the first entry, without its path
    assert parse_log(output[: deleted + 1]) == []  # with an empty one
    assert parse_log(output[: deleted + 1 + len(b"a.md")]) == expected[:1]  # whole, the NUL after it missing


def test_is_hex_is_a_whole_object_id_of_either_hash_in_lower_case() -> None:
    assert [is_hex(value) for value in ("a" * 40, "0123456789abcdef" * 4, "a" * 64)] == [True, True, True]
    assert [is_hex(value) for value in ("a" * 39, "a" * 41, "a" * 63, "A" * 40, "g" * 40, "")] == [False] * 6


#: ``date_and_subject`` of each commit of the describe tests: the date and subject, or ``None`` (git is asked).
DESCRIBED: dict[str, bytes | None] = {
    "plain": b"2023-11-14\0Subject line\n",
    "zone east moves the day": b"2023-11-15\0Subject line\n",
    "zone west moves the day": b"2023-11-14\0Subject line\n",
    "half-hour zone": b"2023-11-15\0Subject line\n",
    "odd zone minutes (git reads +0199 as 1 h 99 min)": b"2023-11-15\0Subject line\n",
    "negative zero": b"2023-11-14\0Subject line\n",
    "epoch": b"1970-01-01\0Subject line\n",
    "before 1970 by the zone": None,
    "last second of a day": b"1970-01-01\0Subject line\n",
    "after 2038": b"2100-01-01\0Subject line\n",
    "year 9999": None,  # twelve digits: more than the committer line's shape takes
    "year 10000": None,
    "blank lines before the subject": b"2023-11-14\0Subject\n",
    "subject of two lines": b"2023-11-14\0first half second half\n",
    "trailing blanks and CR": b"2023-11-14\0Subject more\n",
    "vertical tab and form feed are not blanks to git": b"2023-11-14\0Subject\x0b\x0c \x0b x\n",
    "no message": b"2023-11-14\0\n",
    "only blank lines": b"2023-11-14\0\n",
    "no final newline": b"2023-11-14\0Subject without newline\n",
    "UTF-8": "2023-11-14\0Grüße, 世界 — “quoted”\n".encode(),
    "not UTF-8": b"2023-11-14\0caf\xe9 \xff\xfe\n",
    "long subject": b"2023-11-14\0" + b"x" * 300 + b"\n",
    "unicode blanks at the end": "2023-11-14\0Subject\u00a0\u2028\n".encode(),
    "NUL in the message": None,
    "encoding header": None,
    "two committer lines": None,
    "no committer": None,
    "committer without a date": None,
    "committer with two spaces": None,
    "committer with a bad zone": None,
    "committer with a huge date": None,
    "angle brackets in the name": b"2023-11-14\0s\n",
    "signed": b"2023-11-14\0Signed\n",
}


def test_date_and_subject_of_each_described_commit_exactly() -> None:
    """The describe tests accept ``None`` for any commit (git is asked then): here each answer is exact."""
    assert {name: date_and_subject(content) for name, content in CASES.items()} == DESCRIBED


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ("0 +0000", b"1970-01-01\0s\n"),
        ("0 +0001", b"1970-01-01\0s\n"),
        ("59 -0001", None),  # 1 s before 1970 in the committer's zone
        ("60 -0001", b"1970-01-01\0s\n"),
        ("86399 +0000", b"1970-01-01\0s\n"),
        ("86340 +0001", b"1970-01-02\0s\n"),
        ("86400 -0001", b"1970-01-01\0s\n"),
        ("99999999999 +9999", b"5138-11-20\0s\n"),  # the latest date the committer line's shape takes
        ("129540 +1200", b"1970-01-02\0s\n"),  # 23:59 there: 12 h are 720 minutes, not one more
        ("129600 +1200", b"1970-01-03\0s\n"),  # 00:00 there, not one minute less
        ("76860 +0099", b"1970-01-01\0s\n"),  # 23:00 there: +0099 is 99 minutes, no hour more
        ("66720 +0530", b"1970-01-02\0s\n"),  # 00:02 there: 5 h 30 min
    ],
)
def test_date_and_subject_at_the_edges_of_the_day_and_of_1970(when: str, expected: bytes | None) -> None:
    content = b"tree %s\ncommitter A <a@b> %s\n\ns\n" % (b"4" * 40, when.encode())
    assert date_and_subject(content) == expected


def test_refs_key_of_a_repository_whose_refs_git_cannot_read_is_not_the_key_of_one_without_refs(
    tmp_path: Path,
) -> None:
    """Its history answers differently (history-unavailable, not "nothing ever was"), so its key differs too."""
    empty = init(tmp_path / "empty")
    top = init(tmp_path / "blog")
    commit(top, "first", {"post.md": LF})
    git(top, "pack-refs", "--all")
    with open(top / ".git" / "packed-refs", "ab") as refs:
        refs.write(b"garbage line\n")
    assert refs_key(top) == "unreadable: git failed: fatal: unexpected line in .git/packed-refs: garbage line"
    assert refs_key(empty) == _key(b"", b"")
