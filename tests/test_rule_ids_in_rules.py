"""A rule's id is written once, in its rule module; code elsewhere takes it from there (issue 16, point 6)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mechlint.catalog.registry import rules_by_id

PACKAGE = Path(__file__).resolve().parent.parent / "mechlint"
#: Where an id may still be spelt, and why: reporters may not import rules (a report is self-contained), the
#: key-by-key table of docs/format.md is held against every rule's documented examples by tests/test_format_doc.py,
#: and the document layer, below the rules, names the two findings its loader makes (the two rules take their ids
#: from it; test_the_loader_reports_with_the_ids_of_the_schema_rules holds them equal).
ALLOWED = {
    "report": "reporters import nothing above model",
    "authoring/formatdoc.py": "a documentation table with its own test",
    "document/__init__.py": "the loader's findings, below the rules",
    "fixes/__init__.py": "the table of fixable rules, read before any rule module loads; test_fix_pairs.py holds each"
    " entry to a rule with a fixture pair",
}


def _modules() -> list[Path]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in ("rules", *ALLOWED) or relative.as_posix() in ALLOWED:
            continue
        found.append(path)
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_the_rules_spells_a_rule_id(path: Path) -> None:
    ids = set(rules_by_id())
    tree = ast.parse(path.read_text(encoding="utf-8"))
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert not literals & ids, f"{path.relative_to(PACKAGE)} spells {sorted(literals & ids)}; use the rule's META.id"


def test_the_loader_reports_with_the_ids_of_the_schema_rules() -> None:
    from mechlint.document import load
    from mechlint.rules.schema import duplicate_key, invalid_json

    assert [f.rule_id for f in load("a.json", b'{"a": 1,}').load_findings] == [invalid_json.META.id]
    assert [f.rule_id for f in load("b.json", b'{"a": 1, "a": 2}').load_findings] == [duplicate_key.META.id]
