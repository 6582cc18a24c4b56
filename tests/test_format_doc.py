"""docs/format.md is generated from the schema, the seed and the rule table; docs/editor-schema.md holds."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mechlint.authoring.formatdoc import PARTS, RULES_BY_KEY, format_markdown, github_anchor, key_of
from mechlint.catalog.registry import all_rules, rules_by_id
from mechlint.config import Config
from mechlint.resources import schema

from .conftest import ROOT

SCHEMA = schema("mechanism.schema.json")
FORMAT = ROOT / "docs" / "format.md"
EDITOR = ROOT / "docs" / "editor-schema.md"
#: Rules that read every key or the whole file, said once at the top of the page.
EVERYWHERE = {"schema/violation", "schema/placeholder", "schema/invalid-json", "schema/duplicate-key"}


def test_the_format_doc_matches_the_code() -> None:
    assert FORMAT.read_text(encoding="utf-8") == format_markdown(ROOT), "run `python -m mechlint.authoring.formatdoc`"


def _keys() -> set[tuple[str, str]]:
    return {
        (part, key) for _, part, _ in PARTS for key in (SCHEMA if part == "" else SCHEMA["$defs"][part])["properties"]
    }


def test_every_key_of_the_schema_is_in_the_rule_table_and_no_other() -> None:
    assert set(RULES_BY_KEY) == _keys()


def test_the_rule_table_names_real_rules_and_every_rule_of_a_document() -> None:
    known = rules_by_id()
    named = {rule for rules in RULES_BY_KEY.values() for rule in rules}
    assert named <= set(known)
    document_rules = {r.meta.id for r in all_rules() if r.meta.stage != "engine"}
    assert document_rules - EVERYWHERE <= named


@pytest.mark.parametrize(
    "rule", [r for r in all_rules() if r.meta.id not in EVERYWHERE and r.meta.examples], ids=lambda r: r.meta.id
)
def test_each_documented_example_is_at_a_key_that_lists_its_rule(rule: object) -> None:
    """A rule's examples say where it looks; the table must say so too (or under a key inside that one)."""
    meta = rule.meta  # type: ignore[attr-defined]
    assert meta.examples, f"{meta.id} has no documented example"
    for example in meta.examples:
        if example.where is None:
            continue
        found = key_of(example.where)
        assert found is not None
        part, key = found
        inside = {"sources": "source", "targets": "target", "scenarios": "scenario", "steps": "step"}.get(key)
        listed = {k for k, rules in RULES_BY_KEY.items() if meta.id in rules}
        assert (part, key) in listed or any(p == inside for p, _ in listed), (meta.id, example.where)


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [
        ("/title", ("", "title")),
        ("/sources", ("", "sources")),
        ("/sources/0", ("", "sources")),
        ("/sources/0/sha256", ("source", "sha256")),
        ("/targets/a0/label", ("target", "label")),
        ("/scenarios/0/steps/2", ("scenario", "steps")),
        ("/scenarios/0/steps/2/state/stage", ("step", "state")),
        ("/scenarios/0/initial/stage", ("scenario", "initial")),
        ("", None),
    ],
)
def test_key_of(pointer: str, expected: tuple[str, str] | None) -> None:
    assert key_of(pointer) == expected


def test_every_link_of_a_hover_text_lands_on_a_heading() -> None:
    anchors = {github_anchor(line) for line in FORMAT.read_text(encoding="utf-8").splitlines() if line.startswith("#")}
    links = re.findall(r"docs/format\.md#([\w-]+)", json.dumps(SCHEMA))
    assert len(links) == len(_keys())
    assert set(links) <= anchors


def test_every_key_is_shown_with_the_seed_value_or_said_absent() -> None:
    text = FORMAT.read_text(encoding="utf-8")
    sections = text.split("\n### ")[1:]
    assert sections
    for section in sections:
        assert "In the seed:" in section or "The seed does not have it." in section
        assert "Rules that look at it:" in section


def _json_blocks(text: str) -> list[object]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.DOTALL)]


def test_the_editor_snippets_are_valid_and_agree_with_the_schema_and_the_defaults() -> None:
    file_example, settings, catalogue = _json_blocks(EDITOR.read_text(encoding="utf-8"))
    assert isinstance(file_example, dict) and file_example["$schema"] == SCHEMA["$id"]
    assert isinstance(settings, dict) and isinstance(catalogue, dict)
    (entry,) = settings["json.schemas"]
    assert entry["url"] == SCHEMA["$id"]
    assert tuple(entry["fileMatch"]) == tuple(Config().include)
    assert catalogue["url"] == SCHEMA["$id"]
    assert set(catalogue) == {"name", "description", "fileMatch", "url"}
    assert SCHEMA["$id"] in FORMAT.read_text(encoding="utf-8")


def test_mechlint_schema_prints_the_shipped_schema(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("mechlint")), "schema"],
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == SCHEMA
    assert done.stdout == (ROOT / "schemas" / "mechanism.schema.json").read_bytes()


def test_every_check_option_is_in_the_readme_table() -> None:
    from mechlint.cli.fast_check import OPTIONS

    table = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| `-")]
    named = {option for line in table for option in re.findall(r"`(--?[\w-]+)", line)}
    assert {o for o in OPTIONS if o.startswith("--") and not o.startswith("--no-")} <= named
