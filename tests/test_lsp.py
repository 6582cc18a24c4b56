"""``mechlint server`` end to end: a real subprocess, spoken to in JSON-RPC over its standard input and output."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from mechlint.cli import main

from .conftest import FIXTURES
from .lspclient import Client

POST = "content/blog/2026-06-11_life-of-a-request-vllm/mechanisms/prefix-cache.json"
CRASHING_SERVER = Path(__file__).with_name("lsp_crashing_server.py")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "content", tmp_path / "content")
    shutil.copytree(FIXTURES / "research", tmp_path / "research")
    return tmp_path


@pytest.fixture
def client(project: Path) -> Any:
    started = Client.mechlint(project, "--root", str(project))
    started.initialize(project)
    yield started
    assert started.close() == 0, b"".join(started.stderr).decode()


def open_file(client: Client, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8") if text is None else text
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}
    )
    return uri


def change(client: Client, uri: str, version: int, text: str) -> None:
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )


def offset_of(text: str, position: dict[str, int]) -> int:
    """The character offset of an LSP position (UTF-16 units), computed independently of the server."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: position["line"]])
    encoded = lines[position["line"]].encode("utf-16-le")[: 2 * position["character"]]
    return start + len(encoded.decode("utf-16-le"))


def position_of(text: str, offset: int) -> dict[str, int]:
    before = text[:offset]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return {"line": line, "character": len(column.encode("utf-16-le")) // 2}


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    spans = [(offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"]), e["newText"]) for e in edits]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def actions_at(client: Client, uri: str, text: str, offset: int, only: list[str] | None = None) -> list[Any]:
    where = position_of(text, offset)
    context: dict[str, Any] = {"diagnostics": []}
    if only:
        context["only"] = only
    found: list[Any] = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": {"start": where, "end": where}, "context": context},
    )
    return found


def edited(action: dict[str, Any], uri: str, text: str) -> str:
    return apply(text, action["edit"]["changes"][uri])


def test_diagnostics_on_open_carry_rule_ids_links_and_levels(client: Client, project: Path) -> None:
    uri = open_file(client, project / POST)
    found = client.diagnostics(uri)
    codes = {d["code"] for d in found}
    assert {"plain/typography-consistency", "a11y/reading-time", "provenance/unpinned-source"} <= codes
    for diagnostic in found:
        assert diagnostic["source"] == "mechlint"
        assert diagnostic["codeDescription"]["href"].endswith(f"{diagnostic['code']}.md")
        assert diagnostic["severity"] == 2  # every finding of the example is a warning


def test_positions_count_utf16_units_outside_the_bmp(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    client.diagnostics(uri)
    changed = text.replace('"Compare B\'s cache key",', '"𝒳𝒳 Compare B\'s cache key",', 1)
    change(client, uri, 2, changed)
    found = client.diagnostics(uri, version=2)
    typography = [d for d in found if d["code"] == "plain/typography-consistency"]
    apostrophe = changed.index("B's cache key\",") + 1
    assert position_of(changed, apostrophe) in [d["range"]["start"] for d in typography]
    assert offset_of(changed, typography[0]["range"]["start"]) == apostrophe


def test_an_unsaved_edit_clears_a_finding(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    assert any(d["code"] == "a11y/reading-time" for d in client.diagnostics(uri))
    change(client, uri, 2, text.replace('"duration": 3000', '"duration": 9000'))
    assert not any(d["code"] == "a11y/reading-time" for d in client.diagnostics(uri, version=2))
    assert (project / POST).read_text(encoding="utf-8") == text  # nothing was written


def _fixed_by_cli(project: Path, text: str) -> str:
    copy = project / "content" / "copy" / "mechanisms" / "x.json"
    copy.parent.mkdir(parents=True)
    copy.write_text(text, encoding="utf-8", newline="")
    assert main(["fix", "--root", str(project), str(copy)]) == 0
    return copy.read_bytes().decode("utf-8")


def test_typography_quick_fixes_give_the_bytes_of_mechlint_fix(client: Client, project: Path) -> None:
    text = (project / POST).read_bytes().decode("utf-8")
    uri = open_file(client, project / POST, text)
    client.diagnostics(uri)
    offset = text.index("B's cache key\",") + 1
    actions = actions_at(client, uri, text, offset)
    titles = [a["title"] for a in actions]
    one = edited(next(a for a in actions if "this string" in a["title"]), uri, text)
    assert one.count("B’s") == text.count("B’s") + 1 and one.count("B's") == text.count("B's") - 1
    expected = _fixed_by_cli(project, text)
    fix_all = actions_at(client, uri, text, 0, only=["source.fixAll"])
    assert [a["kind"] for a in fix_all] == ["source.fixAll.mechlint"], titles
    whole = edited(fix_all[0], uri, text)
    assert whole == expected
    change(client, uri, 2, whole)
    assert not any(d["code"] == "plain/typography-consistency" for d in client.diagnostics(uri, version=2))


def test_quick_fixes_for_a_target_key_an_id_and_a_word(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    text = text.replace('"id": "mechanism-b0"', '"id": "mechanism-bo"', 1)
    text = text.replace('"cache0",\n            "cache1"', '"cach0",\n            "cache1"', 1)
    text = text.replace('"description": "A prefills the prefix."', '"description": "Utilize the prefix."', 1)
    uri = open_file(client, project / POST, text)
    codes = {d["code"] for d in client.diagnostics(uri)}
    assert {"reference/id-mismatch", "reference/unknown-target", "plain/word-choice"} <= codes
    cases = [
        (text.index('"mechanism-bo"') + 3, '"id": "mechanism-b0"'),
        (text.index('"cach0"') + 2, '"cache0",\n            "cache1"'),
        (text.index("Utilize the") + 2, '"description": "Use the prefix."'),
    ]
    for offset, expected in cases:
        actions = [a for a in actions_at(client, uri, text, offset) if a["kind"] == "quickfix"]
        assert actions, expected
        after = edited(actions[0], uri, text)
        assert expected in after
        assert json.loads(after)  # still JSON
    version = 2
    for offset, _ in cases:
        action = next(a for a in actions_at(client, uri, text, offset) if a["kind"] == "quickfix")
        text = edited(action, uri, text)
        change(client, uri, version, text)
        client.diagnostics(uri, version=version)
        version += 1
    change(client, uri, version, text)
    codes = {d["code"] for d in client.diagnostics(uri, version=version)}
    assert not codes & {"reference/id-mismatch", "reference/unknown-target", "plain/word-choice"}


def test_pinning_is_an_explicit_quick_fix_with_the_bytes_of_mechlint_pin(client: Client, project: Path) -> None:
    text = (project / POST).read_bytes().decode("utf-8")
    uri = open_file(client, project / POST, text)
    unpinned = next(d for d in client.diagnostics(uri) if d["code"] == "provenance/unpinned-source")
    offset = offset_of(text, unpinned["range"]["start"])
    pins = [a for a in actions_at(client, uri, text, offset) if "Pin" in a["title"]]
    assert len(pins) == 1 and not pins[0].get("isPreferred")
    after = edited(pins[0], uri, text)
    assert main(["pin", "--root", str(project), str(project / POST)]) == 0
    assert after == (project / POST).read_bytes().decode("utf-8")
    fix_all = actions_at(client, uri, text, offset, only=["source.fixAll"])
    assert all("sha256" not in json.dumps(a["edit"]) for a in fix_all)  # never part of fix all


def test_completion_offers_nodes_in_active_edges_in_paths_and_state_keys(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    client.diagnostics(uri)
    data = json.loads(text)
    nodes = {k for k, t in data["targets"].items() if t["kind"] == "node"}
    edges = {k for k, t in data["targets"].items() if t["kind"] == "edge"}

    def labels(new_text: str, offset: int, version: int) -> set[str]:
        change(client, uri, version, new_text)
        client.diagnostics(uri, version=version)
        answer = client.request(
            "textDocument/completion", {"textDocument": {"uri": uri}, "position": position_of(new_text, offset)}
        )
        return {item["label"] for item in answer["items"]}

    # While typing: the string is not closed and the file does not parse.
    typing = text.replace('"active": [\n            "a0",', '"active": [\n            "a', 1)
    assert labels(typing, typing.index('"active": [\n            "a') + len('"active": [\n            "a'), 2) == nodes
    typing = text.replace('"paths": [],', '"paths": [""],', 1)
    assert labels(typing, typing.index('"paths": [""]') + len('"paths": ["'), 3) == edges
    state = '"state": {\n            "stage": "A prefills the prefix",'
    typing = text.replace(state, '"state": {\n            "",\n            "stage": "A prefills the prefix",', 1)
    assert labels(typing, typing.index('"state": {\n            "') + len('"state": {\n            "'), 4) == set(
        data["stateLabels"]
    )


def test_hover_definition_and_references_of_a_target(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    client.diagnostics(uri)
    use = text.index('"cache0",\n            "cache1"') + 2
    where = {"textDocument": {"uri": uri}, "position": position_of(text, use)}
    hover = client.request("textDocument/hover", where)
    assert "cache0" in hover["contents"]["value"] and "node" in hover["contents"]["value"]
    assert "KV: p1–p4" in hover["contents"]["value"]
    definition = client.request("textDocument/definition", where)
    assert offset_of(text, definition["range"]["start"]) == text.index('"cache0": {')
    refs = client.request("textDocument/references", {**where, "context": {"includeDeclaration": False}})
    steps_naming = text.count('"cache0"') - 1
    assert len(refs) == steps_naming >= 1
    assert all(text[offset_of(text, r["range"]["start"]) :].startswith('"cache0"') for r in refs)


def test_broken_input_is_a_diagnostic_and_the_server_keeps_serving(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    client.diagnostics(uri)
    change(client, uri, 2, text[: len(text) // 2])
    assert [d["code"] for d in client.diagnostics(uri, version=2)] == ["schema/invalid-json"]
    change(client, uri, 3, "\ud800 {")  # a lone surrogate from the client: not UTF-8 at all
    assert [d["code"] for d in client.diagnostics(uri, version=3)] == ["schema/invalid-json"]
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json")
    client.notify("textDocument/didChange", {"textDocument": {"uri": 7}})
    # Parameters that do not fit the protocol: an error answer (-32602), and the server goes on serving.
    bad = client.response("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1}})
    assert bad["error"]["code"] == -32602
    client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 10**6, "character": 0}})
    client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 99}})
    unopened = project / "content" / "x" / "mechanisms" / "closed.json"  # never opened: never read from disk
    unopened.parent.mkdir(parents=True)
    unopened.write_text((project / POST).read_text(encoding="utf-8"), encoding="utf-8")
    use = unopened.read_text(encoding="utf-8").index('"cache0",\n            "cache1"') + 2
    where = {"textDocument": {"uri": unopened.as_uri()}, "position": position_of(text, use)}
    assert client.request("textDocument/hover", where) is None
    assert client.request("textDocument/definition", where) is None
    other = project / "content" / "notes.json"  # not selected by the include globs
    other.write_text("{broken", encoding="utf-8")
    assert client.diagnostics(open_file(client, other)) == []
    change(client, uri, 4, text)
    assert client.diagnostics(uri, version=4)
    assert client.process.poll() is None


def test_configuration_and_word_lists_are_read_again_when_they_change(client: Client, project: Path) -> None:
    text = (
        (project / POST)
        .read_text(encoding="utf-8")
        .replace("A prefills the prefix.", "A prefills the prefix cheerily.", 1)
    )
    uri = open_file(client, project / POST, text)
    assert any(d["code"] == "a11y/reading-time" for d in client.diagnostics(uri))
    (project / "words.toml").write_text(
        '[[words]]\nword = "cheerily"\nuse = "gladly"\nwhy = "house style"\n', encoding="utf-8"
    )
    (project / "mechlint.toml").write_text(
        'word-lists = ["words.toml"]\n[rules."a11y/reading-time"]\nlevel = "off"\n', encoding="utf-8"
    )
    changes = [{"uri": (project / "mechlint.toml").as_uri(), "type": 1}]
    client.notify("workspace/didChangeWatchedFiles", {"changes": changes})
    found = client.diagnostics(uri)
    assert found and not any(d["code"] in ("a11y/reading-time", "mechlint/invalid-config") for d in found)
    assert any(d["code"] == "plain/word-choice" and "gladly" in d["message"] for d in found)
    (project / "mechlint.toml").write_text("include = 3\n", encoding="utf-8")
    client.notify("textDocument/didSave", {"textDocument": {"uri": (project / "mechlint.toml").as_uri()}})
    assert [d["code"] for d in client.diagnostics(uri)] == ["mechlint/invalid-config"]
    config_uri = (project / "mechlint.toml").as_uri()
    shown = client.diagnostics(config_uri)
    assert [(d["code"], d["range"]["start"]["line"]) for d in shown] == [("mechlint/invalid-config", 0)]
    (project / "mechlint.toml").write_text("", encoding="utf-8")
    client.notify("textDocument/didSave", {"textDocument": {"uri": config_uri}})
    assert client.diagnostics(config_uri) == []
    assert "a11y/reading-time" in {d["code"] for d in client.diagnostics(uri)}


def test_a_crashing_rule_is_an_internal_error_diagnostic(project: Path) -> None:
    crashing = Client([sys.executable, str(CRASHING_SERVER), "--root", str(project)], project)
    try:
        crashing.initialize(project)
        text = (project / POST).read_text(encoding="utf-8")
        uri = open_file(crashing, project / POST, text.replace("Full blocks", "CRASH blocks", 1))
        found = crashing.diagnostics(uri)
        assert "mechlint/internal-error" in {d["code"] for d in found}
        assert "plain/typography-consistency" in {d["code"] for d in found}  # the other rules ran
        crashing.wait_for("window/logMessage", lambda p: "crashed" in p["message"])
        change(crashing, uri, 2, text)
        assert "mechlint/internal-error" not in {d["code"] for d in crashing.diagnostics(uri, version=2)}
    finally:
        assert crashing.close() == 0


@pytest.mark.parametrize("editor", ["VS Code", "Helix"])
def test_the_readme_snippets_start_the_server(editor: str, project: Path) -> None:
    import tomllib

    from .test_lsp_neovim import readme_snippet

    if editor == "VS Code":
        settings = json.loads(readme_snippet("json", "### VS Code"))
        command = [settings["glspc.server.command"], *settings["glspc.server.commandArguments"]]
    else:
        server = tomllib.loads(readme_snippet("toml", "### Helix"))["language-server"]["mechlint"]
        command = [server["command"], *server["args"]]
    assert command[0] == "mechlint"
    started = Client([str(Path(sys.executable).parent / "mechlint"), *command[1:]], project)
    try:
        assert started.initialize(project)["serverInfo"]["name"] == "mechlint"
        uri = open_file(started, project / POST)
        assert started.diagnostics(uri)
    finally:
        assert started.close() == 0


def test_an_invariant_trace_is_related_information(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8").replace('"paths": [],', '"paths": ["reuse0"],', 1)
    uri = open_file(client, project / POST, text)
    found = [d for d in client.diagnostics(uri) if d["code"].startswith("invariant/")]
    assert found
    related = found[0]["relatedInformation"]
    assert len(related) >= 2 and all(r["location"]["uri"] == uri and r["message"] for r in related)
    start = offset_of(text, related[0]["location"]["range"]["start"])
    assert text[:start].endswith('"title": "')  # a step, at the words of its title


def test_a_source_changed_on_disk_is_seen_at_the_next_change(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    before = {(d["code"], d["range"]["start"]["line"]) for d in client.diagnostics(uri)}
    post = project / "content/blog/2026-06-11_life-of-a-request-vllm/post.md"
    post.write_bytes(post.read_bytes() + b"\nOne more line.\n")
    change(client, uri, 2, text.replace('"duration": 3000', '"duration": 3100', 1))
    after = {(d["code"], d["range"]["start"]["line"]) for d in client.diagnostics(uri, version=2)}
    assert after - before  # the pinned post no longer has its bytes: a provenance finding appears
    assert all(code.startswith("provenance/") for code, _ in after - before)


def test_saving_a_source_checks_the_open_mechanisms_again(client: Client, project: Path) -> None:
    uri = open_file(client, project / POST)
    before = {(d["code"], d["range"]["start"]["line"]) for d in client.diagnostics(uri)}
    post = project / "content/blog/2026-06-11_life-of-a-request-vllm/post.md"
    post.write_bytes(post.read_bytes() + b"\nOne more line.\n")
    client.notify("textDocument/didSave", {"textDocument": {"uri": post.as_uri()}})
    after = {(d["code"], d["range"]["start"]["line"]) for d in client.diagnostics(uri)}
    assert after - before and all(code.startswith("provenance/") for code, _ in after - before)


def test_changes_are_debounced(client: Client, project: Path) -> None:
    text = (project / POST).read_text(encoding="utf-8")
    uri = open_file(client, project / POST, text)
    client.diagnostics(uri, version=1)
    for version in range(2, 12):
        change(client, uri, version, text.replace('"duration": 3000', f'"duration": {3000 + version}', 1))
    client.diagnostics(uri, version=11)
    early = [
        n
        for n in client.notifications
        if n["method"] == "textDocument/publishDiagnostics" and n["params"].get("version") in range(2, 11)
    ]
    assert len(early) < 9  # typing fast is not checked keystroke by keystroke


def test_a_client_that_counts_in_utf8_gets_utf8_positions(project: Path) -> None:
    started = Client.mechlint(project, "--root", str(project))
    try:
        capabilities = {"general": {"positionEncodings": ["utf-8"]}}
        answer = started.request(
            "initialize", {"processId": None, "rootUri": project.as_uri(), "capabilities": capabilities}
        )
        started.notify("initialized", {})
        assert answer["capabilities"]["positionEncoding"] == "utf-8"
        text = (project / POST).read_text(encoding="utf-8")
        changed = text.replace('"Compare B\'s cache key",', '"𝒳é Compare B\'s cache key",', 1)
        uri = open_file(started, project / POST, changed)
        apostrophe = changed.index("B's cache key\",") + 1
        line_start = changed.rfind("\n", 0, apostrophe) + 1
        expected = {
            "line": changed.count("\n", 0, apostrophe),
            "character": len(changed[line_start:apostrophe].encode()),
        }
        starts = [d["range"]["start"] for d in started.diagnostics(uri) if d["code"] == "plain/typography-consistency"]
        assert expected in starts
    finally:
        assert started.close() == 0


def test_a_file_the_new_include_globs_select_is_checked(client: Client, project: Path) -> None:
    other = project / "content" / "drawing.json"
    other.write_text((project / POST).read_text(encoding="utf-8"), encoding="utf-8")
    uri = open_file(client, other)
    assert client.diagnostics(uri) == []
    (project / "mechlint.toml").write_text('include = ["content/*.json"]\n', encoding="utf-8")
    client.notify(
        "workspace/didChangeWatchedFiles", {"changes": [{"uri": (project / "mechlint.toml").as_uri(), "type": 1}]}
    )
    assert "a11y/reading-time" in {d["code"] for d in client.diagnostics(uri)}
