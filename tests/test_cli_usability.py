"""Issue 18, points 3 to 7, through the installed command: help and errors in the user's words, "did you mean"
wherever a name is typed, every configuration error at its own line, ``pin`` on folders, shell completion."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitrepo import commit, init, write

MECHLINT = str(Path(sys.executable).parent / "mechlint")
FIXTURE = Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json"
COMMANDS = ["check", "fix", "rules", "rule", "pin", "diff", "keygen", "attest", "verify", "server", "completion"]


def run(*arguments: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MECHLINT, *arguments], cwd=cwd, capture_output=True, text=True, timeout=120, env=env, check=False
    )


# --- point 3: help and errors speak the user's language ---------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_python_types(tmp_path: Path, command: str) -> None:
    shown = run(command, "--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    for placeholder in ("<list", "<int", "<str>", "<path>", "<Path", "[x>=", "{"):
        assert placeholder not in shown.stdout, (placeholder, shown.stdout)


def test_check_help_names_values_as_a_person_would(tmp_path: Path) -> None:
    shown = run("check", "--help", cwd=tmp_path).stdout
    assert "Usage: mechlint check [OPTIONS] [PATHS]..." in shown
    for option in ("-f, --format FORMAT", "-o, --output [FORMAT:]FILE", "--select RULES", "--ignore RULES"):
        assert option in shown
    for option in ("--fail-on LEVEL", "-j, --jobs N", "--config FILE", "--baseline FILE", "--since REV"):
        assert option in shown
    assert "[default: 0]" not in shown and "no-show-suppressed]" not in shown
    assert "Usage: mechlint rule [OPTIONS] RULE\n" in run("rule", "--help", cwd=tmp_path).stdout


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            ["--format", "sarf"],
            "mechlint: --format: unknown format 'sarf'; choose text, concise, json, github, sarif, html, gitlab, junit "
            '(did you mean "sarif"?)',
        ),
        (
            ["--fail-on=warnig"],
            "mechlint: --fail-on: unknown level 'warnig'; choose error, warning, note, never "
            '(did you mean "warning"?)',
        ),
        (["--jobs", "0"], "mechlint: --jobs takes a whole number of worker processes, 1 or more; got '0'"),
        (["-j", "x"], "mechlint: --jobs takes a whole number of worker processes, 1 or more; got 'x'"),
        (["-j", "9" * 5000], "mechlint: --jobs takes a whole number of worker processes, 1 or more; got '9999"),
        (["-o", "jsno:out.json"], 'did you mean "json"?'),
    ],
)
def test_value_errors_are_ours_on_both_paths(tmp_path: Path, arguments: list[str], expected: str) -> None:
    """The installed command takes the fast path; the typer app, run on the same arguments, says the same."""
    from mechlint.cli import fast_check

    assert fast_check.parse_check([*arguments, "."]) is not None
    one = run("check", *arguments, ".", cwd=tmp_path)
    program = "import sys; from mechlint.cli.app import main; sys.exit(main(sys.argv[1:]))"
    other = subprocess.run(
        [sys.executable, "-c", program, "check", *arguments, "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (one.returncode, one.stdout, one.stderr) == (other.returncode, other.stdout, other.stderr)
    assert one.returncode == 2
    assert expected in one.stderr
    assert "Value error" not in one.stderr and "Input should" not in one.stderr and "Traceback" not in one.stderr


def test_typer_parses_short_forms_with_the_same_message(tmp_path: Path) -> None:
    from mechlint.cli import fast_check

    assert fast_check.parse_check(["-fsarf", "."]) is None  # typer's to parse
    one, other = run("check", "-fsarf", ".", cwd=tmp_path), run("check", "-f", "sarf", ".", cwd=tmp_path)
    assert (one.returncode, one.stderr) == (other.returncode, other.stderr) == (2, other.stderr)
    assert "unknown format 'sarf'" in one.stderr


# --- point 4: did you mean, everywhere a name is typed ------------------------------------------------------------


def test_flags_suggest_rules_and_families(tmp_path: Path) -> None:
    shown = run("check", "--select", "referenc", "--ignore", "a11y/alt-txt,plian", ".", cwd=tmp_path)
    assert shown.returncode == 2
    assert "--select names 'referenc', which is neither a rule id nor a family (did you mean \"reference\"?)" in (
        shown.stderr
    )
    assert "'plian'" in shown.stderr and 'did you mean "plain"?' in shown.stderr
    assert "'a11y/alt-txt'" in shown.stderr, "every wrong name is reported, not only the first"


def test_rule_lists_a_family_and_suggests_one(tmp_path: Path) -> None:
    family = run("rule", "reference", cwd=tmp_path)
    assert family.returncode == 0, family.stderr
    assert family.stdout.startswith("reference: a family of ")
    listed = re.findall(r"^  (reference/[a-z-]+) ", family.stdout, re.M)
    assert "reference/unknown-target" in listed and "reference/state-keys" in listed
    assert all(rule.startswith("reference/") for rule in listed)
    typo = run("rule", "referenc", cwd=tmp_path)
    assert typo.returncode == 2 and "did you mean reference?" in typo.stderr


def test_configuration_names_suggest(tmp_path: Path) -> None:
    (tmp_path / "mechlint.toml").write_text(
        'fail_on = "error"\nselcet = ["reference"]\n[rules."reference/unknown-target"]\nlevle = "note"\n'
        '[rules."a11y"]\nlevel = "off"\n[[ignore]]\npath = "x"\nrule = "schema"\nreasn = "kept"\n',
        encoding="utf-8",
    )
    shown = run("check", ".", cwd=tmp_path)
    assert shown.returncode == 2
    assert 'mechlint.toml:1: fail_on: unknown key (did you mean "fail-on"?)' in shown.stderr
    assert 'mechlint.toml:2: selcet: unknown key (did you mean "select"?)' in shown.stderr
    assert 'mechlint.toml:4: rules."reference/unknown-target".levle: unknown option' in shown.stderr
    assert '(did you mean "level"?)' in shown.stderr
    assert "mechlint.toml:5: rules.\"a11y\": 'a11y' is a family; configure each of its rules: a11y/" in shown.stderr
    assert "unknown key 'reasn' (did you mean \"reason\"?)" in shown.stderr


def test_completion_shell_suggests(tmp_path: Path) -> None:
    shown = run("completion", "fsh", cwd=tmp_path)
    assert shown.returncode == 2 and 'did you mean "fish"?' in shown.stderr


# --- point 5: every configuration error at once, each at its own line ----------------------------------------------


def _ignore_table(number: int, reason: bool = True) -> str:
    return f'[[ignore]]\npath = "content/{number}/*.json"\nrule = "reference"\n' + (
        f'reason = "kept {number}"\n' if reason else ""
    )


def test_a_missing_reason_is_reported_at_its_own_table(tmp_path: Path) -> None:
    text = "".join(_ignore_table(n, reason=n != 3) for n in range(5))
    (tmp_path / "mechlint.toml").write_text(text, encoding="utf-8")
    shown = run("check", ".", cwd=tmp_path)
    assert shown.returncode == 2
    line = text.splitlines().index("[[ignore]]", 12) + 1  # the fourth table
    assert shown.stderr.splitlines() == [
        f"mechlint: {tmp_path / 'mechlint.toml'}:{line}: ignore: ignore[3].reason is required: "
        "say why this finding is kept [mechlint/invalid-config]"
    ]


def test_every_error_of_a_file_each_at_its_line(tmp_path: Path) -> None:
    lines = [
        'include = "x"',  # 1
        "max-file-size = 0",  # 2
        'fail-on = "eror"',  # 3
        'select = ["reference", "schma"]',  # 4
        '[rules."reference/unused-target"]',  # 5
        'level = "loud"',  # 6
        _ignore_table(1).rstrip("\n"),  # 7-10
        '[[ignore]]\npath = "y"\nrule = "nope/nothing"',  # 11-13: no reason, unknown rule
    ]
    (tmp_path / "mechlint.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shown = run("check", ".", cwd=tmp_path)
    assert shown.returncode == 2
    where = [re.match(r"mechlint: .*mechlint\.toml:(\d+): (\S+)", line) for line in shown.stderr.splitlines()]
    assert all(where), shown.stderr
    found = [(int(m.group(1)), m.group(2)) for m in where if m]
    assert found == [
        (1, "include:"),
        (2, "max-file-size:"),
        (3, "fail-on:"),
        (4, "select"),
        (6, 'rules."reference/unused-target".level:'),
        (11, "ignore:"),
        (11, "ignore:"),
    ], shown.stderr
    assert "'eror'" in shown.stderr and 'did you mean "error"?' in shown.stderr


def test_pyproject_lines_are_found_in_the_mechlint_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ruff]\nselect = ["E"]\nfail-on = "x"\n\n[tool.mechlint]\nselect = ["schema", "refrence"]\n'
        'fail-on = "loud"\n',
        encoding="utf-8",
    )
    shown = run("check", ".", cwd=tmp_path)
    assert shown.returncode == 2
    assert "pyproject.toml:6: tool.mechlint.select names 'refrence'" in shown.stderr
    assert "pyproject.toml:7: tool.mechlint.fail-on: expected one of" in shown.stderr


def test_errors_of_word_lists_and_invariant_files_are_all_reported(tmp_path: Path) -> None:
    (tmp_path / "mechlint.toml").write_text(
        'word-lists = ["a.toml", "b.toml"]\ninvariants = ["c.toml"]\nselcet = []\n', encoding="utf-8"
    )
    for name in ("a.toml", "b.toml", "c.toml"):
        (tmp_path / name).write_text("this is = = not toml\n", encoding="utf-8")
    shown = run("rules", cwd=tmp_path)
    assert shown.returncode == 2
    for name in ("a.toml", "b.toml", "c.toml"):
        assert f"{tmp_path / name}:1: not valid TOML" in shown.stderr, shown.stderr
    assert "selcet: unknown key" in shown.stderr
    assert "Traceback" not in shown.stderr


# --- point 6: pin walks folders as check does -----------------------------------------------------------------------


@pytest.fixture
def blog(tmp_path: Path) -> Path:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"content/post.md": "v1\n"})
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["sources"] = [{"path": "content/post.md", "description": "The post."}]
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    for where in ("content/a/mechanisms/m.json", "content/b/mechanisms/n.json", "content/skip/mechanisms/o.json"):
        write(repo, where, text)
    write(repo, "content/a/notes.json", text)  # not a mechanism file by the include patterns
    write(repo, "mechlint.toml", 'exclude = ["content/skip"]\n')
    return repo


def test_pin_walks_folders_with_checks_discovery(blog: Path) -> None:
    before = {p: p.read_text() for p in blog.rglob("*.json")}
    dry = run("pin", "--check", "content", cwd=blog)
    assert dry.returncode == 1, dry.stderr
    assert "content/a/mechanisms/m.json: " in dry.stdout and "content/b/mechanisms/n.json: " in dry.stdout
    assert "skip" not in dry.stdout and "notes.json" not in dry.stdout
    assert {p: p.read_text() for p in blog.rglob("*.json")} == before
    done = run("pin", "content", cwd=blog)
    assert done.returncode == 0, done.stderr
    assert "Pinned 2 sources in 2 files." in done.stderr
    assert '"sha256"' in (blog / "content/b/mechanisms/n.json").read_text()
    assert '"sha256"' not in (blog / "content/skip/mechanisms/o.json").read_text()
    assert '"sha256"' not in (blog / "content/a/notes.json").read_text()
    assert run("pin", "--check", ".", cwd=blog).returncode == 0
    checked = run("check", "--select", "provenance", "content", cwd=blog)
    assert "content/a/mechanisms/m.json" not in checked.stdout or "unpinned" not in checked.stdout


def test_pin_a_missing_path_is_a_usage_error(blog: Path) -> None:
    shown = run("pin", "content/nothing", cwd=blog)
    assert shown.returncode == 2
    assert shown.stderr == "mechlint: content/nothing: no such file or folder\n"


# --- point 7: shell completion ---------------------------------------------------------------------------------------


def _path_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("_MECHLINT")}
    env["PATH"] = f"{Path(MECHLINT).parent}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(tmp_path)
    return env


def test_completion_requests_go_to_typer_even_for_check(tmp_path: Path) -> None:
    """The fast path of ``check`` never answers a completion request (it would run a check instead)."""
    env = {**_path_env(tmp_path), "_MECHLINT_COMPLETE": "complete_bash", "COMP_CWORD": "3"}
    env["COMP_WORDS"] = "mechlint check --format s"
    shown = run("check", cwd=tmp_path, env=env)
    assert shown.returncode == 0 and shown.stdout.split() == ["sarif"], shown


def _bash_complete(tmp_path: Path, words: list[str]) -> list[str]:
    script = run("completion", "bash", cwd=tmp_path).stdout
    (tmp_path / "completion.bash").write_text(script, encoding="utf-8")
    quoted = " ".join(f"'{w}'" for w in words)
    program = (
        f'source "{tmp_path / "completion.bash"}"\n'
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        '_mechlint_completion mechlint\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        cwd=tmp_path,
        env=_path_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_options_and_formats(tmp_path: Path) -> None:
    assert _bash_complete(tmp_path, ["mechlint", "ch"]) == ["check"]
    assert {"completion", "check", "pin", "rules"} <= set(_bash_complete(tmp_path, ["mechlint", ""]))
    options = _bash_complete(tmp_path, ["mechlint", "check", "--"])
    assert {"--format", "--select", "--statistics", "--jobs"} <= set(options)
    assert _bash_complete(tmp_path, ["mechlint", "check", "--format", ""]) == [
        "text",
        "concise",
        "json",
        "github",
        "sarif",
        "html",
        "gitlab",
        "junit",
    ]
    assert _bash_complete(tmp_path, ["mechlint", "check", "-f", "g"]) == ["github", "gitlab"]
    assert "reference/unknown-target" in _bash_complete(tmp_path, ["mechlint", "check", "--select", "reference/u"])
    assert _bash_complete(tmp_path, ["mechlint", "check", "-o", "sa"]) == ["sarif:"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_commands_options_and_formats(tmp_path: Path) -> None:
    script = tmp_path / "mechlint.fish"
    script.write_text(run("completion", "fish", cwd=tmp_path).stdout, encoding="utf-8")

    def complete(line: str) -> list[str]:
        done = subprocess.run(
            ["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"],
            cwd=tmp_path,
            env=_path_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return [entry.split("\t")[0] for entry in done.stdout.splitlines()]

    assert "check" in complete("mechlint ch")
    assert {"--format", "--select"} <= set(complete("mechlint check --"))
    assert set(complete("mechlint check --format ")) == {
        "text",
        "concise",
        "json",
        "github",
        "sarif",
        "html",
        "gitlab",
        "junit",
    }


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completes_commands_options_and_formats(tmp_path: Path) -> None:
    """The zsh script under zsh, with ``compdef`` and ``_describe`` recording what they are given (completion
    proper needs a terminal)."""
    script = tmp_path / "_mechlint"
    script.write_text(run("completion", "zsh", cwd=tmp_path).stdout, encoding="utf-8")

    def complete(words: list[str]) -> list[str]:
        quoted = " ".join(f"'{w}'" for w in words)
        program = (
            "compdef() { :; }\n"
            '_arguments() { print -r -- "$@"; }\n'
            f"source {script}\nwords=({quoted}); CURRENT={len(words)}\n_mechlint_completion\n"
        )
        done = subprocess.run(
            ["zsh", "-f", "-c", program],
            cwd=tmp_path,
            env=_path_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("*: :((")  # _arguments's spec: the values, each "quoted" (:"help")
        return re.findall(r'(?:^|[(\s])"((?:[^"\\]|\\.)*)"', done.stdout)

    assert complete(["mechlint", "ch"]) == ["check"]
    assert "--format" in complete(["mechlint", "check", "--f"])
    assert complete(["mechlint", "check", "--format", ""]) == [
        "text",
        "concise",
        "json",
        "github",
        "sarif",
        "html",
        "gitlab",
        "junit",
    ]


def test_a_file_of_many_mistakes_reports_the_first_hundred(tmp_path: Path) -> None:
    """Hostile input: each mistake costs a suggestion and a search for its line, so their number is bounded."""
    keys = "".join(f"key{n} = 1\n" for n in range(20_000))
    tables = "".join(f'[[ignore]]\npath = "x"\nrule = "schema{n}"\n' for n in range(20_000))
    (tmp_path / "mechlint.toml").write_text(keys + tables, encoding="utf-8")
    shown = run("check", ".", cwd=tmp_path)
    assert shown.returncode == 2
    lines = shown.stderr.splitlines()
    assert len(lines) == 101, lines[-3:]
    assert lines[0].startswith(f"mechlint: {tmp_path / 'mechlint.toml'}:1: key0: unknown key")
    assert lines[99].startswith(f"mechlint: {tmp_path / 'mechlint.toml'}:100: key99: unknown key")
    assert "stopped after 100 mistakes; fix these and run again" in lines[-1]
