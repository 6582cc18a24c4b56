"""Every fixable rule has a fixture pair: ``fixtures/rules/<family>/<rule>/fail-*.json`` and its fixed form,
``fail-*.json.fixed``, byte for byte (issue 28). The rules whose fix needs git history (a renamed source, a
stale pin) have their pairs in ``tests/test_fix_history.py``, on repositories the tests build.

A property over every rule fixture and the corpus: fixing (unsafe fixes too) gives text that parses,
adds no finding, and fixing again changes nothing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mechlint.authoring.fixfiles import fix_files
from mechlint.config import Config
from mechlint.document import load
from mechlint.fixes import FIXABLE

from .conftest import FIXTURES, ROOT

RULE_FIXTURES = (FIXTURES / "rules").resolve()
PAIRS = sorted(RULE_FIXTURES.rglob("*.json.fixed"))
#: Fixed in repositories with history (tests/test_fix_history.py): a fixture tree has none.
WITH_HISTORY = {"provenance/gone-source", "provenance/stale-source"}


def _fixed(path: Path, root: Path, unsafe: bool = True) -> tuple[bytes, list[str], tuple[str, ...]]:
    outcomes, skipped = fix_files([str(path)], Config(root=root), root, None, unsafe)
    assert skipped == [] and len(outcomes) == 1
    [outcome] = outcomes
    return outcome.after, [a.rule_id for a in outcome.applied], outcome.problems


def _rule_of(pair: Path) -> str:
    return "/".join(pair.relative_to(RULE_FIXTURES).parts[:2])


def test_every_fixable_rule_has_a_fixture_pair() -> None:
    assert PAIRS
    assert {_rule_of(pair) for pair in PAIRS} == set(FIXABLE) - WITH_HISTORY


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.relative_to(RULE_FIXTURES).as_posix())
def test_a_failing_fixture_fixes_to_its_pair_byte_for_byte(pair: Path) -> None:
    failing = pair.with_suffix("")
    after, applied, problems = _fixed(failing, RULE_FIXTURES)
    assert problems == ()
    assert set(applied) == {_rule_of(pair)}
    assert after == pair.read_bytes()


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.relative_to(RULE_FIXTURES).as_posix())
def test_safe_fixes_apply_without_unsafe_ones(pair: Path) -> None:
    """Without --unsafe-fixes only safe fixes change the file; each fix is of a kind its rule's page names."""
    from mechlint import lint

    rule, failing = _rule_of(pair), pair.with_suffix("")
    results = [r for r in lint([failing], Config(root=RULE_FIXTURES), root=RULE_FIXTURES).results if r.rule_id == rule]
    kinds = {r.fix.applicability for r in results if r.fix is not None}
    assert len(kinds) == 1 and kinds <= set(FIXABLE[rule][0].replace("(", " ").split())
    after, applied, _ = _fixed(failing, RULE_FIXTURES, unsafe=False)
    if kinds == {"unsafe"}:
        assert (after, applied) == (failing.read_bytes(), [])
    else:
        assert applied and after == pair.read_bytes()


def _corpus() -> list[Path]:
    files = sorted(p for p in RULE_FIXTURES.rglob("*.json") if p.name != "expected.json")
    files += sorted((ROOT / "tests" / "corpus").rglob("*.json"))
    return files


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_fixing_parses_adds_no_finding_and_is_idempotent(path: Path, tmp_path: Path) -> None:
    from mechlint.run.engine import lint_bytes

    root = RULE_FIXTURES if path.is_relative_to(RULE_FIXTURES) else ROOT / "tests" / "corpus"
    before = path.read_bytes()
    after, _, _ = _fixed(path, root)
    assert path.read_bytes() == before  # computing fixes writes nothing
    if after == before:
        return
    assert load(path.name, after).parsed
    counted = Counter(r.rule_id for r in lint_bytes(before, path.name))
    added = [rule for rule, n in Counter(r.rule_id for r in lint_bytes(after, path.name)).items() if n > counted[rule]]
    assert added == []
    copy = tmp_path / path.name
    copy.write_bytes(after)
    again, applied, _ = _fixed(copy, tmp_path)
    assert (again, applied) == (after, [])
