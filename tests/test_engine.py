"""Discovery, safe reading, and a crashing rule that does not stop the run."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.catalog.registry import all_rules
from mechlint.config import Config
from mechlint.config.globs import glob_regex
from mechlint.rules import Rule
from mechlint.safety.paths import relative_posix

from .conftest import CLEAN, FIXTURES


@pytest.mark.parametrize(
    ("pattern", "path", "matched"),
    [
        ("**/mechanisms/*.json", "mechanisms/a.json", True),
        ("**/mechanisms/*.json", "content/blog/x/mechanisms/a.json", True),
        ("**/mechanisms/*.json", "content/mechanisms/sub/a.json", False),
        ("**/*.mechanism.json", "a/b/c.mechanism.json", True),
        ("**/*.mechanism.json", "a/b/c.json", False),
        ("node_modules", "a/node_modules/x/mechanisms/a.json", True),
        ("content/drafts/**", "content/drafts/x/mechanisms/a.json", True),
        ("content/drafts/**", "content/draftsx/mechanisms/a.json", False),
        ("*.json", "a/b/c.json", True),
        ("[!a]*.json", "b.json", True),
    ],
)
def test_globs(pattern: str, path: str, matched: bool) -> None:
    assert bool(glob_regex(pattern).match(path)) is matched


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    folder = tmp_path / "content" / "post" / "mechanisms"
    folder.mkdir(parents=True)
    shutil.copy(CLEAN, folder / "seed.json")
    (tmp_path / "content" / "post" / "source-notes.json").write_text("not json at all")
    (tmp_path / "content" / "post" / "one.mechanism.json").write_bytes(CLEAN.read_bytes())
    (tmp_path / "node_modules" / "mechanisms").mkdir(parents=True)
    (tmp_path / "node_modules" / "mechanisms" / "x.json").write_text("{")
    return tmp_path


def _rules(report: object) -> list[tuple[str, str]]:
    return sorted((Path(r.path).name, r.rule_id) for r in report.results)  # type: ignore[attr-defined]


def test_discovery_includes_only_mechanism_files(tree: Path) -> None:
    report = lint([tree], Config(root=tree), root=tree)
    assert report.files_checked == 2
    assert report.results == []


def test_an_explicit_file_is_always_checked(tree: Path) -> None:
    report = lint([tree / "content" / "post" / "source-notes.json"], Config(root=tree), root=tree)
    assert _rules(report) == [("source-notes.json", "schema/invalid-json")]


def test_excludes_from_config(tree: Path) -> None:
    config = Config(root=tree, exclude=("content/post/mechanisms",))
    assert lint([tree], config, root=tree).files_checked == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_special_files_are_reported_not_opened(tree: Path) -> None:
    folder = tree / "content" / "post" / "mechanisms"
    os.mkfifo(folder / "pipe.json")
    (folder / "loop.json").symlink_to(folder / "loop.json")
    (folder / "broken.json").symlink_to(folder / "missing.json")
    (folder / "outside.json").symlink_to("/etc/hostname")
    (folder / "folder.json").mkdir()
    (folder / "big.json").write_bytes(b" " * 20_000)
    report = lint([tree], Config(root=tree, max_file_size=10_000), root=tree)
    assert _rules(report) == [
        (name, "mechlint/unreadable-file")
        for name in ("big.json", "broken.json", "folder.json", "loop.json", "outside.json", "pipe.json")
    ]


@pytest.mark.not_root
def test_unreadable_permission(tree: Path) -> None:
    target = tree / "content" / "post" / "mechanisms" / "seed.json"
    target.chmod(0)
    assert _rules(lint([tree], Config(root=tree), root=tree)) == [("seed.json", "mechlint/unreadable-file")]


def test_a_crashing_rule_becomes_internal_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def explode(*_: object) -> Iterator[object]:
        raise ZeroDivisionError("boom")

    broken = tuple(
        Rule(rule.meta, explode, rule.doc) if rule.meta.id == "reference/kind-mismatch" else rule
        for rule in all_rules()
    )
    monkeypatch.setattr("mechlint.config.rules_by_id", lambda: {r.meta.id: r for r in broken})
    bad = FIXTURES / "rules" / "reference" / "unknown-target" / "fail-typo-active.json"
    report = lint([bad], Config(root=tmp_path), root=tmp_path)
    rules = {r.rule_id for r in report.results}
    assert "mechlint/internal-error" in rules
    assert "reference/unknown-target" in rules  # the others still ran
    assert report.notifications and report.notifications[0].rule_id == "reference/kind-mismatch"
    internal = next(r for r in report.results if r.rule_id == "mechlint/internal-error")
    assert "reference/kind-mismatch" in internal.message


@pytest.mark.parametrize(
    ("name", "expected"),
    [("al", "a1"), ("ao", "a0"), ("cahce0", "cache0"), ("stor0", "store0"), ("TAIL", "tail"), ("ghost", None)],
)
def test_closest_target_suggestion(name: str, expected: str | None) -> None:
    from mechlint.rules.reference.unknown_target import closest

    keys = ["a0", "a1", "cache0", "cache1", "store0", "reuse0", "tail", "b0", "b1"]
    assert closest(name, keys) == expected


@pytest.mark.parametrize(
    ("path", "base"),
    [
        ("/a/b/c", "/a/b"),
        ("/a/b", "/a/b"),
        ("/a/bc", "/a/b"),
        ("/x", "/"),
        ("/", "/"),
        ("a/b", "/a"),
        ("a/b", "a"),
        ("/a/b", "a"),
        (".", "."),
        ("a", "."),
        ("/a", "."),
        ("/a/b c/d", "/a/b c"),
    ],
)
def test_relative_posix_is_pathlib_relative_to(path: str, base: str) -> None:
    try:
        expected: str | None = Path(path).relative_to(Path(base)).as_posix()
    except ValueError:
        expected = None
    assert relative_posix(Path(path), Path(base)) == expected


def test_value_hashes_are_left_out_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "mechanisms").mkdir()
    shutil.copy(FIXTURES / "seed" / "mechanisms" / "prefix-cache.json", tmp_path / "mechanisms" / "a.json")
    with_hashes = lint([tmp_path], Config(), root=tmp_path)
    without = lint([tmp_path], Config(), root=tmp_path, value_hashes=False)
    results = [r for f in with_hashes.files for r in f.results]
    assert results and all(r.value_hash for r in results)
    assert [r for f in without.files for r in f.results] == [r._replace(value_hash="", context="") for r in results]
