"""``lint`` takes one options object; a keyword changes one of its fields; rules' crashes come back as values."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint.config import Config
from mechlint.document import load
from mechlint.model import Keep
from mechlint.run.checking import run_rules
from mechlint.run.engine import LintOptions, lint

from .conftest import CLEAN, SEED
from .gitrepo import write


def test_keywords_and_the_options_object_give_the_same_report(tmp_path: Path) -> None:
    write(tmp_path, "a/mechanisms/seed.json", SEED.read_bytes())
    write(tmp_path, "b/mechanisms/clean.json", CLEAN.read_bytes())
    by_keywords = lint([tmp_path], Config(), root=tmp_path, keep=Keep.FILES, fingerprints=True)
    by_object = lint([tmp_path], Config(), LintOptions(root=tmp_path, keep=Keep.FILES, fingerprints=True))
    mixed = lint([tmp_path], Config(), LintOptions(root=tmp_path, keep=Keep.FILES), fingerprints=True)
    assert by_keywords == by_object == mixed
    assert len(by_object.files) == 2 and by_object.results


def test_an_unknown_option_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        lint([tmp_path], Config(), root=tmp_path, colour=True)


def test_run_rules_returns_the_crashes_instead_of_appending_them() -> None:
    config = Config()
    enabled = config.enabled()

    class Crashing:
        meta = enabled[-1].rule.meta._replace(id="test/crash", stage="document")
        doc = ""

        @staticmethod
        def check(document: object, context: object) -> list[object]:
            raise ValueError("boom")

    crashing = enabled[-1]._replace(rule=Crashing())  # type: ignore[arg-type]
    findings, notifications = run_rules(load("x.json", CLEAN.read_bytes()), [*enabled, crashing])
    assert [n.rule_id for n in notifications] == ["test/crash"]
    assert any(f.rule_id == "mechlint/internal-error" and "test/crash" in f.message for f in findings)
