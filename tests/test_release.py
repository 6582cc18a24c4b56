"""The adoption path and the release step can be followed as written (issue 31, point 1).

No release is on a package index yet: the README installs from the repository
and pins a commit that exists; the version is kept in one place and the
package, ``mechlint --version``, the installed metadata and the changelog agree;
the release checklist (docs/release.md) is run up to the upload by
``scripts/release_check.sh``, which ``.ci/run`` runs.
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

from mechlint import __version__

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
CHANGELOG = ROOT / "CHANGELOG.md"
COMMIT = re.compile(r"[0-9a-f]{40}")


def test_one_version_everywhere() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert importlib.metadata.version("mechlint") == __version__
    done = subprocess.run([sys.executable, "-m", "mechlint", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout == f"mechlint {__version__}\n"


def test_the_changelog_keeps_a_changelog() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](.*)$", text, re.M)
    assert headings[0] == ("Unreleased", "")
    assert headings[1][0] == __version__  # the version the package says is the newest one written
    for section in re.split(r"^## ", text, flags=re.M)[2:]:
        kinds = re.findall(r"^### (.+)$", section, re.M)
        assert kinds and set(kinds) <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert "--format concise" in text  # the changed text layout says what scripts should do


def test_the_readme_installs_from_the_repository_and_pins_commits() -> None:
    assert "pip install mechlint" not in README
    assert "@v0." not in README and "rev: v" not in README
    installs = re.findall(r'pip install "git\+https://github\.com/mechlint/mechlint@([^"]+)"', README)
    revs = re.findall(r"^\s+rev: (\S+)", README, re.M)
    uses = re.findall(r"uses: mechlint/mechlint@(\S+)", README)
    pins = installs + revs + uses
    assert installs and revs and uses
    assert all(COMMIT.fullmatch(pin) for pin in pins), pins
    assert len(set(pins)) == 1, "every example pins the same commit"


def test_the_pinned_commit_holds_the_hook_and_the_action() -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist)")
    shallow = subprocess.run([git, "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True)
    if shallow.stdout.strip() == "true":
        pytest.skip("a shallow clone may lack the pinned commit")
    (commit,) = set(re.findall(r"uses: mechlint/mechlint@(\S+)", README))
    for path in (".pre-commit-hooks.yaml", "action.yml"):
        done = subprocess.run([git, "cat-file", "-e", f"{commit}:{path}"], cwd=ROOT, capture_output=True)
        assert done.returncode == 0, f"the pinned commit {commit} has no {path}"
    ancestor = subprocess.run([git, "merge-base", "--is-ancestor", commit, "HEAD"], cwd=ROOT, capture_output=True)
    assert ancestor.returncode == 0, "the pinned commit is in this branch's history"


def test_the_release_checklist_is_run_up_to_the_upload() -> None:
    checklist = (ROOT / "docs" / "release.md").read_text(encoding="utf-8")
    for step in ("python -m build --sdist --wheel", "twine check --strict", "python3 -m venv", "git tag -a v"):
        assert step in checklist
    script = (ROOT / "scripts" / "release_check.sh").read_text(encoding="utf-8")
    assert "-m build --sdist --wheel" in script and 'twine" check --strict' in script
    assert '"$work/fresh/bin/mechlint" check --root fixtures fixtures/content' in script
    assert "fixtures/content" in README.split("\n", 4)[3]  # the README's first command is the one it runs
    assert not re.search(r'twine"? upload ', script)  # never uploads: the last step is the maintainers'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^bash scripts/release_check\.sh$", ci, re.M)
    assert ci.index("scripts/release_check.sh") < ci.rindex("-m pytest")  # pytest's closing line stays last
