"""The edges of ``mechlint/provenance/paths.py`` that ``scripts/mutate.py`` found unchecked (issue 32).

What a source path may be, what is at it in the working tree (every kind of
``FileState``, each field compared), how its bytes are read (the size limits,
the bytes kept, a CRLF pair across two reads, a file that changes while it is
read) and the helpers that explain a mismatch (an LFS pointer's oid, the line
ending variants). Every test builds its own files in ``tmp_path``; the races
(a file swapped, grown or shrunk between its ``stat`` and its read) are made
by a ``stat`` that answers for the file as it was.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mechlint.provenance.paths import (
    FileState,
    Kind,
    git_blob_id,
    hash_source,
    lfs_oid,
    line_ending_variants,
    path_problem,
)

from .gitrepo import git, init

MiB = 1 << 20


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def top(tmp_path: Path) -> Path:
    """A repository root, resolved as ``hash_source`` expects it."""
    root = tmp_path.resolve() / "blog"
    root.mkdir()
    return root


def put(root: Path, relative: str, data: bytes) -> Path:
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


def state(kind: Kind, detail: str = "") -> FileState:
    """A state with every field written out (so that a changed default of ``FileState`` shows)."""
    return FileState(kind, "", 0, None, detail, "", False, False)


def read(data: bytes, *, git_blob: str = "", crlf: bool = False, kept: bool = True) -> FileState:
    """The state of a regular file holding ``data``."""
    return FileState("file", sha(data), len(data), data if kept else None, "", git_blob, crlf, False)


# -- path_problem ----------------------------------------------------------------------------------------------

CONTROL = "the path contains the control or invisible character U+"


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("a\ud800b", "the path contains U+D800, a lone surrogate that no file name can hold"),
        ("é/\udfffx", "the path contains U+DFFF, a lone surrogate that no file name can hold"),
        ("é\x1fb", CONTROL + "001F"),  # an ASCII control in a path that is not ASCII: the per-character branch
        ("é\x7f", CONTROL + "007F"),
        ("é\u2028b", CONTROL + "2028"),
        ("é\u2029b", CONTROL + "2029"),
        ("\u00adé", CONTROL + "00AD"),
        ("a\u200bb\x00", CONTROL + "200B"),  # the first one is named
        ("a\x01b\x02", CONTROL + "0001"),
        ("é\\b", "the path contains a backslash; use / between folders"),
        ("-é", "the path starts with '-'"),
        ("C:", "the path is absolute; write it relative to the repository root"),
        ("a:b", "the path is absolute; write it relative to the repository root"),  # a drive letter's own folder
        ("é:/x", "the path is absolute; write it relative to the repository root"),
        ("/é", "the path is absolute; write it relative to the repository root"),
        ("é/", "the path has an empty or '.' component"),
        ("é/../b", "the path has a '..' component"),
        ("a/.git. /b", "the path goes into .git"),
        ("a/.GİT", None),  # casefold keeps the dotted capital İ apart from i: no ``.git``
    ],
)
def test_path_problem_names_each_problem(path: str, why: str | None) -> None:
    assert path_problem(path) == why


@pytest.mark.parametrize("path", ["ab", "a", "é", "日本/ファイル.md", "x/.gitx", "x/git", "..a/b.", "a/.../b"])
def test_path_problem_lets_ordinary_names_through(path: str) -> None:
    assert path_problem(path) is None


# -- hash_source: what is at the path ----------------------------------------------------------------------------


def test_hash_source_reads_a_file_and_keeps_every_field(top: Path) -> None:
    put(top, "sub/post.md", b"one\ntwo\n")
    assert hash_source(top, "sub/post.md") == read(b"one\ntwo\n")
    put(top, "empty.md", b"")
    assert hash_source(top, "empty.md") == read(b"")


def test_hash_source_names_what_is_not_a_readable_file(top: Path, tmp_path: Path) -> None:
    put(top, "post.md", b"post\n")
    put(tmp_path, "elsewhere/x", b"x\n")
    (top / "out").symlink_to(tmp_path / "elsewhere")
    (top / "dead").symlink_to(top / "nothing")
    (top / "loop").symlink_to(top / "loop")
    (top / "inside").symlink_to(top / "post.md")
    (top / "home").symlink_to(top)
    os.mkfifo(top / "fifo")
    (top / "folder").mkdir()
    assert hash_source(top, "missing.md") == state("absent")
    assert hash_source(top, "missing/below.md") == state("absent")
    assert hash_source(top, "dead") == state("outside", "is a broken symbolic link")
    assert hash_source(top, "loop") == state("outside", "is a symbolic link loop")
    assert hash_source(top, "out/x") == state(
        "outside", "resolves, through a symbolic link, to a place outside the repository"
    )
    assert hash_source(top, "post.md/below") == state("unreadable", "cannot be read (Not a directory)")
    assert hash_source(top, "fifo") == state("special", "is a FIFO (named pipe), not a regular file; it is not read")
    assert hash_source(top, "folder") == state("special", "is a folder, not a regular file; it is not read")
    assert hash_source(top, "home") == state("special", "is a folder, not a regular file; it is not read")
    assert hash_source(top, "inside") == read(b"post\n")
    assert hash_source(top, "home/post.md") == read(b"post\n")


def test_hash_source_refuses_a_file_past_the_default_limit_without_reading_it(top: Path) -> None:
    """256 MiB is the limit: a sparse file one byte larger is refused from its size alone."""
    with open(top / "huge.bin", "wb") as huge:
        huge.truncate(256 * MiB + 1)
    assert hash_source(top, "huge.bin") == state("unreadable", "is 268435457 bytes, more than the 268435456-byte limit")


def test_hash_source_reads_a_file_of_exactly_its_limit(top: Path) -> None:
    put(top, "ten.md", b"0123456789")
    put(top, "eleven.md", b"0123456789A")
    assert hash_source(top, "ten.md", 10) == read(b"0123456789")
    assert hash_source(top, "eleven.md", 10) == state("unreadable", "is 11 bytes, more than the 10-byte limit")


def test_hash_source_keeps_the_bytes_up_to_four_mebibytes_by_default(top: Path) -> None:
    at_limit = b"\x00" * (4 * MiB)
    put(top, "at.bin", at_limit)
    put(top, "past.bin", at_limit + b"\x00")
    assert hash_source(top, "at.bin") == read(at_limit)
    assert hash_source(top, "past.bin") == read(at_limit + b"\x00", kept=False)


def test_hash_source_keeps_the_bytes_up_to_the_keep_given(top: Path) -> None:
    put(top, "sixteen.md", b"0123456789abcde\n")
    put(top, "seventeen.md", b"0123456789abcdef\n")
    assert hash_source(top, "sixteen.md", keep=16) == read(b"0123456789abcde\n")
    assert hash_source(top, "seventeen.md", keep=16) == read(b"0123456789abcdef\n", kept=False)


# -- the git blob id ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_the_blob_id_is_the_one_git_gives(tmp_path: Path, top: Path, object_format: str) -> None:
    repository = tmp_path / f"ids-{object_format}"
    repository.mkdir()
    git(repository, "init", "-q", f"--object-format={object_format}")
    data = b"one\r\ntwo\n\x00three"
    put(repository, "data.bin", data)
    expected = git(repository, "hash-object", "data.bin")
    put(top, "data.bin", data)
    assert git_blob_id(data, object_format) == expected
    assert hash_source(top, "data.bin", blob_id=True, object_format=object_format) == read(
        data, git_blob=expected, crlf=True
    )


def test_the_blob_id_of_no_bytes_and_the_default_format(tmp_path: Path) -> None:
    repository = init(tmp_path / "ids")
    put(repository, "empty", b"")
    assert git_blob_id(b"") == git(repository, "hash-object", "empty") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


# -- hash_source: CRLF pairs, also across two reads ------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "crlf"),
    [
        (b"a\r\nb", True),
        (b"a\nb\r", False),
        (b"\r\r\n", True),
        (b"\n\r", False),
        (b"x" * (MiB - 1) + b"\r\ny", True),  # the pair split between the first read and the second
        (b"x" * (MiB - 1) + b"\r\n", True),
        (b"x" * (MiB - 1) + b"\ry\n", False),  # a CR at the end of the first read, no LF after it
        (b"x" * MiB + b"\nz", False),  # an LF at the start of the second read, no CR before it
        (b"x" * (MiB - 2) + b"\r\r" + b"\n", True),
    ],
)
def test_hash_source_tells_whether_the_bytes_hold_a_crlf_pair(top: Path, data: bytes, crlf: bool) -> None:
    put(top, "f.txt", data)
    assert hash_source(top, "f.txt").crlf is crlf
    assert hash_source(top, "f.txt", keep=0) == read(data, crlf=crlf, kept=False)


# -- hash_source: a file that changes, or fails, between the look and the read ------------------------------


@pytest.fixture
def lying_stat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``lying_stat(path, **fields)``: ``os.stat`` answers these fields for ``path`` (as it was a moment ago)."""
    lies: dict[str, dict[str, int]] = {}
    real_stat = os.stat

    def stat_(path: Any, *args: Any, **kwargs: Any) -> Any:
        found = real_stat(path, *args, **kwargs)
        fields = lies.get(os.fspath(path))
        if fields is None:
            return found
        return SimpleNamespace(**{"st_mode": found.st_mode, "st_size": found.st_size, **fields})

    monkeypatch.setattr(os, "stat", stat_)
    yield lambda path, **fields: lies.__setitem__(os.fspath(path), fields)


def test_hash_source_notices_a_file_swapped_for_a_fifo_after_its_stat(top: Path, lying_stat: Any) -> None:
    os.mkfifo(top / "swapped")
    lying_stat(top / "swapped", st_mode=stat.S_IFREG | 0o644, st_size=0)
    assert hash_source(top, "swapped") == state(
        "special", "changed into a special file while it was opened; it is not read"
    )


def test_hash_source_notices_a_file_that_grew_or_shrank_while_read(top: Path, lying_stat: Any) -> None:
    put(top, "grown.md", b"x" * 20)
    put(top, "changed.md", b"x" * 20)
    put(top, "ten.md", b"x" * 10)
    lying_stat(top / "grown.md", st_size=5)
    lying_stat(top / "changed.md", st_size=25)
    lying_stat(top / "ten.md", st_size=4)
    assert hash_source(top, "grown.md", 10) == state("unreadable", "grew past the 10-byte limit while it was read")
    assert hash_source(top, "changed.md", 30) == state("unreadable", "changed size while it was read; run again")
    assert hash_source(top, "ten.md", 10) == state("unreadable", "changed size while it was read; run again")


def _failing(real: Any, error: OSError, target: str | None = None) -> Any:
    def fail(*args: Any, **kwargs: Any) -> Any:
        if target is None or os.fspath(args[0]) == target:
            raise error
        return real(*args, **kwargs)

    return fail


@pytest.mark.parametrize("call", ["stat", "open", "read"])
def test_hash_source_says_why_a_file_cannot_be_read(top: Path, monkeypatch: pytest.MonkeyPatch, call: str) -> None:
    """``stat`` failing after the path was found, ``open`` refused, a read failing: each names the error."""
    put(top, "post.md", b"post\n")
    error = OSError(errno.EIO, "Input/output error")
    target = None if call == "read" else os.fspath(top / "post.md")
    with monkeypatch.context() as patch:
        patch.setattr(os, call, _failing(getattr(os, call), error, target))
        found = hash_source(top, "post.md")
    assert found == state("unreadable", "cannot be read (Input/output error)")


def test_hash_source_names_an_error_without_its_text(top: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put(top, "post.md", b"post\n")
    with monkeypatch.context() as patch:
        patch.setattr(os, "lstat", _failing(os.lstat, OSError("no words from the system"), os.fspath(top / "post.md")))
        found = hash_source(top, "post.md")
    assert found == state("unreadable", "cannot be read (no words from the system)")


# -- lfs_oid -----------------------------------------------------------------------------------------------------

OID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"
HEADER = b"version https://git-lfs.github.com/spec/v1\n"


def pointer(size: int, oid: str = OID) -> bytes:
    """An LFS pointer of exactly ``size`` bytes, padded by an extension line."""
    body = HEADER + b"oid sha256:" + oid.encode() + b"\nsize 12345\n"
    padding = size - len(body) - len(b"ext-0-pad \n")
    assert padding >= 0
    return body + b"ext-0-pad " + b"p" * padding + b"\n"


def test_lfs_oid_reads_a_pointer_of_up_to_1024_bytes() -> None:
    assert lfs_oid(HEADER + b"oid sha256:" + OID.encode() + b"\nsize 12\n") == OID
    assert lfs_oid(pointer(1024)) == OID
    assert lfs_oid(pointer(1023)) == OID
    assert lfs_oid(pointer(1025)) is None


@pytest.mark.parametrize(
    "data",
    [
        None,
        b"",
        b"oid sha256:" + OID.encode() + b"\n",  # no version line
        b"hello\n" + HEADER + b"oid sha256:" + OID.encode() + b"\n",
        HEADER + b"size 12\n",
        HEADER + b"oid sha256:" + OID[:63].encode() + b"\n",
        HEADER + b"oid sha256:" + OID.encode() + b"0\n",
        HEADER + b"oid sha256:" + OID.upper().encode() + b"\n",
        HEADER + b"oid sha256:" + OID[:63].encode() + b"\xff\n",
        HEADER + b"oid sha1:" + OID[:40].encode() + b"\n",
    ],
)
def test_lfs_oid_is_none_for_what_is_no_pointer(data: bytes | None) -> None:
    assert lfs_oid(data) is None


def test_lfs_oid_takes_the_first_well_formed_oid_line() -> None:
    other = "0" * 64
    data = HEADER + b"oid sha256:xyz\noid sha256:" + other.encode() + b"\noid sha256:" + OID.encode() + b"\n"
    assert lfs_oid(data) == other


# -- line_ending_variants ----------------------------------------------------------------------------------------

TO_LF = "with LF line endings"
TO_CRLF = "with CRLF line endings"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (None, {}),
        (b"", {}),
        (b"no line ending", {}),
        (b"a\rb\r", {}),
        (b"a\nb\n", {sha(b"a\r\nb\r\n"): TO_CRLF}),
        (b"a\r\nb\r\n", {sha(b"a\nb\n"): TO_LF}),
        (b"a\r\nb\n", {sha(b"a\nb\n"): TO_LF, sha(b"a\r\nb\r\n"): TO_CRLF}),
        (b"\x00a\nb\n", {}),
        (b"x" * 7999 + b"\x00\n", {}),  # a NUL among the first 8000 bytes: binary
        (b"x" * 8000 + b"\x00\n", {sha(b"x" * 8000 + b"\x00\r\n"): TO_CRLF}),  # a NUL after them: text
    ],
)
def test_line_ending_variants_by_how_they_were_made(data: bytes | None, expected: dict[str, str]) -> None:
    assert line_ending_variants(data) == expected


def test_a_link_loop_is_known_by_the_systems_own_errno(top: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ELOOP is 40 on Linux and 62 on macOS and the BSDs: a loop is known by ``errno.ELOOP``, not by a number."""
    (top / "loop").symlink_to(top / "loop")
    target = os.fspath(top / "loop")
    with monkeypatch.context() as patch:
        patch.setattr(errno, "ELOOP", 62)
        patch.setattr(os, "lstat", _failing(os.lstat, OSError(62, "Too many levels of symbolic links"), target))
        as_on_macos = hash_source(top, "loop")
        patch.setattr(os, "lstat", _failing(os.lstat, OSError(40, "Directory not empty"), target))
        forty_there = hash_source(top, "loop")
    assert as_on_macos == state("outside", "is a symbolic link loop")
    assert forty_there == state("unreadable", "cannot be read (Directory not empty)")
