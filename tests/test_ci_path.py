"""The CI path (issue 19): faster ways of computing what a SARIF run needs, each held equal to the plain one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mechlint import lint
from mechlint.cli.run_check import CheckOptions, Format, run_check
from mechlint.config import Config, load_config
from mechlint.provenance import git as git_module
from mechlint.provenance import onepass
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.git import ALL_REFS, open_history
from mechlint.report import OutputOptions
from mechlint.report.fingerprint import fingerprints_of_lines, line_fingerprints
from mechlint.report.sarif import render, render_chunks
from mechlint.run.parallel import PARALLEL_FROM

from .conftest import CLEAN, FIXTURES
from .gitrepo import commit, git, init

# Text made of what changes the line hash: spaces, tabs, every line end, astral characters, repeated lines.
_PIECES = st.sampled_from([" ", "\t", "\n", "\r", "\r\n", "a", "b", '"key": 1,', "\U0001f600", "é", "\uffff", "x" * 60])
_TEXT = st.lists(_PIECES, max_size=400).map("".join)


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.lists(st.integers(min_value=-2, max_value=40), max_size=8))
@example("\U0001f600\n\n", [1, 2, 3])
@example("a\r\r\n \r\t\nb", [2, 3, 4, 5])
def test_fingerprints_of_some_lines_agree_with_every_line(text: str, lines: list[int]) -> None:
    every = line_fingerprints(text)
    assert fingerprints_of_lines(text, lines) == {line: every[line] for line in lines if line in every}


def test_fingerprints_of_some_lines_agree_on_real_files() -> None:
    paths = sorted((FIXTURES / "rules").rglob("*.json"))
    assert paths
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        every = line_fingerprints(text)
        lines = [1, len(every) // 3, len(every) // 2, len(every)]
        assert fingerprints_of_lines(text, lines) == {line: every[line] for line in lines if line in every}, path


# -- one pass over history answers as `git log --follow` does ------------------------------------------------------

_NAMES = ("a.md", "b.md", "posts/c.md", "posts/d.md", "e.md")
_BODIES = tuple("\n".join(f"{word} line {n} of the article about {word}" for n in range(12)) + "\n" for word in "xyz")


def _random_history(folder: Path, seed: int) -> set[str]:
    """A repository with additions, edits, renames (also on a merged branch), copies, deletions and a second root."""
    rng = random.Random(seed)
    init(folder)
    present: dict[str, str] = {}
    seen: set[str] = set()

    def step(message: str) -> None:
        op = rng.choice(("add", "edit", "rename", "copy", "delete") if present else ("add",))
        name = rng.choice(_NAMES)
        if op == "add" or (op == "edit" and not present):
            body = rng.choice(_BODIES) + str(rng.random())
            present[name] = body
            commit(folder, message, {name: body})
        elif op == "edit":
            name = rng.choice(sorted(present))
            present[name] += "one more line\n"
            commit(folder, message, {name: present[name]})
        elif op in ("rename", "copy") and name not in present:
            source = rng.choice(sorted(present))
            body = present[source] + ("edited on the way\n" if rng.random() < 0.5 else "")
            present[name] = body
            files: dict[str, bytes | str | None] = {name: body}
            if op == "rename":
                files[source] = None
                del present[source]
            commit(folder, message, files)
        else:
            name = rng.choice(sorted(present))
            del present[name]
            commit(folder, message, {name: None})
        seen.update(present)

    for index in range(rng.randint(3, 7)):
        step(f"main {index}")
    git(folder, "checkout", "-q", "-b", "side")
    saved = dict(present)
    for index in range(rng.randint(1, 4)):
        step(f"side {index}")
    git(folder, "checkout", "-q", "main")
    present = saved
    for index in range(rng.randint(0, 2)):
        step(f"main again {index}")
    if rng.random() < 0.7:
        try:
            git(folder, "merge", "-q", "--no-edit", "-X", "theirs", "side")
        except AssertionError:  # an edit against a deletion: keep what the working tree has
            git(folder, "add", "-A")
            git(folder, "commit", "-q", "--no-edit")
        present = {name: (folder / name).read_text() for name in _NAMES if (folder / name).is_file()}
    if rng.random() < 0.5:
        git(folder, "checkout", "-q", "--orphan", "other")
        git(folder, "rm", "-q", "-rf", "--cached", ".")
        present = {}
        for index in range(rng.randint(1, 3)):
            step(f"other root {index}")
    for name in present:
        seen.add(name)
    return seen | set(_NAMES) | {"posts", "posts/*.md", ":posts/c.md", "missing.md"}


@pytest.mark.parametrize("seed", range(10))
def test_one_pass_answers_as_git_log_follow(tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _random_history(tmp_path / "repo", seed)
    plain, fast = open_history(tmp_path / "repo"), open_history(tmp_path / "repo")
    changes = onepass.AllChanges(plain.git.run("log", *ALL_REFS, *onepass.ARGS))
    answered = [path for path in paths if changes.follow(path) is not None]
    for path in sorted(paths):
        monkeypatch.setattr(git_module, "ONE_PASS_AFTER", 10**9)
        want = plain.path_history(path)
        monkeypatch.setattr(git_module, "ONE_PASS_AFTER", 1)
        assert fast.path_history(path) == want, path
    assert answered, "the pass answered no path: the comparison would be empty"


def test_a_run_of_many_files_reads_history_in_one_pass_sooner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers of a large run would each ask about 7 paths one by one (about 13 ms each) before the one pass."""
    repo = init(tmp_path / "blog")
    commit(repo, "posts", {f"post{index}.md": f"v{index}\n" for index in range(3)})
    commit(repo, "gone", {f"post{index}.md": None for index in range(3)})
    passes: list[int] = []
    original = onepass.AllChanges

    def counted(output: bytes) -> onepass.AllChanges:
        passes.append(1)
        return original(output)

    monkeypatch.setattr(onepass, "AllChanges", counted)
    few, many = open_history(repo), open_history(repo)
    many.many_files = True
    for index in range(3):
        assert few.path_history(f"post{index}.md") == many.path_history(f"post{index}.md")
    assert passes == [1], "only the history of the large run made the pass, at its third path"
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    for index in range(PARALLEL_FROM):
        data["sources"] = [{"path": f"post{index % 3}.md", "sha256": "0" * 64, "description": "gone"}]
        (repo / "content" / f"p{index}" / "mechanisms").mkdir(parents=True)
        (repo / "content" / f"p{index}" / "mechanisms" / "m.json").write_text(json.dumps(data), encoding="utf-8")
    passes.clear()
    lint([repo / "content"], Config(root=repo), root=repo, jobs=1)
    assert passes == [1]


# -- SARIF written as a stream ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("selection", [["mechlint"], [], ["schema", "reference"], ["a11y", "plain"]])
def test_sarif_in_pieces_is_the_sarif_text(selection: list[str]) -> None:
    config = load_config(start=FIXTURES).with_flags(select=selection)
    report = lint([FIXTURES], config, root=FIXTURES, fingerprints=True)
    options = OutputOptions(root_uri=FIXTURES.as_uri() + "/", tool_version="1.2.3")
    assert "".join(render_chunks(report, options)) == render(report, options)


def test_sarif_in_pieces_of_an_empty_report_is_the_sarif_text(tmp_path: Path) -> None:
    report = lint([tmp_path], Config(root=tmp_path), root=tmp_path, fingerprints=True)
    assert not report.results
    assert "".join(render_chunks(report, OutputOptions())) == render(report, OutputOptions())


def test_check_writes_the_sarif_stream_to_a_file_and_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".git").mkdir()
    mechanisms = tmp_path / "content" / "post" / "mechanisms"
    mechanisms.mkdir(parents=True)
    (mechanisms / "broken.json").write_text('{"id": "x", "title": 3}\n', encoding="utf-8")
    target = tmp_path / "out" / "report.sarif"
    paths = [str(tmp_path / "content")]
    code = run_check(CheckOptions(paths=paths, root=tmp_path, output_format=Format.sarif, outputs=[str(target)]))
    assert code == 1
    written = json.loads(target.read_text(encoding="utf-8"))
    assert written["runs"][0]["results"]
    assert [p.name for p in target.parent.iterdir()] == ["report.sarif"]  # no temporary file left
    capsys.readouterr()
    run_check(CheckOptions(paths=paths, root=tmp_path, output_format=Format.sarif))
    assert json.loads(capsys.readouterr().out) == written


def test_the_blob_cache_does_not_wait_for_the_disk(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path / "repo.git")
    assert cache.location.endswith("blobs.sqlite3")
    assert cache.connection.execute("PRAGMA synchronous").fetchone()[0] == 0


def test_the_refs_are_never_stored_before_the_digests_they_vouch_for(tmp_path: Path) -> None:
    """Digests wait in memory for a batch; recording the reachable set writes them in the same transaction."""
    (tmp_path / "repo.git").mkdir()
    cache = BlobCache(tmp_path / "repo.git")
    oid, digest = "a" * 40, "b" * 64
    cache.add([(oid, "blob", digest, None)])
    cache.set_reachable("refs-1", [oid])
    other = BlobCache(tmp_path / "repo.git")  # another process, or the next run after this one was killed
    assert other.reachable_state() == "refs-1"
    assert other.known([oid]) == {oid} and other.blobs_with(digest) == [oid]
    cache.close()
    other.close()


def test_result_cache_entries_are_signed_with_the_cache_secret(tmp_path: Path) -> None:
    from mechlint.model import Level, Region, Result
    from mechlint.run.resultcache import ResultCache

    results = (Result("m.json", "r/x", Level.WARNING, "message", "/title", Region(1, 1, 1, 2)),)
    cache = ResultCache(tmp_path / "cache", "fingerprint", lambda location, paths: "")
    cache.put("key", results)  # no get first: the secret is loaded when the entries are written
    cache.close()
    again = ResultCache(tmp_path / "cache", "fingerprint", lambda location, paths: "")
    assert again.get("key", "m.json") == results
    again.close()
