"""``mechlint diff``: what changed in a source since its pin (issue 27, point 1), in real git repositories.

Each test builds its history (``tests/gitrepo.py``), pins a source to a
version of it, changes the source, and reads what ``mechlint diff`` prints:
where the pinned bytes are, and the unified diff from them to the bytes now.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest

from mechlint.cli.app import main
from mechlint.review.unified import hunks

from .gitrepo import commit, git, init, shallow_clone, write
from .test_provenance import mechanism, sha

ARTICLE = "# The handshake\n\nA client opens. The server answers. Both agree on keys.\n\nThe end.\n"
EDITED = "# The handshake\n\nA client opens. The server answers twice. Both agree on keys.\n\nThe end.\n"
MECHANISM = "content/mechanisms/m.json"
RED, GREEN, CYAN, BOLD, REVERSE, RESET = "\x1b[31m", "\x1b[32m", "\x1b[36m", "\x1b[1m", "\x1b[7m", "\x1b[m"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = init(tmp_path / "blog")
    monkeypatch.chdir(folder)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return folder


def diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["diff", *args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = diff(capsys, "--format", "json", *args)
    data: dict[str, Any] = json.loads(out)
    return code, data


def pinned_article(repo: Path, path: str = "content/post.md", data: str | bytes = ARTICLE) -> str:
    """Commit ``data`` at ``path`` and a mechanism pinned to it; the commit's id."""
    first = commit(repo, "the article", {path: data})
    mechanism(repo, [{"path": path, "sha256": sha(data)}])
    commit(repo, "the mechanism", {MECHANISM: (repo / MECHANISM).read_text()})
    return first


# -- a text source changed ---------------------------------------------------------------------------------------


def test_an_edited_source_is_shown_as_a_unified_diff_from_the_pinned_commit(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = pinned_article(repo)
    commit(repo, "edit", {"content/post.md": EDITED})
    code, out, err = diff(capsys)
    date = git(repo, "show", "-s", "--format=%cs", first)
    assert (code, err) == (1, "1 source differs from the pin: review the change, then run mechlint pin.\n")
    assert out == (
        f"source content/post.md (modified), cited by {MECHANISM} /sources/0\n"
        f'pinned bytes: commit {first[:12]} ({date}, "the article"), at content/post.md\n'
        f"--- a/content/post.md@{first[:12]}\n"
        "+++ b/content/post.md\n"
        "@@ -1,5 +1,5 @@\n"
        " # The handshake\n"
        " \n"
        "-A client opens. The server answers. Both agree on keys.\n"
        "+A client opens. The server answers twice. Both agree on keys.\n"
        " \n"
        " The end.\n"
    )


def test_the_diff_is_what_difflib_and_diff_u_give(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Headers aside, the hunks are exactly a standard unified diff (so patch tools and people read it alike)."""
    old = "".join(f"line {n}\n" for n in range(40))
    new = old.replace("line 3\n", "line three\n").replace("line 30\n", "").replace("line 39\n", "line 39")
    pinned_article(repo, "content/notes.txt", old)
    write(repo, "content/notes.txt", new)  # not committed: the working tree is what is compared
    code, out, _ = diff(capsys)
    expected = difflib.unified_diff(old.splitlines(True), new.splitlines(True), "x", "y")
    body = [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in list(expected)[2:]]
    assert code == 1
    assert out.split("+++ b/content/notes.txt\n", 1)[1] == "".join(body)


def test_a_crlf_checkout_is_compared_as_git_stores_it(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Line endings a checkout converts (here ``text=auto``) are converted back: only the real change shows."""
    write(repo, ".gitattributes", "* text=auto\n")
    commit(repo, "attributes", {".gitattributes": "* text=auto\n"})
    pinned_article(repo)
    write(repo, "content/post.md", EDITED.replace("\n", "\r\n"))
    code, out, _ = diff(capsys)
    assert code == 1
    assert "\\r" not in out and "\r" not in out
    changed = [line for line in out.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == [
        "-A client opens. The server answers. Both agree on keys.",
        "+A client opens. The server answers twice. Both agree on keys.",
    ]


def test_a_source_committed_with_crlf_shows_a_line_ending_change(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without conversion the CR is part of the line: a change of line endings only is a change, shown as ``\\r``."""
    pinned_article(repo, data=ARTICLE.replace("\n", "\r\n"))
    write(repo, "content/post.md", ARTICLE)
    code, out, _ = diff(capsys)
    assert code == 1
    assert "-# The handshake\\r\n" in out and "-The end.\\r\n" in out
    assert "+# The handshake\n" in out and "+The end.\n" in out


# -- Markdown: which sentence changed -------------------------------------------------------------------------------


def test_a_markdown_paragraph_marks_the_sentence_that_changed(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo)
    write(repo, "content/post.md", EDITED)
    code, data = as_json(capsys)
    [source] = data["sources"]
    lines = source["hunks"][0]["lines"]
    [removed] = [line for line in lines if line["op"] == "-"]
    [added] = [line for line in lines if line["op"] == "+"]
    assert code == 1
    assert [removed["text"][a:b] for a, b in removed["changed"]] == ["The server answers."]
    assert [added["text"][a:b] for a, b in added["changed"]] == ["The server answers twice."]
    _, out, _ = diff(capsys, "--color")
    changed = f"{GREEN}A client opens. {RESET}{GREEN}{REVERSE}The server answers twice.{RESET}{GREEN} Both"
    assert f"{GREEN}+{RESET}{changed}" in out


def test_code_is_marked_by_word_not_by_sentence(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo, "content/drawing.svg", '<svg width="10"><rect x="1" y="2"/></svg>\n')
    write(repo, "content/drawing.svg", '<svg width="10"><rect x="7" y="2"/></svg>\n')
    _, data = as_json(capsys)
    lines = data["sources"][0]["hunks"][0]["lines"]
    assert [[line["text"][a:b] for a, b in line["changed"]] for line in lines] == [["1"], ["7"]]


# -- not text, gone, not found --------------------------------------------------------------------------------------


def test_a_binary_source_shows_sizes_and_digests(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(40)), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(50)
    pinned_article(repo, "content/figure.png", old)
    write(repo, "content/figure.png", new)
    code, out, _ = diff(capsys)
    assert code == 1
    assert out.splitlines()[2:] == [
        f"pinned: 56 bytes, sha256 {sha(old)}",
        f"now:    66 bytes, sha256 {sha(new)}",
        "Binary files differ (not text: sizes and digests only)",
    ]
    _, data = as_json(capsys)
    [source] = data["sources"]
    assert (source["text"], source["diff"], source["hunks"]) == (False, None, None)
    assert (source["pinned"]["size"], source["current"]["size"]) == (56, 66)


def test_a_deleted_source_is_a_diff_to_dev_null_naming_the_commit(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = pinned_article(repo)
    deleted = commit(repo, "remove the article", {"content/post.md": None})
    code, out, _ = diff(capsys)
    assert code == 1
    assert f"now: deleted in commit {deleted[:12]} (" in out
    assert f"--- a/content/post.md@{first[:12]}\n+++ /dev/null\n@@ -1,5 +0,0 @@\n-# The handshake\n" in out
    _, data = as_json(capsys)
    assert (data["sources"][0]["status"], data["sources"][0]["current"]) == ("deleted", None)


def test_a_renamed_and_edited_source_is_diffed_against_its_new_path(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = "".join(f"Paragraph {n} of the article.\n" for n in range(20))
    first = pinned_article(repo, data=long + ARTICLE)
    git(repo, "mv", "content/post.md", "content/handshake.md")
    write(repo, "content/handshake.md", long + EDITED)
    git(repo, "add", "content/handshake.md")
    moved = commit(repo, "rename and edit")
    code, out, _ = diff(capsys)
    assert code == 1
    assert f'now: renamed to "content/handshake.md" in commit {moved[:12]} (' in out
    assert f"--- a/content/post.md@{first[:12]}\n+++ b/content/handshake.md\n" in out
    assert "+A client opens. The server answers twice. Both agree on keys.\n" in out


def test_a_source_renamed_since_the_pin_names_the_old_path_in_the_pinned_header(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mechanism cites the new name; its pinned bytes were at the old one: ``git show COMMIT:OLD`` has them."""
    first = commit(repo, "the article", {"content/post.md": ARTICLE})
    git(repo, "mv", "content/post.md", "content/handshake.md")
    commit(repo, "rename")
    mechanism(repo, [{"path": "content/handshake.md", "sha256": sha(ARTICLE)}])
    write(repo, "content/handshake.md", EDITED)
    code, out, _ = diff(capsys)
    assert code == 1
    assert ", at content/post.md\n" in out
    assert f"--- a/content/post.md@{first[:12]}\n+++ b/content/handshake.md\n" in out


def test_a_pin_that_no_commit_holds_is_said_and_the_current_file_described(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(repo, "the article", {"content/post.md": ARTICLE})
    never = sha("never committed\n")
    mechanism(repo, [{"path": "content/post.md", "sha256": never}])
    code, out, _ = diff(capsys)
    assert code == 1
    assert out.splitlines()[1:] == [
        'pinned bytes not shown: no commit HEAD reaches held the pinned bytes at "content/post.md": the sha256 is '
        "not that of any version of it",
        f"pinned: not found, sha256 {never}",
        f"now:    {len(ARTICLE)} bytes, sha256 {sha(ARTICLE)}",
    ]
    _, data = as_json(capsys)
    assert data["sources"][0]["pinned"]["found"] is False
    assert data["sources"][0]["pinned"]["why"].startswith("no commit HEAD reaches")


def test_a_shallow_clone_says_the_pinned_bytes_are_beyond_it(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pinned_article(repo)
    commit(repo, "edit", {"content/post.md": EDITED})
    clone = shallow_clone(repo, tmp_path / "clone")
    monkeypatch.chdir(clone)
    code, out, _ = diff(capsys)
    assert code == 1
    assert "pinned bytes not shown: the pinned bytes are not in the history this clone has" in out


def test_a_gone_frozen_copy_is_not_a_change(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A frozen copy whose file is gone keeps its bytes in history on purpose: nothing to review."""
    frozen = "research/r1/before/content/post.md"
    commit(repo, "the article", {"content/post.md": ARTICLE})
    commit(repo, "edit", {"content/post.md": EDITED})
    mechanism(repo, [{"path": frozen, "sha256": sha(ARTICLE)}])
    assert diff(capsys) == (0, "", "")


def test_an_edited_frozen_copy_is_diffed_against_its_original_in_history(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frozen = "research/r1/before/content/post.md"
    first = commit(repo, "the article", {"content/post.md": ARTICLE})
    commit(repo, "freeze", {frozen: EDITED})
    mechanism(repo, [{"path": frozen, "sha256": sha(ARTICLE)}])
    code, out, _ = diff(capsys)
    assert code == 1
    assert f"--- a/content/post.md@{first[:12]}\n+++ b/{frozen}\n" in out


# -- what is not a change, and grouping ---------------------------------------------------------------------------


def test_nothing_changed_prints_nothing_and_exits_zero(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo)
    assert diff(capsys) == (0, "", "")
    assert as_json(capsys) == (0, {"version": 1, "changed": 0, "sources": [], "not_compared": []})


def test_sources_with_nothing_to_compare_are_named_so_that_silence_never_means_all_pinned(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unpinned source, a path that never existed and a malformed sha256 are not changes (no diff, exit 0), but
    they do not hold pinned bytes either: standard error names each, with the rule that reports it."""
    pinned_article(repo)
    mechanism(repo, [{"path": "content/post.md"}], name="unpinned.json")
    mechanism(repo, [{"path": "content/typo.md", "sha256": sha(ARTICLE)}], name="typo.json")
    mechanism(repo, [{"path": "content/post.md", "sha256": "abc"}], name="short.json")
    mechanism(repo, [{"path": "content/typo.md", "sha256": sha(ARTICLE)}], name="typo2.json")
    code, out, err = diff(capsys)
    assert (code, out) == (0, "")
    assert err.splitlines() == [
        "3 sources cannot be compared with a pin (mechlint check reports each):",
        '  "content/post.md": its sha256 is not 64 hexadecimal digits (schema/violation)',
        '  "content/typo.md": nothing is at its path, and nothing ever was in HEAD\'s history '
        "(provenance/missing-source)",
        '  "content/post.md": it has no sha256 (provenance/unpinned-source)',
    ]
    code, data = as_json(capsys)
    assert (code, data["changed"], data["sources"]) == (0, 0, [])
    assert data["not_compared"][1] == {
        "path": "content/typo.md",
        "why": "nothing is at its path, and nothing ever was in HEAD's history (provenance/missing-source)",
        "cited_by": [
            {"file": "content/mechanisms/typo.json", "pointer": "/sources/0"},
            {"file": "content/mechanisms/typo2.json", "pointer": "/sources/0"},
        ],
    }
    # naming a source file shows only its diff: nothing else is listed
    assert diff(capsys, "content/post.md") == (0, "", "")


def test_a_source_cited_by_two_mechanisms_is_shown_once(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo)
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}], name="second.json")
    write(repo, "content/post.md", EDITED)
    code, data = as_json(capsys, "content")
    assert code == 1
    assert [s["cited_by"] for s in data["sources"]] == [
        [
            {"file": MECHANISM, "pointer": "/sources/0"},
            {"file": "content/mechanisms/second.json", "pointer": "/sources/0"},
        ]
    ]


# -- hostile content ------------------------------------------------------------------------------------------------


HOSTILE = "title\n\x1b]0;owned\x07\x1b[2J\x1b[1A\rfake line \u202eevil\u202c\x9b31m\n"


def test_hostile_content_is_escaped_on_a_terminal(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo, "content/notes.txt", "title\nplain\n")
    write(repo, "content/notes.txt", HOSTILE)
    code, out, _ = diff(capsys, "--no-color")
    assert code == 1
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "\x9b" not in out
    assert "+\\x1b]0;owned\\x07\\x1b[2J\\x1b[1A\\rfake line \\u202eevil\\u202c\\u009b31m\n" in out
    _, painted, _ = diff(capsys, "--color")
    for colour in (RED, GREEN, CYAN, BOLD, REVERSE, RESET):
        painted = painted.replace(colour, "")
    assert "\x1b" not in painted  # only mechlint's own colours reach the terminal


def test_hostile_content_is_data_in_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo, "content/notes.txt", "title\nplain\n")
    write(repo, "content/notes.txt", HOSTILE)
    code, out, _ = diff(capsys, "--format", "json")
    assert code == 1
    assert "\x1b" not in out and "\u202e" not in out and "\x9b" not in out
    [added] = [line for line in json.loads(out)["sources"][0]["hunks"][0]["lines"] if line["op"] == "+"]
    assert added["text"] == HOSTILE.split("\n")[1]


def test_a_hostile_commit_subject_is_escaped(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit(repo, "subject \x1b]0;x\x07 here", {"content/post.md": ARTICLE})
    mechanism(repo, [{"path": "content/post.md", "sha256": sha(ARTICLE)}])
    write(repo, "content/post.md", EDITED)
    code, out, _ = diff(capsys, "--no-color")
    assert code == 1
    assert "\x1b" not in out and "\x07" not in out
    assert '"subject \\x1b]0;x\\x07 here")' in out


def test_a_source_path_with_a_control_character_is_never_read(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unsafe path is ``provenance/unsafe-path``'s: diff reads nothing there and shows nothing."""
    path = "content/post\x1b[2J.md"
    commit(repo, "the article", {path: ARTICLE})
    mechanism(repo, [{"path": path, "sha256": sha(ARTICLE)}])
    write(repo, path, EDITED)
    code, out, err = diff(capsys, "--no-color")
    assert (code, out) == (0, "")
    assert err.splitlines() == [
        "1 source cannot be compared with a pin (mechlint check reports it):",
        '  "content/post\\x1b[2J.md": its path is refused (provenance/unsafe-path)',
    ]


# -- colour, options, exit codes ----------------------------------------------------------------------------------


def test_colour_follows_the_flags_no_color_and_force_color(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pinned_article(repo)
    write(repo, "content/post.md", EDITED)
    assert "\x1b" not in diff(capsys)[1]  # not a terminal
    painted = diff(capsys, "--color")[1]
    assert f"{BOLD}--- a/content/post.md@" in painted and f"{CYAN}@@ -1,5 +1,5 @@{RESET}" in painted
    assert f"{RED}-{RESET}{RED}A client opens. {RESET}{RED}{REVERSE}The server answers.{RESET}{RED} Both" in painted
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in diff(capsys)[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in diff(capsys)[1]
    assert "\x1b[" in diff(capsys, "--color")[1]  # the flag wins over the environment


def test_usage_errors_exit_two(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned_article(repo)
    assert diff(capsys, "--format", "xml") == (2, "", "mechlint: unknown format 'xml'; use one of: text, json\n")
    code, _, err = diff(capsys, "content/nothing")
    assert (code, err) == (
        2,
        "mechlint: content/nothing: no such file or folder, and no changed source has that path\n",
    )
    code, _, err = diff(capsys, "content/nothing.json")
    assert (code, err) == (2, "mechlint: content/nothing.json: no such file or folder\n")
    write(repo, "content/mechanisms/broken.json", "{")
    write(repo, "content/post.md", EDITED)
    code, out, err = diff(capsys)
    assert code == 2
    assert err.splitlines() == [
        "mechlint: content/mechanisms/broken.json: is not valid JSON; run mechlint check to see why",
        "1 source differs from the pin: review the change, then run mechlint pin.",
    ]
    assert "+A client opens. The server answers twice." in out  # the other files are still shown


def test_the_json_shape(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = pinned_article(repo)
    write(repo, "content/post.md", EDITED)
    _, data = as_json(capsys)
    [source] = data["sources"]
    assert list(data) == ["version", "changed", "sources", "not_compared"]
    assert (data["version"], data["changed"], data["not_compared"]) == (1, 1, [])
    assert list(source) == [
        "path", "status", "cited_by", "pinned", "current", "gone", "text", "diff", "hunks",
    ]  # fmt: skip
    assert source["pinned"] == {
        "sha256": sha(ARTICLE),
        "size": len(ARTICLE),
        "found": True,
        "commit": first,
        "described": source["pinned"]["described"],
        "path": "content/post.md",
        "why": None,
    }
    assert (
        source["pinned"]["described"].startswith(f"{first[:12]} (")
        and '"the article")' in source["pinned"]["described"]
    )
    assert source["current"] == {"path": "content/post.md", "sha256": sha(EDITED), "size": len(EDITED)}
    assert source["diff"].startswith(f"--- a/content/post.md@{first[:12]}\n+++ b/content/post.md\n@@ -1,5 +1,5 @@\n")
    [hunk] = source["hunks"]
    assert {k: hunk[k] for k in ("header", "old_start", "old_lines", "new_start", "new_lines")} == {
        "header": "@@ -1,5 +1,5 @@",
        "old_start": 1,
        "old_lines": 5,
        "new_start": 1,
        "new_lines": 5,
    }
    assert [line["op"] for line in hunk["lines"]] == [" ", " ", "-", "+", " ", " "]
    assert hunk["lines"][0] == {"op": " ", "text": "# The handshake", "eol": True, "changed": []}


def test_hunk_headers_follow_diff_u_for_empty_sides() -> None:
    assert [h.header for h in hunks("", "a\nb\n")] == ["@@ -0,0 +1,2 @@"]
    assert [h.header for h in hunks("a\n", "")] == ["@@ -1 +0,0 @@"]
    assert [h.header for h in hunks("same\n", "same\n")] == []


def test_a_rewrapped_paragraph_marks_only_the_sentence_whose_words_changed() -> None:
    old = "Intro.\n\nThe first sentence is here and it\nwraps. The second sentence stays\nthe same. Third one.\n"
    new = "Intro.\n\nThe first sentence is here and it wraps. The second\nsentence changed a bit. Third one.\n"
    [hunk] = hunks(old, new, prose=True)
    marked = [(line.op, [line.text[a:b] for a, b in line.changed]) for line in hunk.lines if line.op != " "]
    assert marked == [
        ("-", []),
        ("-", ["The second sentence stays"]),
        ("-", ["the same."]),
        ("+", ["The second"]),
        ("+", ["sentence changed a bit."]),
    ]


def test_a_source_too_large_to_keep_is_described_not_diffed(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = "x" * 100 + "\n"
    pinned_article(repo, "content/big.txt", big)
    write(repo, "content/big.txt", "y" * (4 * 1024 * 1024 + 1))
    code, out, _ = diff(capsys)
    assert code == 1
    assert out.splitlines()[2:] == [
        f"pinned: 101 bytes, sha256 {sha(big)}",
        f"now:    {4 * 1024 * 1024 + 1} bytes, sha256 {sha('y' * (4 * 1024 * 1024 + 1))}",
        "Not diffed: the file is larger than the 4 MiB mechlint keeps in memory",
    ]


def test_naming_source_files_shows_only_their_diffs(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As ``git diff PATH``: a path that is no folder and no .json file chooses sources, even a deleted one."""
    commit(repo, "two articles", {"content/post.md": ARTICLE, "content/notes.md": ARTICLE, "content/old.md": ARTICLE})
    sources = [
        {"path": path, "sha256": sha(ARTICLE)} for path in ("content/post.md", "content/notes.md", "content/old.md")
    ]
    mechanism(repo, sources)
    commit(
        repo, "edit both, delete one", {"content/post.md": EDITED, "content/notes.md": EDITED, "content/old.md": None}
    )
    _, everything = as_json(capsys)
    code, chosen = as_json(capsys, "content/notes.md")
    _, gone = as_json(capsys, "content/old.md")
    assert [s["path"] for s in everything["sources"]] == ["content/post.md", "content/notes.md", "content/old.md"]
    assert code == 1 and [s["path"] for s in chosen["sources"]] == ["content/notes.md"]
    assert [(s["path"], s["status"]) for s in gone["sources"]] == [("content/old.md", "deleted")]
    write(repo, "content/unchanged.md", ARTICLE)  # a file no changed source has: nothing to show
    nothing = {"version": 1, "changed": 0, "sources": [], "not_compared": []}
    assert as_json(capsys, "content/unchanged.md") == (0, nothing)
