"""The rule catalogue is a contract: ids, registration, docs, and runnable examples."""

from __future__ import annotations

import json
import pkgutil
from pathlib import Path
from typing import Any

import pytest

import mechlint.rules
from mechlint import lint
from mechlint.catalog.docs import expected_files
from mechlint.catalog.registry import RULE_MODULES, all_rules
from mechlint.catalog.ruleexamples import example_document
from mechlint.config import Config
from mechlint.rules import Example
from mechlint.run.engine import lint_bytes

from .conftest import ROOT
from .gitrepo import example_repository, shallow_clone

# The ids that ../shared/spec/rules.md requires for the families built so far.
REQUIRED_IDS = {
    "schema/invalid-json",
    "schema/duplicate-key",
    "schema/unsupported-version",
    "schema/violation",
    "reference/unknown-target",
    "reference/kind-mismatch",
    "reference/id-mismatch",
    "reference/duplicate-id",
    "reference/unused-target",
    "reference/state-keys",
    "reference/unselected-active",
    "reference/duplicate-scenario",
    "provenance/unsafe-path",
    "provenance/missing-source",
    "provenance/digest-mismatch",
    "provenance/stale-source",
    "provenance/frozen-resolved",
    "provenance/gone-source",
    "provenance/frozen-copy-mismatch",
    "provenance/unpinned-source",
    "provenance/history-unavailable",
    "a11y/alt-missing",
    "a11y/alt-length",
    "a11y/alt-redundant",
    "a11y/label-missing",
    "a11y/reading-time",
    "a11y/language",
    "a11y/flash-rate",
    "plain/sentence-length",
    "plain/word-choice",
    "plain/passive-voice",
    "plain/undefined-acronym",
    "plain/term-consistency",
    "plain/typography-consistency",
    "plain/readability",
    "mechlint/unreadable-file",
    "mechlint/internal-error",
    "mechlint/invalid-config",
    "invariant/reuse-after-store-and-compare",
}
DOCS = ROOT / "docs" / "rules"
BASE = json.loads((DOCS / "base.json").read_text(encoding="utf-8"))


def test_required_ids_exist_and_ids_are_unique() -> None:
    ids = [rule.meta.id for rule in all_rules()]
    assert len(ids) == len(set(ids))
    assert set(ids) >= REQUIRED_IDS


def test_every_rule_module_is_registered() -> None:
    package_path = Path(mechlint.rules.__file__).parent
    modules = {
        f"mechlint.rules.{family.name}.{module.name}"
        for family in pkgutil.iter_modules([str(package_path)])
        if family.ispkg
        for module in pkgutil.iter_modules([str(package_path / family.name)])
    }
    assert modules == {module.__name__ for module in RULE_MODULES}


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.meta.id)
def test_rule_id_matches_its_module(rule: Any) -> None:
    family, _, name = rule.meta.id.partition("/")
    if family == "invariant":
        pytest.skip("invariants are declared as data in rules/invariants/")
    module = next(m for m in RULE_MODULES if m.META is rule.meta)
    assert module.__name__ == f"mechlint.rules.{family}.{name.replace('-', '_')}"
    assert rule.doc, "the module docstring is the rule's documentation"


def test_generated_docs_match_the_code() -> None:
    generated = [p for p in DOCS.rglob("*") if p.suffix in (".md", ".json")]
    on_disk = {p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8") for p in generated}
    assert on_disk == expected_files(), "run `python -m mechlint.catalog.docs` to regenerate docs/rules/"


def test_the_base_document_is_clean() -> None:
    assert lint_bytes(json.dumps(BASE).encode()) == []


EXAMPLES = [(rule.meta.id, example) for rule in all_rules() for example in rule.meta.examples]


@pytest.fixture(scope="module")
def example_repositories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The repositories the examples run in: full history, and a depth-1 clone of it."""
    full = example_repository(tmp_path_factory.mktemp("examples") / "repo")
    shallow = shallow_clone(full, tmp_path_factory.mktemp("examples") / "shallow")
    return {"": full, "shallow": shallow}


@pytest.mark.parametrize(("rule_id", "example"), EXAMPLES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(EXAMPLES)])
def test_documented_example(rule_id: str, example: Example, example_repositories: dict[str, Path]) -> None:
    repository = example_repositories[example.setup]
    target = repository / "mechanisms" / f"example-{EXAMPLES.index((rule_id, example))}.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(example_document(example), encoding="utf-8")  # the file the rule's page shows
    report = lint([target], Config(root=repository), root=repository)
    fired = {result.rule_id for result in report.results}
    assert (rule_id in fired) is example.fires


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.meta.id)
def test_checkable_rules_have_failing_and_passing_examples(rule: Any) -> None:
    if rule.meta.stage == "engine":
        pytest.skip("reported by the engine, covered by its own tests")
    assert any(e.fires for e in rule.meta.examples)
    assert any(not e.fires for e in rule.meta.examples)
