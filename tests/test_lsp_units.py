"""The pure parts of the language server and the fixes it offers, without a client."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from mechlint.lsp.authoring import place_at
from mechlint.lsp.positions import TextIndex
from mechlint.model import Region


def test_positions_in_utf16_utf8_and_code_points() -> None:
    text = 'a\r\n"𝒳é" x\rz'
    index = TextIndex(text)
    x = text.index("x")
    assert index.position(x) == types.Position(1, 6)
    assert index.offset(types.Position(1, 6)) == x
    assert index.position(text.index("z")) == types.Position(2, 0)
    assert index.offset(types.Position(0, 99)) == 1  # past the end of a line: its end
    assert index.position(2) == types.Position(0, 1)  # never between "\r" and "\n"
    assert TextIndex(text, "utf-8").position(x) == types.Position(1, 9)
    assert TextIndex(text, "utf-32").position(x) == types.Position(1, 5)
    assert index.region_range(Region(2, 6, 2, 7)).start == types.Position(1, 6)


@pytest.mark.parametrize(
    ("text", "path", "in_key"),
    [
        ('{"scenarios": [{"steps": [{"active": ["a', ("scenarios", 0, "steps", 0, "active", 0), False),
        ('{"scenarios": [{"steps": [{}, {"paths": ["x", "', ("scenarios", 0, "steps", 1, "paths", 1), False),
        ('{"scenarios": [{"initial": {"stage": "x", "', ("scenarios", 0, "initial"), True),
        ('{"a": "x\\"y", "b": [1, {"c": [', ("b", 1, "c", 0), False),
        ("]]}", (), False),
    ],
)
def test_place_at_reads_broken_text_up_to_the_cursor(text: str, path: tuple[object, ...], in_key: bool) -> None:
    place = place_at(text, len(text))
    assert place.path == path and place.in_key == in_key


def test_check_does_not_import_the_language_server() -> None:
    code = "import sys, mechlint.cli, mechlint.cli.app; assert not {'pygls', 'lsprotocol'} & set(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_sources_are_hashed_once_not_per_keystroke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from mechlint.lsp.checker import Checker
    from mechlint.provenance import paths as source_paths

    from .conftest import FIXTURES

    shutil.copytree(FIXTURES / "content", tmp_path / "content")
    path = next((tmp_path / "content").glob("**/mechanisms/prefix-cache.json"))
    calls: list[str] = []
    original = source_paths.hash_source

    def counting(root: Path, source: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(source)
        return original(root, source, *args, **kwargs)

    monkeypatch.setattr(source_paths, "hash_source", counting)
    checker = Checker(tmp_path)
    text = path.read_text(encoding="utf-8")
    first = checker.check(path, text)
    assert calls and any(r.rule_id == "provenance/unpinned-source" for r in first.results)
    hashed = len(calls)
    for duration in range(3001, 3011):
        checker.check(path, text.replace('"duration": 3000', f'"duration": {duration}', 1))
    assert len(calls) == hashed
    checker.close()


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet='{}[]",:\\ \n\r\tab0𝒳"', max_size=80), at=st.integers(-5, 100))
def test_author_help_never_raises_on_any_text(text: str, at: int) -> None:
    from mechlint.lsp import authoring

    index = TextIndex(text)
    data = {"targets": {"a": {"kind": "node", "label": "A"}}, "stateLabels": {"b": "B"}}
    offset = index.offset(types.Position(max(at, 0) % 5, max(at, 0)))
    authoring.place_at(text, at)
    authoring.completions(text, index, offset, data)
    authoring.hover(text, index, offset, data)
    authoring.definition(text, index, offset, "file:///x.json")
    authoring.references(text, index, offset, "file:///x.json", data, True)
