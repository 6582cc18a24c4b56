"""Every README example that shows a mechlint command shows what that command prints (issue 31, point 7).

Each ```` ```console ```` or ```` ```text ```` block of README.md with a line
``$ mechlint …`` is run: its ``$`` lines are commands, the lines under each
one are the output (standard error and standard output, as a terminal shows
them). ``$ cd DIR`` changes the folder for the rest of the block. The commands
run in a temporary copy of the repository's ``fixtures/`` (committed in a
fresh git repository, as in a clone), with ``COLUMNS=80`` and no colour.

The output must be equal, line for line, except where the README shows an
elision, ``…``: a line that is only ``…`` stands for one or more lines, and
``…`` inside a line for any text on that line (an output's own ``…``, an
excerpt cut to the width, is matched by it too).

``python -m tests.test_readme_examples --write`` rewrites each block's output
from what the commands print now (read the diff before committing it).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mechlint.catalog.registry import all_rules

from .conftest import ROOT
from .gitrepo import commit, init

README = ROOT / "README.md"
MECHLINT = Path(sys.executable).parent / "mechlint"
BLOCK = re.compile(r"^```(?:console|text)\n(.*?)^```$", re.M | re.S)
ELLIPSIS = "…"

#: One command of an example: the command line, and the lines the README shows under it.
Step = tuple[str, list[str]]


def examples(text: str) -> list[list[Step]]:
    """The blocks that show a mechlint command, each as its steps."""
    found = []
    for match in BLOCK.finditer(text):
        lines = match.group(1).splitlines()
        if not any(line.startswith("$ mechlint ") or line == "$ mechlint" for line in lines):
            continue
        steps: list[Step] = []
        for line in lines:
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                assert steps, f"output before any command in the README block {lines[0]!r}"
                steps[-1][1].append(line)
        found.append(steps)
    return found


def workspace(folder: Path) -> Path:
    """A copy of fixtures/ in a fresh git repository, committed: what a clone of mechlint holds."""
    shutil.copytree(ROOT / "fixtures", folder / "fixtures")
    init(folder)
    subprocess.run(["git", "add", "-A"], cwd=folder, check=True, capture_output=True)
    commit(folder, "the fixtures")
    return folder


def run(steps: list[Step], folder: Path) -> list[list[str]]:
    """What each command prints (standard error, then standard output), run from ``folder``."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "MECHLINT_PROGRESS_AFTER")}
    env.update(COLUMNS="80", NO_COLOR="1")
    here, outputs = folder, []
    for command, _ in steps:
        words = shlex.split(command, comments=True)
        if words[0] == "cd":
            here = here / words[1]
            outputs.append([])
            continue
        assert words[0] == "mechlint", f"the README runs only mechlint here: {command!r}"
        done = subprocess.run(
            [str(MECHLINT), *words[1:]], cwd=here, env=env, capture_output=True, text=True, timeout=120
        )
        outputs.append((done.stderr + done.stdout).splitlines())
    return outputs


def pattern(shown: list[str]) -> re.Pattern[str]:
    """The README's lines as a pattern: ``…`` alone, one or more lines; ``…`` in a line, any text on that line."""
    parts = []
    for line in shown:
        if line == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)+?")
        else:
            parts.append("[^\n]*?".join(re.escape(piece) for piece in line.split(ELLIPSIS)) + r"\n")
    return re.compile("".join(parts))


def matches(shown: list[str], printed: list[str]) -> bool:
    text = "".join(line + "\n" for line in printed)
    return pattern(shown).fullmatch(text) is not None


EXAMPLES = examples(README.read_text(encoding="utf-8"))


def test_the_readme_has_examples_to_run() -> None:
    commands = [command for steps in EXAMPLES for command, _ in steps]
    assert len(EXAMPLES) >= 6
    assert any(command.startswith("mechlint check ") for command in commands)
    assert any(command.startswith("mechlint rule ") for command in commands)


@pytest.fixture(scope="module")
def fixtures_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workspace(tmp_path_factory.mktemp("readme"))


@pytest.mark.parametrize("steps", EXAMPLES, ids=[steps[-1][0][:60] for steps in EXAMPLES])
def test_a_readme_example_prints_what_it_shows(steps: list[Step], fixtures_copy: Path) -> None:
    printed = run(steps, fixtures_copy)
    for (command, shown), lines in zip(steps, printed, strict=True):
        assert matches(shown, lines), (
            f"$ {command}\nthe README shows:\n" + "\n".join(shown) + ("\nmechlint prints:\n" + "\n".join(lines))
        )


def test_the_elision_marker_is_the_only_freedom() -> None:
    assert matches(["a…c", "…", "end"], ["abbc", "x", "y", "end"])
    assert not matches(["a…c", "…", "end"], ["abbc", "end"])  # "…" alone is at least one line
    assert not matches(["abc"], ["abc", "more"])
    assert not matches(["a…c"], ["ab", "c"])  # "…" in a line never spans lines


def test_the_family_table_counts_the_rules_of_each_family() -> None:
    """The "What it checks" table says how many rules each family has: as many as ``mechlint rules`` lists."""
    text = README.read_text(encoding="utf-8")
    counted = dict(re.findall(r"^\| `([a-z0-9]+)` \|.*\| \[(\d+) rules\]\(", text, re.M))
    families: dict[str, int] = {}
    for rule in all_rules():
        families[rule.meta.family] = families.get(rule.meta.family, 0) + 1
    assert counted == {family: str(count) for family, count in families.items() if family != "invariant"}


def _write() -> None:
    """Rewrite the output of every README example from what its commands print now (keeping each ``…`` line's
    place only where it still matches)."""
    text = README.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as temporary:
        folder = workspace(Path(temporary))

        def replace(match: re.Match[str]) -> str:
            steps = examples(match.group(0))
            if not steps:
                return match.group(0)
            lines = []
            for (command, shown), printed in zip(steps[0], run(steps[0], folder), strict=True):
                lines.append(f"$ {command}")
                lines.extend(shown if matches(shown, printed) else printed)
            fence = match.group(0).split("\n", 1)[0]
            return fence + "\n" + "\n".join(lines) + "\n```"

        README.write_text(BLOCK.sub(replace, text), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_readme_examples --write")
    _write()


def test_the_readme_says_what_the_plain_test_command_skips_how_to_run_everything_and_how_long() -> None:
    """Issue 31, point 8: the set-up commands' paragraph names every tool `.ci/run` fetches (the plain command
    skips their tests), says to run `bash .ci/run` for everything, and how long each command takes."""
    text = README.read_text(encoding="utf-8")
    setup = re.search(r"\A# mechlint\n\n```sh\n(.*?)```\n(.*?)\nmechlint checks the", text, re.S)
    assert setup is not None
    commands, words = setup.group(1).splitlines(), " ".join(setup.group(2).split())
    assert len(commands) == 2 and commands[1].endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    fetched = re.findall(r"ci: could not (?:install|fetch) (?:the )?([^;$]+);", ci)
    fetched += re.findall(r"^for \w+ in ([\w ]+); do$", ci, re.M)[0].split()  # the shells, installed in a loop
    assert len(fetched) >= 5
    assert [tool for tool in fetched if tool.lower() not in words.lower()] == []
    assert "`bash .ci/run`" in words
    assert re.search(r"first command.*about \w+ seconds", words) and re.search(r"second.*about \w+ minutes", words)
