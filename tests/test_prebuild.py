"""The prebuilt shipped data (mechlint/prebuilt/) is what reading the shipped files gives; used only while they are."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import mechlint.prebuilt
import mechlint.resources
from mechlint.authoring import prebuild
from mechlint.errors import ConfigError
from mechlint.invariants import loader
from mechlint.language import plainlists
from mechlint.model import Level
from mechlint.prebuilt import prebuilt_data, prebuilt_schema, validating_schema
from mechlint.resources import data_folder, schema
from mechlint.schema import fastschema
from mechlint.schema.datafile import read_toml

ROOT = Path(__file__).resolve().parent.parent


def test_the_prebuilt_modules_are_what_prebuild_writes_now() -> None:
    """After changing shipped data, the schema or fastschema: ``python -m mechlint.authoring.prebuild``."""
    rendered = prebuild.render()
    assert rendered
    for name, text in rendered.items():
        written = (ROOT / "mechlint" / "prebuilt" / name).read_text(encoding="utf-8")
        assert written == text, f"mechlint/prebuilt/{name} is stale: run python -m mechlint.authoring.prebuild"


def test_every_shipped_file_a_check_reads_is_prebuilt() -> None:
    files = prebuild.prebuilt_files()
    assert {f"rules/{name}" for name in plainlists.SHIPPED} <= set(files)
    assert any(name.startswith("rules/invariants/") for name in files)
    for relative in files:
        found = prebuilt_data(relative)
        assert found is not None, relative
        path = data_folder("rules") / relative.partition("/")[2]
        data, text = read_toml(path, "a shipped file")
        assert found == (data, text)
    assert prebuilt_schema("mechanism.schema.json") is not None


def test_the_prebuilt_schema_module_is_the_source_compile_schema_runs() -> None:
    from mechlint.prebuilt import mechanism_schema

    text = (ROOT / "mechlint" / "prebuilt" / "mechanism_schema.py").read_text(encoding="utf-8")
    assert text.endswith(fastschema.module_source(schema("mechanism.schema.json")))
    assert fastschema.shipped("mechanism.schema.json") is mechanism_schema.check


_CACHED = (fastschema.shipped, plainlists.shipped, loader.builtin_rules, mechlint.resources.schema)


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The shipped data folders copied to ``tmp_path``, and read from there."""
    for name in ("rules", "schemas"):
        shutil.copytree(data_folder(name), tmp_path / name)
    for module in (mechlint.prebuilt, plainlists, mechlint.resources):
        monkeypatch.setattr(module, "data_folder", lambda name: tmp_path / name)
    for cached in _CACHED:
        cached.cache_clear()
    yield tmp_path
    for cached in _CACHED:
        cached.cache_clear()


def test_an_unchanged_copy_is_taken_from_the_prebuilt_modules(data_copy: Path) -> None:
    assert prebuilt_data("rules/plain/words.toml") is not None
    assert prebuilt_schema("mechanism.schema.json") is not None


def test_a_changed_word_list_is_read_from_the_file(data_copy: Path) -> None:
    words = data_copy / "rules" / "plain" / "words.toml"
    text = words.read_text(encoding="utf-8")
    words.write_text(text + '\n[[words]]\nword = "perambulate"\nuse = "walk"\nwhy = "formal word"\n', encoding="utf-8")
    assert prebuilt_data("rules/plain/words.toml") is None
    assert "perambulate" in {entry.word for entry in plainlists.shipped().substitutions}


def test_a_changed_word_list_is_still_validated(data_copy: Path) -> None:
    words = data_copy / "rules" / "plain" / "words.toml"
    words.write_text(words.read_text(encoding="utf-8") + '\n[[words]]\nword = "perambulate"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match='"use"'):
        plainlists.shipped()


def test_a_changed_invariant_file_is_read_from_the_file(data_copy: Path) -> None:
    path = data_copy / "rules" / "invariants" / "prefix-cache.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('level = "error"', 'level = "warning"', 1), encoding="utf-8")
    assert prebuilt_data("rules/invariants/prefix-cache.toml") is None
    (rule,) = loader.builtin_rules()
    assert rule.meta.level is Level.WARNING


def test_a_changed_schema_is_compiled_from_the_file(data_copy: Path) -> None:
    from mechlint.prebuilt import mechanism_schema

    path = data_copy / "schemas" / "mechanism.schema.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"required"', '"required" ', 1), encoding="utf-8")
    assert prebuilt_schema("mechanism.schema.json") is None
    check = fastschema.shipped("mechanism.schema.json")
    assert check is not None and check is not mechanism_schema.check


def test_a_changed_validating_schema_makes_the_data_read_from_the_file(data_copy: Path) -> None:
    path = data_copy / "schemas" / "word-lists.schema.json"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert prebuilt_data("rules/plain/words.toml") is None
    assert prebuilt_data("rules/invariants/prefix-cache.toml") is not None
    assert plainlists.shipped().substitutions


def test_a_changed_compiler_makes_the_schema_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiler = tmp_path / "fastschema.py"
    compiler.write_text(mechlint.prebuilt.COMPILER.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    monkeypatch.setattr(mechlint.prebuilt, "COMPILER", compiler)
    assert prebuilt_schema("mechanism.schema.json") is None


def test_what_a_run_builds_from_the_prebuilt_data_equals_what_it_builds_from_the_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loader.builtin_rules.cache_clear()
    with_prebuilt = (plainlists.load_lists(), loader.builtin_rules())
    monkeypatch.setattr(plainlists, "prebuilt_data", lambda relative: None)
    monkeypatch.setattr(mechlint.prebuilt, "prebuilt_data", lambda relative: None)
    loader.builtin_rules.cache_clear()
    try:
        plain = (plainlists.load_lists(), loader.builtin_rules())
    finally:
        loader.builtin_rules.cache_clear()
    assert with_prebuilt[0] == plain[0]
    assert [(r.meta, r.doc) for r in with_prebuilt[1]] == [(r.meta, r.doc) for r in plain[1]]


def test_the_schema_each_data_file_is_validated_with_is_the_one_its_loader_names() -> None:
    assert validating_schema("rules/plain/words.toml") == plainlists.SCHEMA_NAME
    assert validating_schema("rules/invariants/prefix-cache.toml") == loader.SCHEMA_NAME
