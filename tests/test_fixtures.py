"""Every file under fixtures/rules/ gets exactly the findings listed in expected.json.

Adding a case needs no code: a file, and its ``[rule id, pointer]`` pairs.
Provenance sources resolve against this git checkout; the provenance cases
that need history (stale, frozen, missing, shallow clones) cannot live in a
fixture tree and are in ``tests/test_provenance.py``, on repositories the
tests build.
"""

from __future__ import annotations

import json

import pytest

from mechlint import lint
from mechlint.config import Config

from .conftest import FIXTURES

RULE_FIXTURES = FIXTURES / "rules"
EXPECTED: dict[str, list[list[str | None]]] = json.loads((RULE_FIXTURES / "expected.json").read_text())


def test_every_fixture_file_has_an_expectation() -> None:
    files = {
        p.relative_to(RULE_FIXTURES).as_posix() for p in RULE_FIXTURES.rglob("*.json") if p.name != "expected.json"
    }
    assert files == set(EXPECTED)


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_fixture(relative: str) -> None:
    report = lint([RULE_FIXTURES / relative], Config(root=RULE_FIXTURES), root=RULE_FIXTURES)
    found = sorted((r.rule_id, r.pointer if r.rule_id != "schema/invalid-json" else None) for r in report.results)
    expected = sorted((rule, pointer) for rule, pointer in EXPECTED[relative])
    assert found == expected
