"""Advice that fits the situation: look-alike names (issue 30, point 15) and no git repository (issue 31, point 6)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from .gitrepo import commit, git, init, write
from .test_provenance import ids, mechanism, run, sha

ARTICLE = "".join(f"Line {n} of the article.\n" for n in range(20))
NFC = unicodedata.normalize("NFC", "content/café.md")
NFD = unicodedata.normalize("NFD", NFC)


# -- names that differ only in Unicode normalization -----------------------------------------------------


@pytest.mark.parametrize(
    ("cited", "on_disk", "cited_form", "disk_form"),
    [(NFD, NFC, "NFD (decomposed)", "NFC (composed)"), (NFC, NFD, "NFC (composed)", "NFD (decomposed)")],
    ids=["nfd-cites-nfc", "nfc-cites-nfd"],
)
@pytest.mark.parametrize("pinned", ["the-bytes", "other-bytes"])
def test_a_path_in_another_normalization_says_so_and_which_form_each_uses(
    tmp_path: Path, cited: str, on_disk: str, cited_form: str, disk_form: str, pinned: str
) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "article", {on_disk: ARTICLE})
    digest = sha(ARTICLE) if pinned == "the-bytes" else sha("bytes nobody had\n")
    mechanism(repo, [{"path": cited, "sha256": digest}])
    [(rule, pointer, message)] = run(repo)
    assert (rule, pointer) == ("provenance/missing-source", "/sources/0/path")
    assert f'did you mean "{on_disk}"?' in message
    assert (
        f"(the names look alike but differ in Unicode normalization: the source path is written in {cited_form}, "
        f"the file name in {disk_form}: "
    ) in message
    e_acute = "U+0065 LATIN SMALL LETTER E + U+0301 COMBINING ACUTE ACCENT"
    composed = "U+00E9 LATIN SMALL LETTER E WITH ACUTE"
    path_form, file_form = (e_acute, composed) if cited == NFD else (composed, e_acute)
    assert f'"é" is {path_form} in the path, {file_form} in the file name' in message
    assert message.endswith("write the path as the file name is written)")


def test_normalization_and_case_together_are_both_named(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "article", {NFC: ARTICLE})
    mechanism(repo, [{"path": unicodedata.normalize("NFD", "content/Café.md"), "sha256": sha(ARTICLE)}])
    [(_, _, message)] = run(repo)
    assert f'did you mean "{NFC}"?' in message and "differ in Unicode normalization and in case" in message


def test_a_name_in_the_same_form_gets_no_normalization_note(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "article", {NFC: ARTICLE})
    mechanism(repo, [{"path": "content/cafe.md", "sha256": sha(ARTICLE)}])
    [(_, _, message)] = run(repo)
    assert f'did you mean "{NFC}"?' in message and "normalization" not in message


# -- outside any git repository ----------------------------------------------------------------------------


def test_outside_any_repository_the_advice_is_a_repository_and_the_verdicts_left_open_are_named(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "not-a-repository"
    write(folder, "content/post.md", "v2\n")
    mechanism(
        folder,
        [
            {"path": "content/post.md", "sha256": sha("v1\n")},
            {"path": "content/gone.md", "sha256": sha("v1\n")},
            {"path": "research/m/before/content/fig.svg", "sha256": sha("<svg/>\n")},
            {"path": "content/post.md", "sha256": sha("v2\n")},
        ],
    )
    found = run(folder)
    assert ids(found) == [
        ("provenance/history-unavailable", "/sources/0/path"),
        ("provenance/history-unavailable", "/sources/1/path"),
        ("provenance/history-unavailable", "/sources/2/path"),
    ]
    messages = [message for _, _, message in found]
    assert not [m for m in messages if "fetch" in m or "unshallow" in m]
    assert all(m.endswith("run mechlint in a clone of the repository that holds the sources") for m in messages)
    assert all("provenance needs a git repository" in m for m in messages)
    assert "could not judge provenance/stale-source or provenance/digest-mismatch;" in messages[0]
    assert (
        "could not judge provenance/missing-source, provenance/gone-source or provenance/digest-mismatch;"
        in messages[1]
    )
    assert (
        "could not judge provenance/missing-source, provenance/frozen-resolved, provenance/digest-mismatch or "
        "provenance/frozen-copy-mismatch;" in messages[2]
    )


def test_outside_any_repository_an_unpinned_gone_source_is_not_judged_either(tmp_path: Path) -> None:
    folder = tmp_path / "not-a-repository"
    mechanism(folder, [{"path": "content/gone.md"}])
    found = run(folder)
    assert ids(found) == [
        ("provenance/unpinned-source", "/sources/0"),
        ("provenance/history-unavailable", "/sources/0/path"),
    ]
    assert "could not judge provenance/missing-source or provenance/gone-source;" in found[1][2]
    assert "unshallow" not in found[1][2]


def test_a_shallow_clone_is_still_told_to_fetch_the_history(tmp_path: Path) -> None:
    from .gitrepo import git, shallow_clone

    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    commit(repo, "second", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    git(repo, "add", "-A")
    commit(repo, "mechanism")
    clone = shallow_clone(repo, tmp_path / "clone")
    [(rule, _, message)] = run(clone)
    assert rule == "provenance/history-unavailable"
    assert (
        "this is a shallow clone; mechlint could not judge provenance/stale-source or provenance/digest-mismatch;"
        in message
    )
    assert message.endswith("actions/checkout with fetch-depth: 0)")


def _named_commit(repo: Path, commit_id: str) -> str:
    date, subject = git(repo, "show", "-s", "--format=%cs%x00%s", commit_id).split("\0")
    return f'{commit_id[:12]} ({date}, "{subject}")'


@pytest.mark.parametrize(
    ("held", "said"),
    [("hello\n", "the pinned bytes are at this path only in"), ("other\n", "a file is at this path only in")],
    ids=["the pinned bytes", "other bytes"],
)
def test_a_commit_the_message_has_named_is_the_same_commit_the_second_time(
    tmp_path: Path, held: str, said: str
) -> None:
    """Only a branch had a file at this path (with the pinned bytes, or other ones), and another path held the
    pinned bytes in that same commit: the message names the commit once."""
    repo = init(tmp_path / "blog")
    commit(repo, "root")
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side: a and b", {"src/a.md": held, "src/b.md": "hello\n"})
    git(repo, "checkout", "-q", "main")
    mechanism(repo, [{"path": "src/a.md", "sha256": sha("hello\n")}])
    on_side = f'commit {_named_commit(repo, side)}, on branch "side", which HEAD does not contain'
    assert run(repo) == [
        (
            "provenance/missing-source",
            "/sources/0/path",
            f'nothing is at "src/a.md", and nothing ever was in the history of HEAD; {said} {on_side}; merge that '
            'branch first, or fix the path or remove the source; did you mean "src/b.md"? it held the pinned bytes '
            "in the same commit",
        )
    ]


def test_another_commit_is_named_in_full(tmp_path: Path) -> None:
    """The other path held the bytes in another commit than the one named first: both are named."""
    repo = init(tmp_path / "blog")
    commit(repo, "root")
    git(repo, "checkout", "-q", "-b", "side")
    first = commit(repo, "side: a", {"src/a.md": "hello\n"})
    second = commit(repo, "side: b", {"src/a.md": None, "src/b.md": "hello\n"})
    git(repo, "checkout", "-q", "main")
    mechanism(repo, [{"path": "src/a.md", "sha256": sha("hello\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/missing-source"
    assert f"the pinned bytes are at this path only in commit {_named_commit(repo, first)}, on branch" in message
    assert message.endswith(
        f'did you mean "src/b.md"? it held the pinned bytes in commit {_named_commit(repo, second)}, on branch '
        '"side", which HEAD does not contain'
    )
