"""One discovery: check, fix, pin and the language server find the same mechanism files (issue 16, point 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechlint.cli import main
from mechlint.config import Config, load_config
from mechlint.config.globs import DEFAULT_EXCLUDE, matches, matches_exactly
from mechlint.run.discovery import (
    Candidate,
    UsageError,
    is_mechanism_file,
    mechanism_files,
    read_candidate,
)

from .conftest import CLEAN
from .gitrepo import init, write


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with its configuration in ``site/``: patterns are relative to that folder."""
    repo = init(tmp_path / "repo")
    clean = CLEAN.read_text(encoding="utf-8")
    write(repo, "site/mechlint.toml", 'include = ["posts/**/*.json"]\nexclude = ["posts/drafts"]\n')
    for name in ("posts/a/one.json", "posts/b/two.json", "posts/drafts/three.json", "posts/node_modules/x.json"):
        write(repo, f"site/{name}", clean)
    write(repo, "site/other/four.json", clean)
    write(repo, "posts/five.json", clean)  # outside the configuration's folder: matched from the folder walked
    monkeypatch.chdir(repo)
    return repo


def _names(candidates: list[Candidate], base: Path) -> list[str]:
    return [c.path.relative_to(base).as_posix() for c in candidates]


def test_mechanism_files_walks_from_the_configuration_folder_with_its_include_and_exclude(project: Path) -> None:
    config = load_config(project / "site" / "mechlint.toml")
    found = mechanism_files([project], config, project)
    assert _names(found, project) == ["posts/five.json", "site/posts/a/one.json", "site/posts/b/two.json"]
    assert not any(c.explicit for c in found)
    assert mechanism_files(["site/posts/a", "site/posts"], config, project) == found[1:], "each once, in order"


def test_a_named_file_is_always_a_candidate_and_a_missing_path_is_a_usage_error(project: Path) -> None:
    config = load_config(project / "site" / "mechlint.toml")
    named = mechanism_files(["site/other/four.json"], config, project)
    assert _names(named, project) == ["site/other/four.json"] and named[0].explicit
    assert not is_mechanism_file(project / "site/other/four.json", config, project)
    assert is_mechanism_file(project / "site/posts/new/not-yet-written.json", config, project)
    assert not is_mechanism_file(project / "site/posts/drafts/x.json", config, project)
    with pytest.raises(UsageError, match="nothing/here"):
        mechanism_files(["nothing/here"], config, project)


def test_without_a_configuration_file_patterns_are_relative_to_the_project_root(tmp_path: Path) -> None:
    write(tmp_path, "a/mechanisms/m.json", "{}")
    write(tmp_path, "node_modules/pkg/mechanisms/m.json", "{}")
    write(tmp_path, "b/x.mechanism.json", "{}")
    found = mechanism_files([tmp_path], Config(root=tmp_path), tmp_path)
    assert _names(found, tmp_path) == ["a/mechanisms/m.json", "b/x.mechanism.json"]


def test_read_candidate_gives_a_buffer_its_own_bytes_and_a_file_the_configured_limit(tmp_path: Path) -> None:
    path = write(tmp_path, "m.json", "x" * 100)
    config = Config(root=tmp_path, max_file_size=50)
    assert read_candidate(Candidate(path, True, b"{}"), config, tmp_path) == b"{}"
    assert "larger than max-file-size (50)" in str(read_candidate(Candidate(path, True), config, tmp_path))
    assert read_candidate(Candidate(path, True), Config(root=tmp_path), tmp_path) == b"x" * 100


def _broken_links(project: Path) -> None:
    (project / "site/posts/a/broken.json").symlink_to("gone.json")
    (project / "site/posts/drafts/broken.json").symlink_to("gone.json")


def test_check_fix_and_pin_report_the_same_unreadable_mechanism_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _broken_links(project)
    assert main(["check", "--config", "site/mechlint.toml", "-f", "json", "site"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [(r["path"], r["rule"]) for r in report["results"]] == [
        ("site/posts/a/broken.json", "mechlint/unreadable-file")
    ]
    assert report["files_checked"] == 3
    (project / "site/mechlint.toml").unlink()  # fix and pin read the configuration found from here
    (project / "mechlint.toml").write_text('include = ["site/posts/**/*.json"]\nexclude = ["site/posts/drafts"]\n')
    assert main(["fix", "--diff", "site"]) == 0
    err = capsys.readouterr().err
    assert "site/posts/a/broken.json" in err and "drafts" not in err
    assert main(["pin", "--check", "site"]) == 2
    err = capsys.readouterr().err
    assert "site/posts/a/broken.json is a broken symbolic link" in err and "drafts" not in err


def test_pin_reads_no_more_than_the_configured_max_file_size_as_check_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = init(tmp_path / "repo")
    write(repo, "mechlint.toml", "max-file-size = 200\n")
    write(repo, "mechanisms/m.json", CLEAN.read_text(encoding="utf-8"))
    monkeypatch.chdir(repo)
    assert main(["check", "-f", "json", "mechanisms"]) == 1
    assert [r["rule"] for r in json.loads(capsys.readouterr().out)["results"]] == ["mechlint/unreadable-file"]
    assert main(["pin", "--check", "mechanisms"]) == 2
    assert "larger than max-file-size (200)" in capsys.readouterr().err


def test_the_walk_lists_what_os_walk_lists(tmp_path: Path) -> None:
    """One ``scandir`` per folder and no ``lstat`` per folder: the same files as ``os.walk(followlinks=False)``."""
    import os

    root = tmp_path / "blog"
    for name in (
        "a/mechanisms/m.json",
        "a/mechanisms/deep/n.json",
        "b/mechanisms/x.txt",
        "node_modules/mechanisms/z.json",
    ):
        write(root, name, "{}")
    (root / "a" / "mechanisms" / "folder.json").mkdir()  # a folder named like a mechanism file is reported
    (root / "c").mkdir()
    (root / "c" / "mechanisms").symlink_to(root / "a" / "mechanisms")  # listed, never walked
    (root / "a" / "mechanisms" / "loop.json").symlink_to(root / "a" / "mechanisms" / "loop.json")
    (root / "a" / "mechanisms" / "linked.json").symlink_to(root / "a" / "mechanisms")  # a link to a folder
    config = Config(root=root, include=("**/mechanisms/*.json", "**/mechanisms/**/*.json"), exclude=("b",))
    excluded = (*DEFAULT_EXCLUDE, *config.exclude)
    expected = []
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if not matches(os.path.relpath(f"{folder}/{d}", root), excluded)]
        for name in [*dirnames, *filenames]:
            relative = os.path.relpath(f"{folder}/{name}", root)
            if matches_exactly(relative, config.include) and not matches(relative, excluded):
                expected.append(f"{folder}/{name}")
    found = [str(candidate.path) for candidate in mechanism_files([root], config, root)]
    assert sorted(found) == sorted(expected)
    assert len(found) == len(set(found)) >= 5
