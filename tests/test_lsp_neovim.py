"""A real editor as the client: Neovim's built-in LSP client, set up with the README's snippet, on the example."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mechlint.cli import main

from .conftest import FIXTURES, ROOT

POST = "content/blog/2026-06-11_life-of-a-request-vllm/mechanisms/prefix-cache.json"
NVIM = shutil.which("nvim")


def readme_snippet(language: str, heading: str) -> str:
    """The first ``language`` code block under ``heading`` in the README: what a user copies."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    found = re.search(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert found is not None, f"no {language} block under {heading}"
    return found.group(1)


def _version() -> tuple[int, ...]:
    assert NVIM is not None
    first = subprocess.run([NVIM, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0]
    found = re.search(r"v(\d+)\.(\d+)", first)
    return tuple(int(part) for part in found.groups()) if found else (0, 0)


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim); the Neovim test is skipped")
def test_neovim_shows_diagnostics_clears_them_and_applies_a_quick_fix(tmp_path: Path) -> None:
    if _version() < (0, 7):
        pytest.skip("Neovim 0.7 or later is needed; the Neovim test is skipped")
    shutil.copytree(FIXTURES / "content", tmp_path / "content")
    shutil.copytree(FIXTURES / "research", tmp_path / "research")
    (tmp_path / ".git").mkdir()  # the project root, as a repository's would be
    snippet = tmp_path / "mechlint.lua"
    snippet.write_text(readme_snippet("lua", "### Neovim"), encoding="utf-8")
    out = tmp_path / "result.json"
    env = {
        **os.environ,
        "MECHLINT_OUT": str(out),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    assert shutil.which("mechlint", path=env["PATH"])
    before = (tmp_path / POST).read_bytes()
    command = [NVIM, "--headless", "--clean", "--cmd", f"luafile {snippet}", POST]
    command += ["-c", f"luafile {Path(__file__).parent / 'nvim' / 'driver.lua'}"]
    subprocess.run(command, cwd=tmp_path, env=env, timeout=180, stdin=subprocess.DEVNULL, capture_output=True)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result.get("error") is None, result
    on_open = {d["code"] for d in result["on_open"]}
    assert {"plain/typography-consistency", "a11y/reading-time"} <= on_open
    assert all(d["source"] == "mechlint" for d in result["on_open"])
    assert "a11y/reading-time" not in {d["code"] for d in result["after_edit"]}
    assert result["modified"] and (tmp_path / POST).read_bytes() == before  # never saved
    assert "B's" in result["line_before"] and "B’s" in result["line_after"]
    assert len([d for d in result["after_fix"] if d["code"] == "plain/typography-consistency"]) == 1
    # The editor's buffer now holds what mechlint fix gives for this one string.
    expected = tmp_path / "content" / "x" / "mechanisms" / "x.json"
    expected.parent.mkdir(parents=True)
    expected.write_text(result["text"], encoding="utf-8")
    assert main(["fix", "--diff", "--root", str(tmp_path), str(expected)]) == 1  # the other string is still there
    # source.fixAll.mechlint, applied by the editor, gives the bytes check --fix writes.
    assert main(["check", "--fix", "-qq", "--root", str(tmp_path), str(expected)]) in (0, 1)
    assert result["text_fixed_all"] == expected.read_text(encoding="utf-8") != result["text"]
