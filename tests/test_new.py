"""``mechlint new PATH`` and ``schema/placeholder``: a first file that says what is left to write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint.authoring.new import render, template
from mechlint.config import Config
from mechlint.document.jsonscan import pointer_join
from mechlint.document.placeholder import is_placeholder
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN
from .gitrepo import commit, init

CONSOLE_SCRIPT = Path(sys.executable).with_name("mechlint")

#: What an author writes in place of each placeholder of the template, by pointer.
FILLED = {
    "/title": "Two boxes and one arrow",
    "/description": "The first box sends its result to the second box.",
    "/caption": "The order of the steps is an example. It is not a measured time.",
    "/alt": "The first box lights up, then the arrow carries its result to the second box.",
    "/sources/0/description": "The article that explains the two boxes.",
    "/limitations/0": "The playback speed is not the real speed.",
    "/targets/first/label": "First box",
    "/targets/second/label": "Second box",
    "/targets/link/label": "Result",
    "/stateLabels/stage": "Stage",
    "/scenarios/0/title": "The result moves",
    "/scenarios/0/description": "The result moves from the first box to the second box.",
    "/scenarios/0/initial/stage": "Nothing has started",
    "/scenarios/0/steps/0/title": "The first box works",
    "/scenarios/0/steps/0/description": "The first box makes its result.",
    "/scenarios/0/steps/0/state/stage": "The first box works",
    "/scenarios/0/steps/1/title": "The result moves on",
    "/scenarios/0/steps/1/description": "The arrow carries the result to the second box.",
    "/scenarios/0/steps/1/state/stage": "The second box has the result",
}


def mechlint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CI")}
    done = subprocess.run(
        [str(CONSOLE_SCRIPT), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def results(done: subprocess.CompletedProcess[str]) -> list[tuple[str, str]]:
    return [(r["rule"], r["pointer"]) for r in json.loads(done.stdout)["results"]]


def strings(value: Any, pointer: str = "") -> dict[str, str]:
    if isinstance(value, str):
        return {pointer: value}
    children = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else []
    return {p: s for key, item in children for p, s in strings(item, pointer_join(pointer, key)).items()}


def set_at(document: Any, pointer: str, value: str) -> None:
    tokens = pointer.split("/")[1:]
    for token in tokens[:-1]:
        document = document[int(token)] if isinstance(document, list) else document[token]
    document[int(tokens[-1]) if isinstance(document, list) else tokens[-1]] = value


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = init(tmp_path / "repo")
    commit(folder, "post", {"content/post.md": "# Two boxes\n"})
    return folder


def test_the_new_file_fails_only_on_its_placeholders(repo: Path) -> None:
    done = mechlint("new", "content/mechanisms/flow.json", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    data = json.loads((repo / "content/mechanisms/flow.json").read_text(encoding="utf-8"))
    placeholders = sorted(p for p, text in strings(data).items() if text.startswith("TODO"))
    assert f"its {len(placeholders)} placeholders" in done.stderr
    check = mechlint("check", "--format", "json", "--fail-on", "note", "content", cwd=repo)
    assert check.returncode == 1
    assert sorted(results(check)) == [("schema/placeholder", p) for p in placeholders]
    messages = {r["pointer"]: r["message"] for r in json.loads(check.stdout)["results"]}
    assert "write the description: what the mechanism shows" in messages["/description"]
    assert "write the path: the POSIX path of the file" in messages["/sources/0/path"]
    assert 'write the value of the state "stage": the state panel' in messages["/scenarios/0/steps/0/state/stage"]
    assert 'write the first value of the state "stage"' in messages["/scenarios/0/initial/stage"]
    assert 'write the label of the state "stage"' in messages["/stateLabels/stage"]
    assert "write the limitation: what the reader" in messages["/limitations/0"]


def test_a_filled_in_file_passes_every_rule(repo: Path) -> None:
    assert mechlint("new", "content/mechanisms/flow.json", cwd=repo).returncode == 0
    path = repo / "content/mechanisms/flow.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for pointer, text in FILLED.items():
        assert is_placeholder(strings(data)[pointer])
        set_at(data, pointer, text)
    set_at(data, "/sources/0/path", "content/post.md")
    assert not any(is_placeholder(text) for text in strings(data).values())
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    check = mechlint("check", "--format", "json", "--fail-on", "note", "content", cwd=repo)
    assert results(check) == [("provenance/unpinned-source", "/sources/0")]
    assert mechlint("pin", str(path), cwd=repo).returncode == 0
    check = mechlint("check", "--format", "json", "--fail-on", "note", "content", cwd=repo)
    assert check.returncode == 0 and results(check) == [], check.stdout


@pytest.mark.parametrize("kind", ["file", "folder", "dangling-link", "link-to-file"])
def test_an_existing_path_is_never_overwritten(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "mechanisms" / "flow.json"
    target.parent.mkdir()
    outside = tmp_path / "outside.json"
    if kind == "file":
        target.write_text("mine", encoding="utf-8")
    elif kind == "folder":
        target.mkdir()
    elif kind == "dangling-link":
        target.symlink_to(outside)
    else:
        outside.write_text("mine", encoding="utf-8")
        target.symlink_to(outside)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    done = mechlint("new", "mechanisms/flow.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "already exists" in done.stderr
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before
    if kind in ("file", "link-to-file"):
        assert (tmp_path / ("mechanisms/flow.json" if kind == "file" else "outside.json")).read_text() == "mine"


def test_nothing_but_the_path_and_its_folders_is_written(tmp_path: Path) -> None:
    done = mechlint("new", "a/b/mechanisms/flow.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert written == ["a", "a/b", "a/b/mechanisms", "a/b/mechanisms/flow.json"]
    assert "Created the folder a/b/mechanisms." in done.stderr


@pytest.mark.parametrize(
    ("path", "config", "warned"),
    [
        ("content/mechanisms/flow.json", "", False),
        ("content/flow.mechanism.json", "", False),
        ("content/flow.json", "", True),
        ("content/mechanisms/flow.json", 'exclude = ["content/**"]\n', True),
        ("content/flow.diagram.json", 'include = ["**/*.diagram.json"]\n', False),
    ],
)
def test_a_path_that_check_would_skip_is_warned_about(repo: Path, path: str, config: str, warned: bool) -> None:
    (repo / "mechlint.toml").write_text(config, encoding="utf-8")
    done = mechlint("new", path, cwd=repo)
    assert done.returncode == 0
    assert (repo / path).is_file()
    assert ("will skip it" in done.stderr) is warned


def test_title_language_and_schema_options(tmp_path: Path) -> None:
    title = 'A "quoted" title\twith a tab \\ and \u2028'
    done = mechlint(
        "new", "m/mechanisms/x.json", "--title", title, "--language", "de-CH", "--schema", "../s.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "m/mechanisms/x.json").read_text(encoding="utf-8"))
    assert (data["title"], data["language"], data["$schema"]) == (title, "de-CH", "../s.json")
    assert list(data)[:2] == ["$schema", "version"]
    done = mechlint("new", "m/mechanisms/y.json", "--schema", "", cwd=tmp_path)
    assert "$schema" not in json.loads((tmp_path / "m/mechanisms/y.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "args", [["--language", "en_US"], ["--language", ""], ["--schema", "has space.json"], ["--title", " "]]
)
def test_a_wrong_value_writes_nothing(tmp_path: Path, args: list[str]) -> None:
    done = mechlint("new", "mechanisms/x.json", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert "not written" in done.stderr
    assert not (tmp_path / "mechanisms").exists()


def test_the_template_is_valid_with_any_schema_value() -> None:
    for schema_ref in (None, "", "./mechanism.schema.json"):
        found = {r.rule_id for r in lint_bytes(render(template(schema_ref=schema_ref)), "x.json", Config())}
        assert found == {"schema/placeholder"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TODO: the title", True),
        ("TODO", True),
        ("Keep the blocks. FIXME say why", True),
        ("The date is TBD.", True),
        ("(TODO)", True),
        ("The scheduler reads its todo list.", False),
        ("TODOS are kept in a list", False),
        ("MY-TODO-LIST", False),
        ("", False),
    ],
)
def test_what_a_placeholder_is(text: str, expected: bool) -> None:
    assert is_placeholder(text) is expected
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["scenarios"][0]["steps"][1]["description"] = text or "Keep the cache entries."
    found = [(r.rule_id, r.pointer) for r in lint_bytes(json.dumps(data).encode(), "x.json", Config())]
    assert (("schema/placeholder", "/scenarios/0/steps/1/description") in found) is expected


def test_one_unwritten_string_is_one_finding() -> None:
    """Placeholders are not prose (no acronym, typography or redundancy findings) and not a source path."""
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["title"] = data["alt"] = "TODO: write it"
    data["caption"] = "TODO: don't say \u201cKV\u201d here, nor 'K/V'"
    data["sources"].append({"path": "TODO: the path", "description": "TODO: why"})
    last = f"/sources/{len(data['sources']) - 1}"
    data["$schema"] = "TODO"
    data["x-note"] = "TODO: an extension is not checked"
    found = [(r.rule_id, r.pointer) for r in lint_bytes(json.dumps(data).encode(), "x.json", Config())]
    assert sorted(found) == [
        ("schema/placeholder", "/alt"),
        ("schema/placeholder", "/caption"),
        ("schema/placeholder", f"{last}/description"),
        ("schema/placeholder", f"{last}/path"),
        ("schema/placeholder", "/title"),
    ]


def test_a_placeholder_source_path_is_not_resolved(repo: Path) -> None:
    done = mechlint("new", "content/mechanisms/flow.json", cwd=repo)
    assert done.returncode == 0
    check = mechlint("check", "--format", "json", "--select", "provenance", "content", cwd=repo)
    assert check.returncode == 0 and results(check) == []


@pytest.mark.parametrize("path", ["", ".", "..", "mechanisms/.."])
def test_a_path_that_names_no_file_writes_nothing(tmp_path: Path, path: str) -> None:
    done = mechlint("new", path, cwd=tmp_path)
    assert done.returncode == 2
    assert list(tmp_path.iterdir()) == []


def test_a_file_on_the_way_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("mine", encoding="utf-8")
    done = mechlint("new", "notes/mechanisms/x.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "cannot create" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes"]


def test_a_marker_written_with_escapes_is_still_a_placeholder() -> None:
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    text = json.dumps(data, indent=2).replace(json.dumps(data["title"]), '"T\\u004fDO: the title"')
    found = [(r.rule_id, r.pointer) for r in lint_bytes(text.encode(), "x.json", Config())]
    assert found == [("schema/placeholder", "/title")]


def test_the_count_of_placeholders_does_not_depend_on_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "mechlint.toml").write_text('[rules."schema/placeholder"]\nlevel = "off"\n', encoding="utf-8")
    done = mechlint("new", "mechanisms/x.json", "--title", "Two boxes", cwd=tmp_path)
    assert done.returncode == 0
    data = json.loads((tmp_path / "mechanisms/x.json").read_text(encoding="utf-8"))
    assert f"its {sum(is_placeholder(t) for t in strings(data).values())} placeholders" in done.stderr
    assert "schema/placeholder is off" in done.stderr


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40), st.text(max_size=20))
def test_any_title_and_schema_value_round_trip(title: str, schema_ref: str) -> None:
    data = render(template(title=title or None, schema_ref=schema_ref))
    back = json.loads(data.decode("utf-8"))
    assert back["title"] == (title or "TODO: the title, one line")
    assert back.get("$schema", "") == schema_ref
    found = lint_bytes(data, "x.json", Config())
    assert {r.rule_id for r in found if r.rule_id.startswith(("schema/invalid", "schema/duplicate"))} == set()


def test_an_option_that_is_not_utf8_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [os.fsencode(CONSOLE_SCRIPT), b"new", b"mechanisms/x.json", b"--title", b"caf\xe9"],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert b"--title is not valid UTF-8" in done.stderr
    assert b"Traceback" not in done.stderr
    assert not (tmp_path / "mechanisms").exists()


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError])
def test_an_interrupted_write_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: type) -> None:
    import mechlint.document.edit
    from mechlint.authoring.new import NewFileError, create

    def fail(path: Path, data: bytes) -> None:
        raise error()

    monkeypatch.setattr(mechlint.document.edit, "write_atomically", fail)
    with pytest.raises((KeyboardInterrupt, NewFileError)):
        create(tmp_path / "x.json", b"{}")
    assert list(tmp_path.iterdir()) == []
