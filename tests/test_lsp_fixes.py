"""The language server's code actions are the fixes of ``check --fix`` (issue 28), over the real stdio protocol:
each finding's quick fix gives the bytes the command writes for it, unsafe ones are offered but not preferred,
and ``source.fixAll.mechlint`` gives exactly what ``check --fix`` writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mechlint.cli import main

from .lspclient import Client
from .test_lsp import POST, actions_at, change, client, edited, offset_of, open_file, project

__all__ = ["client", "project"]  # the fixtures of test_lsp, used here


def _with_mistakes(text: str) -> str:
    """The example with a safe mistake (an edge in active, an id) and an unsafe one (a wordy verb)."""
    text = text.replace('"id": "mechanism-b0"', '"id": "mechanism-bo"', 1)
    text = text.replace('"active": [\n            "a0",', '"active": [\n            "store0",\n            "a0",', 1)
    return text.replace('"description": "A prefills the prefix."', '"description": "A utilizes the prefix."', 1)


def _check_fix(project: Path, text: str, *flags: str) -> str:
    copy = project / "content" / "copy" / "mechanisms" / "x.json"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text(text, encoding="utf-8", newline="")
    main(["check", "--fix", *flags, "--root", str(project), "-q", str(copy)])
    return copy.read_bytes().decode("utf-8")


def test_quick_fixes_and_fix_all_are_the_fixes_of_check_fix(client: Client, project: Path) -> None:
    text = _with_mistakes((project / POST).read_bytes().decode("utf-8"))
    assert text.count("store0") > (project / POST).read_text(encoding="utf-8").count("store0")
    uri = open_file(client, project / POST, text)
    found = {d["code"]: d for d in client.diagnostics(uri)}
    assert {"reference/kind-mismatch", "reference/id-mismatch", "plain/word-choice"} <= set(found)

    def quick_fix(code: str) -> dict[str, Any]:
        offset = offset_of(text, found[code]["range"]["start"])
        actions = [a for a in actions_at(client, uri, text, offset) if a["kind"] == "quickfix"]
        assert len(actions) == 1, actions
        return actions[0]

    moved = quick_fix("reference/kind-mismatch")
    assert moved["title"] == 'Move "store0" from active to paths' and moved["isPreferred"] is True
    assert moved["diagnostics"][0]["code"] == "reference/kind-mismatch"
    after = edited(moved, uri, text)
    assert json.loads(after)["scenarios"][0]["steps"][0]["paths"][-1] == "store0"
    wordy = quick_fix("plain/word-choice")
    assert wordy["title"] == 'Use "uses" (unsafe fix)' and not wordy.get("isPreferred")
    assert '"description": "A uses the prefix."' in edited(wordy, uri, text)

    fix_all = actions_at(client, uri, text, 0, only=["source.fixAll"])
    assert [a["kind"] for a in fix_all] == ["source.fixAll.mechlint"]
    everything_safe = edited(fix_all[0], uri, text)
    assert everything_safe == _check_fix(project, text)
    assert "utilizes" in everything_safe and '"mechanism-b0"' in everything_safe
    change(client, uri, 2, everything_safe)
    left = {d["code"] for d in client.diagnostics(uri, version=2)}
    assert not left & {"reference/kind-mismatch", "reference/id-mismatch"} and "plain/word-choice" in left


def test_fix_all_in_a_crlf_buffer_gives_the_bytes_of_check_fix(client: Client, project: Path) -> None:
    text = _with_mistakes((project / POST).read_bytes().decode("utf-8")).replace("\n", "\r\n")
    uri = open_file(client, project / POST, text)
    assert "reference/kind-mismatch" in {d["code"] for d in client.diagnostics(uri)}
    fix_all = actions_at(client, uri, text, 0, only=["source.fixAll"])
    fixed = edited(fix_all[0], uri, text)
    assert fixed == _check_fix(project, text)
    assert fixed.count("\r\n") == fixed.count("\n")  # no bare line feed was written
