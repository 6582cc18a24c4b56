"""A commit named in a message reads as git shows it: ``log.date_and_subject`` against ``git show``.

Each commit object is written as bytes (``git hash-object --literally``), so
unusual and malformed ones are tried too. For each, the description mechlint
gives (``History.describe``) must be the one ``git show -s
--format=%cs%x00%s`` gives, and ``date_and_subject`` either agrees with git
byte for byte or says ``None`` (then git itself is asked).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mechlint.provenance.git import open_history
from mechlint.provenance.log import date_and_subject

from .gitrepo import init

TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # the empty tree
WHO = b"A U Thor <a@example.com>"


def _commit(committer: bytes, message: bytes, extra: bytes = b"") -> bytes:
    return b"tree %s\nauthor %s 1700000000 +0000\n%s%s\n\n%s" % (TREE.encode(), WHO, committer, extra, message)


def _usual(when: str, message: bytes = b"Subject line\n\nBody.\n") -> bytes:
    return _commit(b"committer " + WHO + b" " + when.encode(), message)


CASES: dict[str, bytes] = {
    "plain": _usual("1700000000 +0000"),
    "zone east moves the day": _usual("1700006399 +0900"),
    "zone west moves the day": _usual("1700006399 -1200"),
    "half-hour zone": _usual("1700000000 +0530"),
    "odd zone minutes (git reads +0199 as 1 h 99 min)": _usual("1699998000 +0199"),
    "negative zero": _usual("1700000000 -0000"),
    "epoch": _usual("0 +0000"),
    "before 1970 by the zone": _usual("0 -0100"),
    "last second of a day": _usual("86399 +0000"),
    "after 2038": _usual("4102444800 +0000"),
    "year 9999": _usual("253402300799 +0000"),
    "year 10000": _usual("253402300800 +0000"),
    "blank lines before the subject": _usual("1700000000 +0000", b"\n \n\t\nSubject\n"),
    "subject of two lines": _usual("1700000000 +0000", b"first half\nsecond half\n\nbody\n"),
    "trailing blanks and CR": _usual("1700000000 +0000", b"Subject \t\r\nmore\r\n\r\nbody\r\n"),
    "vertical tab and form feed are not blanks to git": _usual("1700000000 +0000", b"Subject\x0b\x0c\n\x0b\nx\n"),
    "no message": _commit(b"committer " + WHO + b" 1700000000 +0000", b""),
    "only blank lines": _usual("1700000000 +0000", b"\n\n  \n"),
    "no final newline": _usual("1700000000 +0000", b"Subject without newline"),
    "UTF-8": _usual("1700000000 +0000", "Grüße, 世界 — “quoted”\n".encode()),
    "not UTF-8": _usual("1700000000 +0000", b"caf\xe9 \xff\xfe\n"),
    "long subject": _usual("1700000000 +0000", b"x" * 300 + b"\n"),
    "unicode blanks at the end": _usual("1700000000 +0000", "Subject\u00a0\u2028\n".encode()),
    "NUL in the message": _usual("1700000000 +0000", b"Sub\x00ject\n"),
    "encoding header": _commit(b"committer " + WHO + b" 1700000000 +0000", b"caf\xe9\n", b"\nencoding ISO-8859-1"),
    "two committer lines": _commit(
        b"committer " + WHO + b" 1700000000 +0000", b"s\n", b"\ncommitter " + WHO + b" 1800000000 +0000"
    ),
    "no committer": _commit(b"x-other y", b"s\n"),
    "committer without a date": _commit(b"committer " + WHO, b"s\n"),
    "committer with two spaces": _commit(b"committer " + WHO + b"  1700000000 +0000", b"s\n"),
    "committer with a bad zone": _commit(b"committer " + WHO + b" 1700000000 0100", b"s\n"),
    "committer with a huge date": _commit(b"committer " + WHO + b" 99999999999999999999 +0000", b"s\n"),
    "angle brackets in the name": _commit(b"committer A > B <a@b> 1700000000 +0000", b"s\n"),
    "signed": _commit(
        b"committer " + WHO + b" 1700000000 +0000",
        b"Signed\n",
        b"\ngpgsig -----BEGIN PGP SIGNATURE-----\n committer x <y> 1 +0000\n \n -----END PGP SIGNATURE-----",
    ),
}


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, check=False).stdout


def _shown(repo: Path, oid: str) -> tuple[bytes, str]:
    """What git show prints, and the description mechlint gave from it before (the reference)."""
    output = _git(repo, "show", "-s", "--no-show-signature", "--format=%cs%x00%s", oid, "--")
    date, _, subject = output.decode("utf-8", "replace").strip().partition("\0")
    subject = subject if len(subject) <= 50 else subject[:49] + "…"
    return output, f'{oid[:12]} ({date}, "{subject}")' if date else oid[:12]


@pytest.fixture(scope="module")
def objects(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    repo = init(tmp_path_factory.mktemp("describe") / "repo")
    made = {}
    for name, content in CASES.items():
        oid = _git(repo, "hash-object", "-t", "commit", "--literally", "-w", "--stdin", data=content).decode().strip()
        assert len(oid) == 40, name
        made[name] = oid
    return repo, made


@pytest.mark.parametrize("name", list(CASES))
def test_date_and_subject_is_what_git_show_prints_or_none(objects: tuple[Path, dict[str, str]], name: str) -> None:
    repo, made = objects
    ours = date_and_subject(CASES[name])
    if ours is not None:
        assert ours == _shown(repo, made[name])[0]


@pytest.mark.parametrize("name", list(CASES))
def test_a_commit_is_described_as_git_shows_it(objects: tuple[Path, dict[str, str]], name: str) -> None:
    repo, made = objects
    history = open_history(repo)
    try:
        assert history.describe(made[name]) == _shown(repo, made[name])[1]
    finally:
        history.close()


def test_usual_commits_need_no_git_show() -> None:
    usual = [name for name, content in CASES.items() if date_and_subject(content) is not None]
    assert {"plain", "zone east moves the day", "subject of two lines", "not UTF-8", "signed"} <= set(usual)
    assert "NUL in the message" not in usual and "encoding header" not in usual
