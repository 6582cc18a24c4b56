"""mechlint fix: typography converted to the dominant style, only inside string values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechlint.cli import main
from mechlint.config import Config
from mechlint.document import load
from mechlint.document.edit import StringEdit, apply_edits
from mechlint.fixes.typography import fix_typography

from .conftest import CLEAN, SEED


def _fixed(data: dict[str, object]) -> dict[str, object]:
    document = load("x.json", json.dumps(data, indent=2, ensure_ascii=False).encode())
    result: dict[str, object] = json.loads(apply_edits(document, list(fix_typography(document))))
    return result


def _clean() -> dict[str, object]:
    data: dict[str, object] = json.loads(CLEAN.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("caption", "expected"),
    [
        ("A's key and B's key. \"Quoted\" text.", "A’s key and B’s key. “Quoted” text."),
        ("He said 'go' now.", "He said ‘go’ now."),
        ("Run `it's` here, but B's tail.", "Run `it's` here, but B’s tail."),
        ("Nothing to change.", "Nothing to change."),
    ],
)
def test_straight_marks_become_curly_in_a_curly_file(caption: str, expected: str) -> None:
    data = _clean()
    data["caption"] = caption
    assert _fixed(data)["caption"] == expected


def test_curly_marks_become_straight_in_a_straight_file() -> None:
    data = json.loads(json.dumps(_clean(), ensure_ascii=False).replace("’", "'"))
    data["caption"] = "B’s key."
    assert _fixed(data)["caption"] == "B's key."


def test_escapes_elsewhere_and_formatting_are_kept() -> None:
    text = SEED.read_text(encoding="utf-8").replace(
        '"A prefills the prefix."', '"A\\u0020prefills \\u2019the\\u2019 prefix."'
    )
    document = load("seed.json", text.encode())
    after = apply_edits(document, list(fix_typography(document)))
    changed = [(a, b) for a, b in zip(text.splitlines(), after.splitlines(), strict=True) if a != b]
    assert len(changed) == 2 and all("B's" in a and "B’s" in b for a, b in changed)
    assert "A\\u0020prefills \\u2019the\\u2019 prefix." in after


def test_edit_maps_offsets_through_escapes() -> None:
    document = load("x.json", b'{"a": "x\\"y\\u00e9z"}')
    assert apply_edits(document, [StringEdit("/a", 4, 5, "Z")]) == '{"a": "x\\"y\\u00e9Z"}'
    assert apply_edits(document, [StringEdit("/a", 1, 2, "\u201c")]) == '{"a": "x\u201cy\\u00e9z"}'


def test_cli_fix_and_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "mechanisms" / "seed.json"
    target.parent.mkdir()
    target.write_bytes(SEED.read_bytes())
    target.chmod(0o640)
    (tmp_path / "mechanisms" / "broken.json").write_text("{")
    monkeypatch.chdir(tmp_path)
    assert main(["fix", "--diff", "."]) == 1
    assert '+          "title": "Compare B’s cache key",' in capsys.readouterr().out
    assert target.read_bytes() == SEED.read_bytes()
    assert main(["fix", "."]) == 0
    assert "not fixed: mechanisms/broken.json" in capsys.readouterr().err
    assert "B's" not in target.read_text(encoding="utf-8")
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert main(["check", "--select", "plain/typography-consistency", "."]) in (0, 1)
    assert "typography" not in capsys.readouterr().out
    assert main(["fix", "--diff", "."]) == 0


def test_fix_respects_a_disabled_rule(tmp_path: Path) -> None:
    from mechlint.authoring.fixfiles import fix_files

    target = tmp_path / "mechanisms" / "seed.json"
    target.parent.mkdir()
    target.write_bytes(SEED.read_bytes())
    config = Config(root=tmp_path, levels={"plain/typography-consistency": None})
    fixes, _ = fix_files([str(tmp_path)], config, tmp_path, None, unsafe=True)
    assert fixes, "the seed has other fixable findings, so the run did fix something"
    assert all(fix.rule_id != "plain/typography-consistency" for outcome in fixes for fix in outcome.applied)


def test_the_reading_time_fix_writes_what_the_rule_computes_with_the_runs_options() -> None:
    """The duration comes from the rule's own computation (with the configured rate), not from its message."""
    from types import MappingProxyType

    from mechlint.fixes import a11y as a11y_fixes
    from mechlint.fixes.apply import apply_fixes
    from mechlint.rules import RuleContext
    from mechlint.rules.a11y import reading_time

    data = _clean()
    step = data["scenarios"][0]["steps"][0]  # type: ignore[index]
    step["duration"] = 100
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    document = load("x.json", raw)
    slow = RuleContext(options=MappingProxyType({"characters-per-second": 5, "minimum-seconds": 1}))
    short = next(reading_time.shortfalls(document, slow))
    assert short.pointer == "/scenarios/0/steps/0/duration" and short.least > 1000
    finding = next(iter(reading_time.check(document, slow)))._replace(message="reworded by a later version")
    fix = a11y_fixes.reading_time(document, finding, slow)
    assert fix is not None and fix.title == f"Raise the duration to {short.least} ms"
    edited = json.loads(apply_fixes(raw, [fix]))
    assert edited["scenarios"][0]["steps"][0]["duration"] == short.least
    # a step long enough with these options has no fix
    fast = RuleContext(options=MappingProxyType({"characters-per-second": 10_000, "minimum-seconds": 0.05}))
    assert a11y_fixes.reading_time(document, finding, fast) is None
