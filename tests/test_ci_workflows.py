"""CI and hook workflows end to end, through the installed ``mechlint`` command (issue 14).

A user invariant in SARIF and GitHub output, ``--since`` with nothing changed,
the pre-commit hook on a staged source, baselines across edits above a
finding, result fingerprints, rule help that resolves on GitHub, a missing
baseline, and the progress bar on stderr.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from .conftest import CLEAN, FIXTURES, ROOT
from .gitrepo import commit, git, init, write

MECHLINT = Path(sys.executable).parent / "mechlint"
SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
INVARIANT = """
[[invariant]]
name = "tail-after-reuse"
level = "warning"
summary = "The tail is prefilled only after the cached blocks were used again."
formula = 'active("tail") implies once(path("reuse*"))'
"""


def mechlint(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(MECHLINT), *args], cwd=cwd, env=env or _env(), capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "FORCE_COLOR")}
    return {**env, **extra}


def clean_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
    return data


def dump(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def validate_sarif(text: str) -> dict[str, Any]:
    sarif: dict[str, Any] = json.loads(text)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    return sarif


@pytest.fixture
def invariant_repo(tmp_path: Path) -> Path:
    """A repository with a user invariant that the tail step breaks (no reuse edge is ever animated)."""
    repo = init(tmp_path / "blog")
    write(repo, "inv.toml", INVARIANT)
    write(repo, "mechlint.toml", 'invariants = ["inv.toml"]\n')
    data = clean_data()
    for step in data["scenarios"][0]["steps"]:
        step["paths"] = [p for p in step["paths"] if not p.startswith("reuse")]
    write(repo, "content/post/mechanisms/m.json", dump(data))
    return repo


# -- 1. a report carries the rules that ran -----------------------------------------


def test_sarif_and_github_output_with_a_user_invariant(invariant_repo: Path) -> None:
    done = mechlint("check", "--format", "sarif", "content", cwd=invariant_repo)
    assert done.returncode == 0, done.stderr  # the invariant is a warning
    sarif = validate_sarif(done.stdout)
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert "invariant/tail-after-reuse" in ids and "invariant/reuse-after-store-and-compare" in ids
    found = [r for r in run["results"] if r["ruleId"] == "invariant/tail-after-reuse"]
    assert found and all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    descriptor = rules[found[0]["ruleIndex"]]
    assert 'active("tail")' in descriptor["help"]["markdown"]
    assert descriptor["helpUri"].startswith("https://")

    done = mechlint("check", "--format", "github", "-o", "sarif:out/m.sarif", "content", cwd=invariant_repo)
    assert done.returncode == 0, done.stderr
    assert "title=invariant/tail-after-reuse" in done.stdout
    uploaded = validate_sarif((invariant_repo / "out/m.sarif").read_text())
    assert any(r["ruleId"] == "invariant/tail-after-reuse" for r in uploaded["runs"][0]["results"])


def test_rule_and_rules_know_a_configured_invariant(invariant_repo: Path) -> None:
    done = mechlint("rule", "invariant/tail-after-reuse", cwd=invariant_repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("invariant/tail-after-reuse\n==========================\n")  # drawn, not Markdown
    assert "invariant/tail-after-reuse" in mechlint("rules", cwd=invariant_repo).stdout
    assert mechlint("rule", "invariant/no-such", cwd=invariant_repo).returncode == 2
    # a built-in rule is documented even where the configuration is broken
    write(invariant_repo, "mechlint.toml", "colour = 1\n")
    assert mechlint("rule", "reference/unknown-target", cwd=invariant_repo).returncode == 0
    assert mechlint("rule", "invariant/tail-after-reuse", cwd=invariant_repo).returncode == 2


def test_reporters_import_nothing_above_the_model() -> None:
    # mechlint.safety.terminal (escaping what is printed) and mechlint.records (the record base class) are leaves,
    # like the model: they import nothing of mechlint but each other
    leaves = {"mechlint.model", "mechlint.safety.terminal", "mechlint.records"}
    for leaf in leaves:
        tree = ast.parse((ROOT / (leaf.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        assert not [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("mechlint") and n.module not in leaves
        ], leaf
    allowed = {*leaves, "mechlint.report"}
    for path in sorted((ROOT / "mechlint" / "report").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("mechlint"):
                    assert name in allowed or name.startswith("mechlint.report."), f"{path.name} imports {name}"


# -- 2. --since with nothing changed writes every report ------------------------------


def test_since_with_no_changed_file_writes_every_report(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "start", {"content/post/mechanisms/m.json": CLEAN.read_text(encoding="utf-8")})
    done = mechlint("check", "--since", "HEAD", "--format", "json", "-o", "sarif:reports/m.sarif", "content", cwd=repo)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["results"] == [] and report["files_checked"] == 0
    sarif = validate_sarif((repo / "reports/m.sarif").read_text())
    assert sarif["runs"][0]["results"] == [] and sarif["runs"][0]["tool"]["driver"]["rules"]
    done = mechlint("check", "--since", "HEAD", "-o", "text:t.txt", "-o", "github:g.txt", "content", cwd=repo)
    assert done.returncode == 0 and "No mechanism file changed" in done.stderr
    assert "No mechanism file changed" in (repo / "t.txt").read_text()
    assert (repo / "g.txt").read_text() == ""
    # a partial run never rewrites the baseline of the whole project
    write(repo, "b.json", '{"version": 2, "tool": "mechlint", "findings": []}')
    assert mechlint("check", "--since", "HEAD", "--baseline", "b.json", "--update-baseline", cwd=repo).returncode == 2


# -- 3. the pre-commit hook sees a staged source ----------------------------------------


def _pre_commit() -> str | None:
    local = Path(sys.executable).parent / "pre-commit"
    return str(local) if local.exists() else shutil.which("pre-commit")


def _pinned_repo(folder: Path) -> Path:
    repo = init(folder)
    post = b"# The post\n\nVersion one.\n"
    data = clean_data()
    data["sources"] = [
        {"path": "content/post/post.md", "sha256": hashlib.sha256(post).hexdigest(), "description": "The post."}
    ]
    commit(
        repo,
        "start",
        {
            "content/post/post.md": post,
            "content/post/mechanisms/m.json": dump(data),
            "content/other/mechanisms/m.json": CLEAN.read_text(encoding="utf-8"),
            "content/post/notes.json": '{"not": "a mechanism"}',
        },
    )
    return repo


def test_changed_files_checks_the_mechanisms_whose_sources_are_given(tmp_path: Path) -> None:
    repo = _pinned_repo(tmp_path / "blog")
    write(repo, "content/post/post.md", "# The post\n\nVersion two.\n")
    commit(repo, "edit the post", {"content/post/post.md": "# The post\n\nVersion two.\n"})
    done = mechlint("check", "--changed-files", "--format", "json", "content/post/post.md", cwd=repo)
    report = json.loads(done.stdout)
    assert done.returncode == 1, done.stderr
    assert {r["rule"] for r in report["results"]} == {"provenance/stale-source"}
    assert {r["path"] for r in report["results"]} == {"content/post/mechanisms/m.json"}
    assert report["files_checked"] == 1
    done = mechlint("check", "--changed-files", "content/post/notes.json", "README.md", cwd=repo)
    assert done.returncode == 0 and "notes.json" not in done.stdout
    assert mechlint("check", "--changed-files", "--since", "HEAD", cwd=repo).returncode == 2


@pytest.mark.skipif(_pre_commit() is None, reason="pre-commit is not installed")
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="try-repo needs this project as a git checkout")
def test_pre_commit_reports_a_stale_source_when_only_the_source_is_staged(tmp_path: Path) -> None:
    repo = _pinned_repo(tmp_path / "blog")
    env = {**_env(), "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PRE_COMMIT_COLOR": "never"}
    write(repo, "content/post/post.md", "# The post\n\nVersion two.\n")
    write(repo, "package.json", "{")
    git(repo, "add", "content/post/post.md", "package.json")
    command = [str(_pre_commit()), "try-repo", str(ROOT), "mechlint"]
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "provenance/stale-source" in done.stdout
    assert "content/post/mechanisms/m.json" in done.stdout
    assert "package.json" not in done.stdout.split("mechlint", 1)[-1].replace("try-repo", "")
    # staging only an unrelated file passes
    git(repo, "reset", "-q", "--", "content/post/post.md")
    (repo / "content/post/post.md").write_text("# The post\n\nVersion one.\n")
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


# -- 4. baselines survive edits above a finding -------------------------------------


def _defective() -> dict[str, Any]:
    """Two findings: an unknown target in the fourth step, and a readability note on the whole document."""
    data = clean_data()
    data["scenarios"][0]["steps"][3]["active"].append("al")
    long_words = "Comprehensive instrumentation characterises heterogeneous computational infrastructure. "
    data["description"] = long_words * 40
    return data


def test_baseline_survives_insertions_above_a_finding_and_whole_document_findings(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    target = write(repo, "content/post/mechanisms/m.json", dump(_defective()))
    select = ("--select", "reference/unknown-target,plain/readability")
    done = mechlint("check", *select, "--format", "json", "content", cwd=repo)
    assert {r["rule"] for r in json.loads(done.stdout)["results"]} == {"reference/unknown-target", "plain/readability"}
    assert {r["pointer"] for r in json.loads(done.stdout)["results"]} == {"/scenarios/0/steps/3/active/2", ""}
    recorded = mechlint("check", *select, "--baseline", "b.json", "--update-baseline", "content", cwd=repo)
    assert recorded.returncode == 0, recorded.stderr

    data = _defective()
    data["limitations"].insert(0, "The sizes are an example.")
    first = dict(data["scenarios"][0]["steps"][0], title="A arrives")
    data["scenarios"][0]["steps"].insert(0, first)
    data["scenarios"].insert(0, dict(data["scenarios"][0], id="another"))
    data["scenarios"][1]["steps"][4]["description"] += " It is fast."
    target.write_text(dump(data))
    done = mechlint("check", *select, "--baseline", "b.json", "--format", "json", "content", cwd=repo)
    results = json.loads(done.stdout)["results"]
    # the copy in the new scenario "another" is new; the recorded finding and the document's note stay hidden
    assert [(r["rule"], r["pointer"]) for r in results] == [
        ("reference/unknown-target", "/scenarios/0/steps/4/active/2")
    ]
    assert done.returncode == 1

    # one more copy of a known finding in the same place is shown, once
    data = _defective()
    data["scenarios"][0]["steps"][3]["active"].insert(0, "al")
    target.write_text(dump(data))
    done = mechlint("check", *select, "--baseline", "b.json", "--format", "json", "content", cwd=repo)
    assert len(json.loads(done.stdout)["results"]) == 1
    # a copy elsewhere is shown, while the recorded one (same pointer) stays hidden
    data = _defective()
    data["scenarios"][0]["steps"][4]["active"].append("al")
    target.write_text(dump(data))
    done = mechlint("check", *select, "--baseline", "b.json", "--format", "json", "content", cwd=repo)
    assert [r["pointer"] for r in json.loads(done.stdout)["results"]] == ["/scenarios/0/steps/4/active/1"]


def test_a_version_1_baseline_is_still_read_with_a_note(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    write(repo, "content/post/mechanisms/m.json", dump(_defective()))
    value = hashlib.sha256(b'"al"').hexdigest()[:16]
    old = {
        "version": 1,
        "tool": "mechlint",
        "findings": [
            {
                "path": "content/post/mechanisms/m.json",
                "rule": "reference/unknown-target",
                "pointer": "/scenarios/0/steps/3/active/2",
                "value": value,
                "count": 1,
            }
        ],
    }
    write(repo, "old.json", json.dumps(old))
    done = mechlint("check", "--select", "reference", "--baseline", "old.json", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "--update-baseline" in done.stderr and "version 1" in done.stderr


# -- 5. every result has fingerprints of its own ------------------------------------------


def test_two_results_at_one_step_have_distinct_fingerprints_that_survive_moved_lines(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    data = clean_data()
    for step in data["scenarios"][0]["steps"]:
        step["paths"] = [p for p in step["paths"] if not p.startswith("store")]
    target = write(repo, "content/post/mechanisms/m.json", dump(data))

    def fingerprints() -> list[dict[str, str]]:
        done = mechlint("check", "--select", "invariant", "--format", "sarif", "content", cwd=repo)
        results = validate_sarif(done.stdout)["runs"][0]["results"]
        assert len(results) == 2 and results[0]["ruleId"] == results[1]["ruleId"]
        assert results[0]["locations"][0]["logicalLocations"] == results[1]["locations"][0]["logicalLocations"]
        return [r["partialFingerprints"] for r in results]

    before = fingerprints()
    assert before[0] != before[1]
    assert before[0]["mechlint/v1"] != before[1]["mechlint/v1"]
    target.write_text("\n\n\n" + dump(data))
    after = fingerprints()
    assert [f["mechlint/v1"] for f in after] == [f["mechlint/v1"] for f in before]


def test_an_unused_suppression_has_fingerprints(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    write(repo, "content/post/mechanisms/m.json", CLEAN.read_text(encoding="utf-8"))
    write(
        repo,
        "mechlint.toml",
        '[[ignore]]\npath = "content/**"\nrule = "a11y/alt-length"\nreason = "Reviewed."\n'
        '[[ignore]]\npath = "content/**"\nrule = "a11y/alt-missing"\nreason = "Reviewed."\n',
    )
    done = mechlint("check", "--format", "sarif", "content", cwd=repo)
    results = validate_sarif(done.stdout)["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["mechlint/unused-suppression"] * 2
    prints = [r["partialFingerprints"] for r in results]
    assert all("mechlint/v1" in p and "primaryLocationLineHash" in p for p in prints)
    assert prints[0]["mechlint/v1"] != prints[1]["mechlint/v1"]


# -- 6. rule help that resolves on GitHub -------------------------------------------------


def test_rule_help_links_are_absolute_with_precision_and_severity() -> None:
    done = mechlint("check", "--root", "fixtures", "fixtures/content", "--format", "sarif", cwd=ROOT)
    sarif = validate_sarif(done.stdout)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    severities = {"error": "error", "warning": "warning", "note": "recommendation"}
    for rule in rules:
        assert rule["helpUri"].startswith("https://github.com/"), rule["id"]
        family, _, name = rule["id"].partition("/")
        if family != "invariant" or name == "reuse-after-store-and-compare":
            assert rule["helpUri"].endswith(f"/docs/rules/{family}/{name}.md")
            assert (ROOT / "docs" / "rules" / family / f"{name}.md").is_file()
        links = [part.split(")")[0] for part in rule["help"]["markdown"].split("](")[1:]]
        assert all(link.startswith("https://") for link in links), (rule["id"], links)
        assert rule["properties"]["precision"] in ("very-high", "high", "medium", "low")
        assert rule["properties"]["problem.severity"] == severities[rule["defaultConfiguration"]["level"]]
    assert any("](" in rule["help"]["markdown"] for rule in rules)


# -- 7. a missing baseline is a usage error ------------------------------------------------


def test_a_missing_baseline_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    write(repo, "content/post/mechanisms/m.json", CLEAN.read_text(encoding="utf-8"))
    done = mechlint("check", "--baseline", "typo.json", "content", cwd=repo)
    assert done.returncode == 2
    assert "typo.json" in done.stderr and "--update-baseline" in done.stderr
    done = mechlint("check", "--baseline", "new.json", "--update-baseline", "content", cwd=repo)
    assert done.returncode == 0 and (repo / "new.json").is_file()


# -- 9. the progress bar draws on stderr, only when stderr is a terminal ---------------


def _many_files(tmp_path: Path) -> Path:
    repo = init(tmp_path / "blog")
    clean = CLEAN.read_text(encoding="utf-8")
    for number in range(12):
        write(repo, f"content/p{number}/mechanisms/m.json", clean)
    return repo


def _run_with_terminal(repo: Path, stderr_on_terminal: bool) -> tuple[str, bytes, bytes]:
    """stdout to a file; stderr on a pseudo-terminal, or a pipe (stdout then on the terminal)."""
    import pty

    main, secondary = pty.openpty()
    report = repo / "report.txt"
    env = _env(MECHLINT_PROGRESS_AFTER="0", TERM="xterm", COLUMNS="100")
    with report.open("wb") as out:
        if stderr_on_terminal:
            process = subprocess.Popen(
                [str(MECHLINT), "check", "-j", "1", "content"], cwd=repo, env=env, stdout=out, stderr=secondary
            )
        else:
            process = subprocess.Popen(
                [str(MECHLINT), "check", "-j", "1", "content"],
                cwd=repo,
                env=env,
                stdout=secondary,
                stderr=subprocess.PIPE,
            )
        os.close(secondary)
        screen = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            screen += chunk
        piped = process.stderr.read() if process.stderr else b""
        process.wait(timeout=120)
    os.close(main)
    return report.read_text(), screen, piped


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_progress_bar_draws_on_stderr_only_when_it_is_a_terminal(tmp_path: Path) -> None:
    repo = _many_files(tmp_path)
    report, screen, _ = _run_with_terminal(repo, stderr_on_terminal=True)
    assert "All checks passed: 12 files checked" in report
    assert "\x1b" not in report and "checking" not in report
    assert b"checking" in screen, screen
    _, screen, piped = _run_with_terminal(repo, stderr_on_terminal=False)
    assert b"checking" not in screen and b"checking" not in piped
    assert b"All checks passed" in screen


def test_the_example_content_validates() -> None:
    done = mechlint("check", "--root", "fixtures", "fixtures/content", "--format", "sarif", cwd=ROOT)
    sarif = validate_sarif(done.stdout)
    assert sarif["runs"][0]["results"]
    assert all("mechlint/v1" in r["partialFingerprints"] for r in sarif["runs"][0]["results"])
    assert FIXTURES.is_dir()


def _multitool() -> str | None:
    """The SARIF Multitool binary (``Sarif.Multitool`` of npm's ``@microsoft/sarif-multitool``), if installed."""
    return os.environ.get("SARIF_MULTITOOL") or shutil.which("Sarif.Multitool")


@pytest.mark.skipif(_multitool() is None, reason="the SARIF Multitool is not installed (set SARIF_MULTITOOL)")
def test_sarif_passes_the_multitool_github_rules(invariant_repo: Path, tmp_path: Path) -> None:
    example = mechlint("check", "--root", "fixtures", "fixtures/content", "--format", "sarif", cwd=ROOT).stdout
    with_invariant = mechlint("check", "--format", "sarif", "content", cwd=invariant_repo).stdout
    for name, text in (("example", example), ("invariant", with_invariant)):
        given, verdict = tmp_path / f"{name}.sarif", tmp_path / f"{name}-validation.sarif"
        given.write_text(text)
        command = [str(_multitool()), "validate", "--rule-kind", "Gh;Sarif", "--log", "ForceOverwrite"]
        done = subprocess.run([*command, "--output", str(verdict), str(given)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        problems = json.loads(verdict.read_text())["runs"][0]["results"]
        assert problems == [], [(p["ruleId"], p["message"]) for p in problems]


# -- hostile baselines and changed files ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"version": true, "findings": []}',
        '{"version": 3, "findings": []}',
        '{"version": 2, "findings": {}}',
        '{"version": 2, "findings": [{"path": "a", "rule": "r", "context": 1, "value": "v", "pointer": ""}]}',
        '{"version": 2, "findings": [{"path": "a", "rule": "r", "context": "", "value": "v", "pointer": "", '
        '"count": true}]}',
        '{"version": 2, "findings": [{"path": "a", "rule": "r", "context": "", "value": "v", "pointer": "", '
        '"count": 0}]}',
        '{"version": 1, "findings": [{"path": "a", "rule": "r", "value": "v"}]}',
        "[" * 100_000,
        "\udcff",
    ],
)
def test_a_malformed_baseline_is_a_config_error_naming_it(tmp_path: Path, text: str) -> None:
    from mechlint.errors import ConfigError
    from mechlint.run.adoption import load_baseline

    path = tmp_path / "b.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(ConfigError) as raised:
        load_baseline(path)
    assert raised.value.path == path
    with pytest.raises(ConfigError):
        load_baseline(tmp_path)  # a folder


def test_changed_files_ignores_paths_outside_the_project_and_gone(tmp_path: Path) -> None:
    repo = _pinned_repo(tmp_path / "blog")
    outside = write(tmp_path, "elsewhere/mechanisms/m.json", CLEAN.read_text(encoding="utf-8"))
    done = mechlint(
        "check", "--changed-files", "--format", "json", str(outside), "gone/post.md", "../x\nnewline", cwd=repo
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["files_checked"] == 0
    # a deleted source still selects the mechanism that pins it
    (repo / "content/post/post.md").unlink()
    done = mechlint("check", "--changed-files", "--format", "json", "content/post/post.md", cwd=repo)
    assert {r["path"] for r in json.loads(done.stdout)["results"]} == {"content/post/mechanisms/m.json"}
