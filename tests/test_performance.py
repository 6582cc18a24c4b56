"""Worker processes and the result cache change speed, never results: their output equals a plain run."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config, load_config
from mechlint.model import Report
from mechlint.report import OutputOptions, reporter

from .conftest import CLEAN
from .gitrepo import commit, init, write

CLEAN_DATA = json.loads(CLEAN.read_text(encoding="utf-8"))


def _render(report: Report, root: Path) -> dict[str, str]:
    options = OutputOptions(root_uri=root.as_uri() + "/", tool_version="0")
    return {name: reporter(name)(report, options) for name in ("text", "json", "github", "sarif")}


@pytest.fixture(scope="module")
def blog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = init(tmp_path_factory.mktemp("perf") / "blog")
    commit(repo, "sources", {"post.md": "v1\n", "old.md": "old\n"})
    commit(repo, "edit", {"post.md": "v2\n", "old.md": None})
    for index in range(240):
        data = json.loads(json.dumps(CLEAN_DATA))
        data["caption"] += f" Variant {index}."
        if index % 7 == 0:
            data["scenarios"][0]["steps"][0]["active"].append(f"missing{index}")
        if index % 11 == 0:
            data["sources"] = [
                {"path": "post.md", "sha256": hashlib.sha256(b"v1\n").hexdigest(), "description": "x"},
                {"path": "old.md", "sha256": hashlib.sha256(b"old\n").hexdigest(), "description": "y"},
            ]
        write(repo, f"content/p{index:03d}/mechanisms/m.json", json.dumps(data, indent=2, ensure_ascii=False))
    return repo


def test_workers_give_the_same_report_as_one_process(blog: Path) -> None:
    config = Config(root=blog)
    one = lint([blog / "content"], config, root=blog, fingerprints=True, jobs=1)
    two = lint([blog / "content"], config, root=blog, fingerprints=True, jobs=2)
    assert one.files_checked == two.files_checked == 240
    assert _render(one, blog) == _render(two, blog)
    assert {r.rule_id for r in one.results} >= {"reference/unknown-target", "provenance/stale-source"}


def test_cache_gives_the_same_report_cold_and_warm(blog: Path, tmp_path: Path) -> None:
    config = Config(root=blog)
    plain = _render(lint([blog / "content"], config, root=blog, fingerprints=True), blog)
    cache = tmp_path / "cache"
    cold = _render(lint([blog / "content"], config, root=blog, fingerprints=True, cache=cache), blog)
    warm = _render(lint([blog / "content"], config, root=blog, fingerprints=True, cache=cache, jobs=2), blog)
    assert plain == cold == warm
    assert (cache / "results.sqlite3").is_file() and len((cache / "secret.key").read_bytes()) == 32


def test_workers_write_what_their_caches_hold(blog: Path, tmp_path: Path) -> None:
    """Workers keep cache entries and digests in memory and write them after each chunk: none is lost at exit."""
    import shutil
    import sqlite3

    shutil.rmtree(blog / ".git" / "mechlint", ignore_errors=True)
    cache = tmp_path / "cache"
    lint([blog / "content"], Config(root=blog), root=blog, cache=cache, jobs=2)
    with sqlite3.connect(cache / "results.sqlite3") as results:
        assert results.execute("SELECT count(*) FROM entries").fetchone() == (240,)
    with sqlite3.connect(blog / ".git" / "mechlint" / "blobs.sqlite3") as blobs:
        stored = {row[0] for row in blobs.execute("SELECT sha256 FROM blobs")}
    assert {hashlib.sha256(b"v1\n").hexdigest(), hashlib.sha256(b"old\n").hexdigest()} <= stored


def test_cache_follows_sources_configuration_and_corruption(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {"post.md": "v1\n"})
    data = json.loads(json.dumps(CLEAN_DATA))
    data["sources"] = [{"path": "post.md", "sha256": hashlib.sha256(b"v1\n").hexdigest(), "description": "x"}]
    write(repo, "content/mechanisms/m.json", json.dumps(data, indent=2))
    cache = tmp_path / "cache"

    def rules(config: Config | None = None) -> list[str]:
        report = lint([repo / "content"], config or Config(root=repo), root=repo, cache=cache)
        return sorted(r.rule_id for r in report.results)

    assert rules() == []
    commit(repo, "second", {"post.md": "v2\n"})
    assert rules() == ["provenance/stale-source"], "a source edit invalidates the cached result"
    write(repo, "mechlint.toml", '[rules."provenance/stale-source"]\nlevel = "off"\n')
    assert rules(load_config(start=repo)) == [], "a configuration change invalidates it too"
    (cache / "results.sqlite3").write_bytes(b"not a database" * 100)
    assert rules() == ["provenance/stale-source"]


def test_cli_cache_and_jobs(blog: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from mechlint.cli import main

    monkeypatch.chdir(blog)
    assert main(["check", "-f", "json", "--no-cache", "content"]) == 1
    plain = capsys.readouterr().out
    assert main(["check", "-f", "json", "--cache", "-j", "2", "content"]) == 1
    assert capsys.readouterr().out == plain
    assert main(["check", "-f", "json", "content"]) == 1, "the cache is on by default"
    assert capsys.readouterr().out == plain
    assert not (blog / ".mechlint_cache").exists(), "nothing is written into the repository"
    assert list((Path(os.environ["XDG_CACHE_HOME"]) / "mechlint" / "results").glob("*/results.sqlite3"))
