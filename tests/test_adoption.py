"""Adoption: suppressions, baselines, several outputs, --since, pre-commit hooks and GitHub output."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from mechlint.cli import main
from mechlint.model import FileReport, Level, Region, Result
from mechlint.run.adoption import Baseline, apply_baseline, baseline_key

from .conftest import CLEAN, ROOT
from .gitrepo import commit, git, init, write

SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())


def defect(text: str) -> str:
    """The clean mechanism with one unknown target in its first step."""
    return text.replace('"a0",\n            "a1"', '"a0",\n            "a1",\n            "al"', 1)


@pytest.fixture
def blog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = init(tmp_path / "blog")
    clean = CLEAN.read_text(encoding="utf-8")
    write(repo, "content/one/mechanisms/m.json", defect(clean))
    write(repo, "content/two/mechanisms/m.json", clean)
    write(repo, "content/two/illustrations/source-notes.json", '{"not": "a mechanism"}')
    monkeypatch.chdir(repo)
    return repo


# -- suppressions ----------------------------------------------------------------


def _pyproject(repo: Path, body: str) -> None:
    write(repo, "pyproject.toml", "[project]\nname = 'blog'\n\n" + body)


def test_a_suppression_with_a_reason_hides_the_finding(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "content"]) == 1
    _pyproject(
        blog,
        '[[tool.mechlint.ignore]]\npath = "content/one/**"\nrule = "reference"\n'
        'pointer = "/scenarios/0/steps/0"\nreason = "kept until the diagram is redrawn"\n',
    )
    capsys.readouterr()
    assert main(["check", "content"]) == 0
    out = capsys.readouterr().out
    assert "unknown-target" not in out and "1 suppressed" in out
    assert main(["check", "--show-suppressed", "content"]) == 0
    assert "(suppressed: kept until the diagram is redrawn)" in " ".join(capsys.readouterr().out.split())
    assert main(["check", "--show-suppressed", "-f", "sarif", "content"]) == 0
    sarif = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    [result] = sarif["runs"][0]["results"]
    assert result["suppressions"] == [{"kind": "external", "justification": "kept until the diagram is redrawn"}]


@pytest.mark.parametrize(
    ("rule", "pointer", "hidden"),
    [
        ("reference/unknown-target", None, True),
        ("reference", None, True),
        ("reference/kind-mismatch", None, False),
        ("reference", "/scenarios/0/steps/0/active/2", True),
        ("reference", "/scenarios/0/steps/1", False),
    ],
)
def test_suppression_matching(blog: Path, rule: str, pointer: str | None, hidden: bool) -> None:
    extra = f'pointer = "{pointer}"\n' if pointer else ""
    _pyproject(blog, f'[[tool.mechlint.ignore]]\npath = "content/one/**"\nrule = "{rule}"\n{extra}reason = "r"\n')
    assert main(["check", "--select", "reference", "content/one"]) == (0 if hidden else 1)


def test_an_unused_suppression_is_reported_at_its_line(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _pyproject(blog, '[[tool.mechlint.ignore]]\npath = "content/two/**"\nrule = "reference"\nreason = "old"\n')
    main(["check", "content"])
    out = capsys.readouterr().out
    assert re.search(r"pyproject\.toml:4:1\nwarning mechlint/unused-suppression: ", out), out
    main(["check", "content/one"])
    assert "unused-suppression" not in capsys.readouterr().out, "a run that did not check the file cannot judge it"


@pytest.mark.parametrize(
    "entry",
    [
        'path = "x"\nrule = "reference"\n',
        'path = "x"\nrule = "reference"\nreason = "  "\n',
        'path = "x"\nrule = "nope"\nreason = "r"\n',
        'path = "x"\nrule = "reference"\nreason = "r"\npointer = "steps"\n',
        'path = "x"\nrule = "reference"\nreason = "r"\ncolour = "red"\n',
    ],
)
def test_a_bad_suppression_is_a_config_error(blog: Path, entry: str, capsys: pytest.CaptureFixture[str]) -> None:
    _pyproject(blog, "[[tool.mechlint.ignore]]\n" + entry)
    assert main(["check", "content"]) == 2
    assert "mechlint/invalid-config" in capsys.readouterr().err


# -- baselines -------------------------------------------------------------------


def test_baseline_hides_known_findings_survives_moved_lines_and_not_new_ones(
    blog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "content", "--baseline", "mechlint-baseline.json", "--update-baseline"]) == 0
    recorded = json.loads((blog / "mechlint-baseline.json").read_text())
    assert [e["rule"] for e in recorded["findings"]] == ["reference/unknown-target"]
    assert main(["check", "content", "--baseline", "mechlint-baseline.json"]) == 0
    target = blog / "content/one/mechanisms/m.json"
    target.write_text("\n\n" + target.read_text().replace('"version": 1,', '"version": 1,\n  "x-note": "moved",'))
    assert main(["check", "content", "--baseline", "mechlint-baseline.json"]) == 0
    write(blog, "content/three/mechanisms/m.json", defect(CLEAN.read_text()))
    capsys.readouterr()
    assert main(["check", "content", "--baseline", "mechlint-baseline.json"]) == 1
    assert "content/three" in capsys.readouterr().out
    again = (blog / "mechlint-baseline.json").read_text()
    assert main(["check", "content", "--baseline", "mechlint-baseline.json", "--update-baseline"]) == 0
    assert (blog / "mechlint-baseline.json").read_text() != again
    text = (blog / "mechlint-baseline.json").read_text()
    assert text == json.dumps(json.loads(text), indent=1, ensure_ascii=False) + "\n", "stable, sorted JSON"


def test_a_second_copy_of_a_known_finding_is_not_hidden() -> None:
    def result(line: int) -> Result:
        return Result("a.json", "r/x", Level.ERROR, "m", "/p", Region(line, 1, line, 2), value_hash="h")

    one = FileReport("a.json", "a.json", (result(1),))
    two = FileReport("a.json", "a.json", (result(1), result(9)))
    known = Baseline()
    known.add(baseline_key("a.json", result(1)), "/p")
    assert [r.suppressed is None for r in apply_baseline([one], known, "b")[0].results] == [False]
    assert [r.suppressed is None for r in apply_baseline([two], known, "b")[0].results] == [False, True]


def test_a_broken_baseline_is_a_usage_error(blog: Path) -> None:
    write(blog, "b.json", "{not json")
    assert main(["check", "content", "--baseline", "b.json"]) == 2
    assert main(["check", "content", "--update-baseline"]) == 2


# -- several outputs -------------------------------------------------------------


def test_text_and_sarif_from_one_run(blog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "content", "-f", "text", "-o", "sarif:out/mechlint.sarif", "-o", "json:out.json"]) == 1
    assert "reference/unknown-target" in capsys.readouterr().out
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(json.loads((blog / "out/mechlint.sarif").read_text()))
    assert json.loads((blog / "out.json").read_text())["summary"]["error"] == 1
    assert main(["check", "content", "-o", "plain.txt", "-o", "other.txt"]) == 2


# -- --since ---------------------------------------------------------------------


def test_since_checks_changed_mechanisms_and_those_whose_sources_changed(
    blog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((blog / "content/two/mechanisms/m.json").read_text())
    data["sources"] = [{"path": "content/two/post.md", "sha256": "0" * 64, "description": "The post."}]
    write(blog, "content/two/mechanisms/m.json", json.dumps(data, indent=2, ensure_ascii=False))
    write(blog, "content/two/post.md", "v1\n")
    base = commit(
        blog,
        "start",
        {
            p: (blog / p).read_bytes()
            for p in ("content/one/mechanisms/m.json", "content/two/mechanisms/m.json", "content/two/post.md")
        },
    )
    assert main(["check", "--since", base, "content"]) == 0
    assert "No mechanism file changed" in capsys.readouterr().err
    write(blog, "content/two/post.md", "v2\n")
    main(["check", "--since", "HEAD", "--select", "reference", "content"])
    out = capsys.readouterr().out
    assert "1 file checked" in out or "of 1 file" in out
    write(blog, "content/one/mechanisms/m.json", (blog / "content/one/mechanisms/m.json").read_text() + " ")
    assert main(["check", "--since", "HEAD", "--select", "reference", "content"]) == 1
    assert "of 2 files" in capsys.readouterr().out
    assert main(["check", "--since", "no-such-rev", "content"]) == 2
    assert main(["check", "--since", "--output=x", "content"]) == 2


# -- pre-commit --------------------------------------------------------------------


def _hooks() -> list[dict[str, object]]:
    import yaml

    hooks: list[dict[str, object]] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    return hooks


def _tree(folder: Path, broken: bool) -> Path:
    clean = CLEAN.read_text(encoding="utf-8")
    write(folder, "content/post/mechanisms/prefix-cache.json", defect(clean) if broken else clean)
    write(folder, "content/post/illustrations/source-notes.json", '{"illustrations": {}}')
    write(folder, "content/post/figure.mechanism.json", clean)
    write(folder, "package.json", "{")
    return folder


@pytest.mark.parametrize("broken", [False, True])
@pytest.mark.parametrize("hook", _hooks(), ids=lambda hook: str(hook["id"]))
def test_every_hook_entry_on_passing_and_failing_trees(hook: dict[str, object], broken: bool, tmp_path: Path) -> None:
    tree = _tree(tmp_path / "tree", broken)
    files = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    selected = [f for f in files if re.search(str(hook.get("files", "")), f)]
    entry = str(hook["entry"]).split()
    command = [sys.executable, "-m", "mechlint", *entry[1:]] if entry[0] == "mechlint" else entry
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    arguments = [*command, *hook.get("args", []), *selected]  # type: ignore[misc]
    done = subprocess.run(arguments, cwd=tree, env=env, capture_output=True, text=True)
    assert done.returncode == (1 if broken else 0), done.stdout + done.stderr
    assert ("reference/unknown-target" in done.stdout) is broken
    assert "Traceback" not in done.stderr
    assert "source-notes.json" not in done.stdout and "package.json" not in done.stdout, "other JSON is never reported"


@pytest.mark.skipif(
    shutil.which("pre-commit") is None and not (Path(sys.executable).parent / "pre-commit").exists(),
    reason="pre-commit is not installed",
)
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="try-repo needs this project as a git checkout")
def test_real_pre_commit_try_repo(tmp_path: Path) -> None:
    executable = (
        str(Path(sys.executable).parent / "pre-commit")
        if (Path(sys.executable).parent / "pre-commit").exists()
        else "pre-commit"
    )
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PRE_COMMIT_COLOR": "never"}
    for broken in (False, True):
        tree = init(tmp_path / f"tree-{broken}")
        _tree(tree, broken)
        git(tree, "add", "-A")
        done = subprocess.run(
            [executable, "try-repo", str(ROOT), "mechlint", "--all-files"],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == (1 if broken else 0), done.stdout + done.stderr
        assert ("reference/unknown-target" in done.stdout) is broken


# -- GitHub ------------------------------------------------------------------------


def _action() -> dict[str, object]:
    import yaml

    action: dict[str, object] = yaml.safe_load((ROOT / "action.yml").read_text())
    return action


def test_action_uploads_sarif_with_category_mechlint() -> None:
    action = _action()
    runs = action["runs"]
    assert isinstance(runs, dict) and runs["using"] == "composite"
    upload = next(step for step in runs["steps"] if "upload-sarif" in str(step.get("uses", "")))
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["category"] == "mechlint"
    for step in runs["steps"]:
        assert "${{ inputs." not in str(step.get("run", "")), "inputs go through the environment, not the script"


@pytest.mark.parametrize("broken", [False, True])
def test_action_check_step_runs_and_writes_sarif(tmp_path: Path, broken: bool) -> None:
    step = next(s for s in _action()["runs"]["steps"] if s.get("id") == "check")  # type: ignore[index]
    tree = _tree(tmp_path / "tree", broken)
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "mechlint").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mechlint "$@"\n')
    (shim / "mechlint").chmod(0o755)
    output = tmp_path / "github-output"
    env = {
        **os.environ,
        "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "GITHUB_OUTPUT": str(output),
        "MECHLINT_PATHS": "content",
        "MECHLINT_ARGS": "--fail-on error",
        "MECHLINT_FORMAT": "github",
        "MECHLINT_SARIF": "reports/mechlint.sarif",
    }
    done = subprocess.run(["bash", "-c", step["run"]], cwd=tree, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert output.read_text().strip() == f"exit-code={1 if broken else 0}"
    sarif = json.loads((tree / "reports/mechlint.sarif").read_text())
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    assert bool(sarif["runs"][0]["results"]) is broken
    if broken:
        assert "::error file=content/post/mechanisms/prefix-cache.json,line=" in done.stdout


def test_readme_workflow_uses_the_action_with_full_history() -> None:
    import yaml

    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    workflow = next(yaml.safe_load(b) for b in blocks if "jobs:" in b)
    steps = workflow["jobs"]["mechlint"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    assert steps[1]["uses"].startswith("mechlint/mechlint@")
    assert set(steps[1]["with"]) <= set(_action()["inputs"])  # type: ignore[arg-type]
    assert workflow["permissions"]["security-events"] == "write"
