"""Hostile file names and finding text through every report the CLI writes, each output read by a strict parser.

A file name can hold any byte but NUL and ``/``; a finding's text can quote
any code point. Every report must stay a valid document of its format, show
such characters escaped (never raw), and still name the file: one shown name
for one name on disk (JSON formats keep the exact string). The conventions are
in ``docs/security.md`` ("Names and text in reports").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote_to_bytes

import html5lib
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechlint.cli.run_check import Format
from mechlint.model import FileReport, Level, LocatedTrace, Notification, Region, Report, Result, RuleInfo
from mechlint.report import REPORTERS, OutputOptions, reporter

from .conftest import CLEAN, ROOT

DATA = ROOT / "tests" / "data"
SARIF_SCHEMA = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
GITLAB_SCHEMA = json.loads((DATA / "gitlab-code-quality.schema.json").read_text(encoding="utf-8"))
JUNIT_XSD = ROOT / ".ci" / "data" / "junit-10.xsd"

#: (id, the name on disk, as Python reads it; how the text-like reports must show it).
NAMES = [
    ("csi", "esc\x1b[31mred", r"esc\x1b[31mred"),
    ("osc-title", "title\x1b]0;pwned\x07", r"title\x1b]0;pwned\x07"),
    ("del", "del\x7fx", r"del\x7fx"),
    ("c1-csi", "csi\u009b2J", r"csi\u009b2J"),
    ("bidi-override", "rlo\u202eevil", r"rlo\u202eevil"),
    ("line-separators", "ls\u2028ps\u2029x", r"ls\u2028ps\u2029x"),
    ("zero-width", "zw\u200bj", r"zw\u200bj"),
    ("newline", "two\nlines", r"two\nlines"),
    ("carriage-return", "over\rwrite", r"over\rwrite"),
    ("tab", "tab\tname", r"tab\tname"),
    ("form-feed-and-nul-like", "ff\x0c\x01\x1f", r"ff\x0c\x01\x1f"),
    ("not-utf-8", os.fsdecode(b"byte\xff\xfe\x80"), r"byte\xff\xfe\x80"),
    ("noncharacter", "non\ufffe\uffffchar", r"non\ufffe\uffffchar"),
    ("private-use-astral", "tag\U000e0041\U0010fffd", r"tag\U000e0041\U0010fffd"),
    ("backslash", "back\\x1bslash", r"back\\x1bslash"),
    ("markup", "<b>&amp;\"']]><!--", "<b>&amp;\"']]><!--"),
    ("workflow-syntax", "::warning::%0A,x:y", "::warning::%0A,x:y"),
    ("indented-command", "  ::error::##[error]x", "  ::error::##[error]x"),
    ("plain", "caf\u00e9 \u4e2d", "caf\u00e9 \u4e2d"),
]
#: Findings per file: more errors than GitHub annotates, so that plain log lines are written too.
UNKNOWN_TARGETS = 12
#: Characters no report may hold raw: what :meth:`str.isprintable` rejects, but the line feed.
NEWLINE = "\n"


def _raw(text: str) -> list[str]:
    return sorted({char for char in text if not char.isprintable() and char != NEWLINE})


def _document() -> str:
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    step = data["scenarios"][0]["steps"][0]
    step["active"] += [f"gone{n}" for n in range(UNKNOWN_TARGETS)]
    return json.dumps(data, indent=2)


def _decode(data: bytes) -> str:
    text = data.decode("utf-8")  # strict: a lone surrogate written out would not be UTF-8
    assert not _raw(text), f"raw characters in the report: {_raw(text)!r}"
    return text


def _strict_json(text: str) -> Any:
    def no_constant(name: str) -> None:
        raise ValueError(name)

    return json.loads(text, parse_constant=no_constant)


# --- one strict reader per format ------------------------------------------------------------
# Each takes the report's bytes, the name on disk and its shown form, and the hostile message (or "").


def _check_text(data: bytes, name: str, shown: str, message: str) -> None:
    text = _decode(data)
    heads = [line for line in text.splitlines() if line.startswith(f"{shown}:")]
    assert heads, f"{shown!r} not at the start of a finding line"
    if message:  # the full layout wraps the message at spaces
        assert SHOWN_MESSAGE in text or " ".join(SHOWN_MESSAGE.split()) in " ".join(text.split())


def _check_json(data: bytes, name: str, shown: str, message: str) -> None:
    report = _strict_json(_decode(data))
    assert {result["path"] for result in report["results"]} == {name}  # the exact string
    if message:
        assert report["results"][0]["message"] == message


def _check_sarif(data: bytes, name: str, shown: str, message: str) -> None:
    log = _strict_json(_decode(data))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    uris = {result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in results}
    assert {unquote_to_bytes(uri) for uri in uris} == {os.fsencode(name)}  # the bytes on disk, percent-encoded
    if message:
        assert results[0]["message"]["text"] == message + "."


def _check_gitlab(data: bytes, name: str, shown: str, message: str) -> None:
    issues = _strict_json(_decode(data))
    jsonschema.validators.validator_for(GITLAB_SCHEMA)(GITLAB_SCHEMA).validate(issues)
    assert {issue["location"]["path"] for issue in issues} == {name}
    if message:
        assert issues[0]["description"].endswith(message)


_COMMANDS = ("::group::", "::endgroup::", "::error ", "::warning ", "::notice ", "::stop-commands::")


def _unescape_property(value: str) -> str:
    for escaped, char in (("%3A", ":"), ("%2C", ","), ("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


def _check_github(data: bytes, name: str, shown: str, message: str) -> None:
    """Read the log as the runner does: a command is a line that starts with ``::`` after leading blanks."""
    text = _decode(data)
    stopped_until = ""
    files: set[str | None] = set()
    data: list[str] = []
    plain = 0
    for line in text.splitlines():
        if stopped_until:
            if line == f"::{stopped_until}::":
                stopped_until = ""
            else:
                plain += 1
            continue
        if line.lstrip().startswith("::") or "##[" in line:
            assert line.startswith(_COMMANDS), f"a command the report did not mean: {line!r}"
        if line.startswith("::stop-commands::"):
            stopped_until = line.removeprefix("::stop-commands::")
            assert stopped_until and stopped_until not in text.replace(line, "").replace(f"::{stopped_until}::", "")
        elif line.startswith(("::error ", "::warning ", "::notice ")):
            properties = line.split(" ", 1)[1].split("::", 1)[0]
            values = dict(item.split("=", 1) for item in properties.split(","))
            files.add(_unescape_property(values["file"]) if "file" in values else None)
            data.append(_unescape_property(line.split("::", 2)[2]))
    assert not stopped_until, "commands never resumed"
    if name.isprintable():  # GitHub matches the exact name with the repository's paths
        assert files == {name}
    else:  # an escaped name could be another file's: no file property, the shown name starts the message
        assert files == {None} and all(text.startswith(f"{shown}:") for text in data)
    if not message:
        assert plain == UNKNOWN_TARGETS - 10, "the findings past GitHub's limits are plain lines"
        assert all(line.startswith(f"{shown}:") for line in _plain_lines(text))
    else:
        assert SHOWN_MESSAGE in text


def _plain_lines(text: str) -> list[str]:
    lines, token = [], ""
    for line in text.splitlines():
        if token:
            token = "" if line == f"::{token}::" else token
            if token:
                lines.append(line)
        elif line.startswith("::stop-commands::"):
            token = line.removeprefix("::stop-commands::")
    return lines


def _check_junit(data: bytes, name: str, shown: str, message: str) -> None:
    text = _decode(data)
    root = ElementTree.fromstring(data)
    names = {case.get("name") for case in root.iter("testcase")}
    assert shown in names
    if message:
        assert SHOWN_MESSAGE in "".join(root.itertext())
    if JUNIT_XSD.is_file():
        import xmlschema

        xmlschema.XMLSchema(str(JUNIT_XSD)).validate(text)


def _check_html(data: bytes, name: str, shown: str, message: str) -> None:
    text = _decode(data)
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    document = parser.parse(text)  # raises on any parse error: a control character, a noncharacter, bad nesting
    headings = ["".join(code.itertext()) for code in document.iterfind(".//h2/code")]
    assert headings == [shown]
    if message:
        assert any(SHOWN_MESSAGE in "".join(p.itertext()) for p in document.iter("p"))


CHECKS: dict[str, Callable[[bytes, str, str, str], None]] = {
    "text": _check_text,
    "concise": _check_text,
    "json": _check_json,
    "sarif": _check_sarif,
    "gitlab": _check_gitlab,
    "github": _check_github,
    "junit": _check_junit,
    "html": _check_html,
}


def test_every_format_of_the_cli_and_every_reporter_is_checked_here() -> None:
    assert set(CHECKS) == {f.value for f in Format} == set(REPORTERS)


# --- the real command line, every format ------------------------------------------------------


class Run(NamedTuple):
    returncode: int
    stderr: bytes
    #: Each format's report (``None``: not written).
    outputs: dict[str, bytes | None]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run | None]:
    """Per name: ``mechlint check`` on a folder holding that one file, every format at once (None: name refused)."""
    out: dict[str, Run | None] = {}
    document = _document()
    others = [f.value for f in Format if f is not Format.text]
    for ident, name, _ in NAMES:
        folder = tmp_path_factory.mktemp(f"hostile-{ident}")
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
        try:
            (folder / f"{name}.mechanism.json").write_text(document, encoding="utf-8")
        except (OSError, UnicodeEncodeError):  # pragma: no cover - a file system that refuses the name
            out[ident] = None
            continue
        reports = folder.parent / f"{folder.name}-reports"
        reports.mkdir()
        arguments = [item for kind in others for item in ("-o", f"{kind}:{reports / kind}")]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "120"}
        done = subprocess.run(
            [sys.executable, "-m", "mechlint", "check", "--format", "text", *arguments, "."],
            cwd=folder, env=env, capture_output=True, timeout=300,
        )  # fmt: skip
        written = {kind: (reports / kind).read_bytes() if (reports / kind).is_file() else None for kind in others}
        out[ident] = Run(done.returncode, done.stderr, {"text": done.stdout, **written})
    return out


@pytest.mark.parametrize("output_format", sorted(CHECKS))
@pytest.mark.parametrize(("ident", "name", "shown"), NAMES, ids=[ident for ident, _, _ in NAMES])
def test_a_hostile_file_name_in_every_report(
    runs: dict[str, Run | None], ident: str, name: str, shown: str, output_format: str
) -> None:
    run = runs[ident]
    if run is None:
        pytest.skip(f"the file system refuses the name {name!r}")
    assert run.returncode == 1 and not _raw(run.stderr.decode("utf-8")), run.stderr.decode("utf-8", "replace")
    output = run.outputs[output_format]
    assert output is not None, f"no {output_format} report written"
    CHECKS[output_format](output, f"{name}.mechanism.json", f"{shown}.mechanism.json", "")


# --- finding text, through each reporter ------------------------------------------------------

#: What a finding can say: it quotes values from the JSON, which can hold any code point.
MESSAGE = "quotes \x1b[2J\x07\x00\x7f\u0085\u009b\u2028\u2029\u202e\u2066\ufeff\ufffe\udcff\ud800</script>]]>--> done"
#: How reports that cannot carry it show it.
SHOWN_MESSAGE = (
    r"quotes \x1b[2J\x07\x00\x7f\u0085\u009b\u2028\u2029\u202e\u2066\ufeff\ufffe\xff\ud800</script>]]>--> done"
)


def _hostile_report(name: str) -> Report:
    rule = RuleInfo("r/x\x1b", Level.ERROR, MESSAGE, MESSAGE, MESSAGE, MESSAGE)
    results = (
        Result(
            name, rule.id, Level.ERROR, MESSAGE, "/title", Region(1, 1, 1, 2),
            trace=(LocatedTrace(Region(2, 1, 2, 2), MESSAGE, "/alt"),), source_line=MESSAGE,
        ),
        Result(name, rule.id, Level.NOTE, MESSAGE, "/alt", Region(2, 1, 2, 2), suppressed=MESSAGE),
    )  # fmt: skip
    return Report(
        files=(FileReport(name, name, results),),
        files_checked=1,
        rules=(rule,),
        notifications=(Notification(MESSAGE, rule.id, name),),
    )


@pytest.mark.parametrize("output_format", sorted(CHECKS))
@pytest.mark.parametrize(("ident", "name", "shown"), NAMES, ids=[ident for ident, _, _ in NAMES])
def test_hostile_finding_text_in_every_report(ident: str, name: str, shown: str, output_format: str) -> None:
    report = _hostile_report(name)
    text = reporter(output_format)(report, OutputOptions(tool_version="1", show_source=True))
    CHECKS[output_format](text.encode("utf-8"), name, shown, MESSAGE)


@pytest.mark.parametrize(
    "uri", ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<script>x()</script>", "vbscript:x"]
)
def test_the_html_report_links_a_rule_only_to_a_web_page(uri: str) -> None:
    report = _hostile_report("m.json")
    rule = report.rules[0]._replace(help_uri=uri)
    page = reporter("html")(report._replace(rules=(rule,)), OutputOptions())
    document = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    assert [a.get("href") for a in document.iter("a") if "rule" in (a.get("class") or "")] == []
    good = reporter("html")(report._replace(rules=(rule._replace(help_uri="https://example.org/r"),)), OutputOptions())
    assert 'href="https://example.org/r"' in good


# --- the escaping helpers themselves ----------------------------------------------------------


def test_the_common_characters_json_skips_are_all_printable() -> None:
    from mechlint.safety.terminal import PRINTABLE_RANGES

    chars, index = [], 0
    while index < len(PRINTABLE_RANGES):
        if PRINTABLE_RANGES[index + 1 : index + 2] == "-":
            chars += map(chr, range(ord(PRINTABLE_RANGES[index]), ord(PRINTABLE_RANGES[index + 2]) + 1))
            index += 3
        else:
            chars.append(PRINTABLE_RANGES[index])
            index += 1
    assert len(chars) > 20000
    assert [hex(ord(c)) for c in chars if not c.isprintable() and c != NEWLINE] == []


EVERY_CHARACTER = st.text(st.characters(blacklist_categories=()), max_size=40)


@given(EVERY_CHARACTER)
def test_json_keeps_every_string_exactly_and_writes_nothing_raw(text: str) -> None:
    from mechlint.safety.terminal import inert_json

    written = inert_json(json.dumps({text: [text]}, ensure_ascii=False, indent=1))
    assert not _raw(written)
    written.encode("utf-8")  # no lone surrogate left
    assert json.loads(written) == {text: [text]}


@given(EVERY_CHARACTER, EVERY_CHARACTER)
def test_shown_names_are_printable_and_one_for_one(first: str, second: str) -> None:
    from mechlint.report.escape import visible, visible_name

    assert visible_name(first).isprintable() and visible(first).isprintable()
    if first != second:
        assert visible_name(first) != visible_name(second)


@pytest.mark.parametrize("output_format", ["gitlab", "github", "junit"])
def test_a_hostile_file_outside_the_repository_keeps_its_bytes(output_format: str) -> None:
    """A file outside the repository is named by its ``file://`` URI, whose percent-escapes are the bytes on disk."""
    name = os.fsdecode(b"/elsewhere/bad\x1b[2J\xff.json")
    result = Result(name, "r/x", Level.ERROR, "m", "/title", Region(1, 1, 1, 2))
    report = Report(files=(FileReport(name, Path(name).as_uri(), (result,)),), files_checked=1)
    text = _decode(reporter(output_format)(report, OutputOptions()).encode("utf-8"))
    if output_format == "gitlab":
        assert [issue["location"]["path"] for issue in _strict_json(text)] == [name]
    elif output_format == "github":
        assert "file=" not in text and r"::/elsewhere/bad\x1b[2J\xff.json:1:1: m" in text
    else:
        names = [case.get("name") for case in ElementTree.fromstring(text).iter("testcase")]
        assert names == [r"/elsewhere/bad\x1b[2J\xff.json"]
