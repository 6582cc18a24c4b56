"""Hostile inputs, round 2: linear cost on long text, bounded configuration, inert output, Ctrl-C.

Scaling tests compare a run on an input with one on an input eight times as
large, in CPU time of this process: linear code takes about eight times as
long, quadratic code sixty-four times. The bound (24 times) is generous, and
each run gets fresh text so that no cache makes the small run look cheap.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config, find_config_file, load_config
from mechlint.errors import ConfigError
from mechlint.report import OutputOptions
from mechlint.report import github as github_report
from mechlint.report import json as json_report
from mechlint.report import sarif as sarif_report
from mechlint.report import text as text_report

from .conftest import CLEAN, ROOT
from .gitrepo import write
from .interrupt import start_reading

CLEAN_DATA = json.loads(CLEAN.read_text(encoding="utf-8"))
_fresh = itertools.count()

# --- linear cost ------------------------------------------------------------


def _cpu(run: Callable[[], object]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def assert_linear(run: Callable[[int], object], small: int, factor: int = 8) -> None:
    """``run(factor * small)`` costs at most three times ``factor`` times ``run(small)``."""
    run(small)  # imports, compiled patterns
    base = min(_cpu(lambda: run(small)) for _ in range(2))
    big = _cpu(lambda: run(small * factor))
    assert big < 3 * factor * max(base, 0.02), f"{small}: {base:.3f}s, {small * factor}: {big:.3f}s"


def _every_report(tmp_path: Path, data: dict[str, object], findings: bool = True) -> None:
    """Lint one minified file (a single line) and render it in every format."""
    target = tmp_path / f"mechanisms/m{next(_fresh)}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    report = lint([target], Config(root=tmp_path), root=tmp_path, fingerprints=True)
    assert bool(report.results) or not findings
    options = OutputOptions()
    for reporter in (text_report, json_report, sarif_report, github_report):
        reporter.render(report, options)


def _minified(targets: int) -> dict[str, object]:
    data = json.loads(json.dumps(CLEAN_DATA))
    salt = next(_fresh)
    for index in range(targets):  # each unused: one finding per target, all on the one line
        data["targets"][f"t{salt}x{index}"] = {"id": f"mechanism-t{salt}x{index}", "kind": "node", "label": "T"}
    return data


def test_findings_on_one_long_line_cost_linear_time_in_every_report(tmp_path: Path) -> None:
    assert_linear(lambda n: _every_report(tmp_path, _minified(n)), 400)


def test_a_finding_carries_and_escapes_an_excerpt_never_the_whole_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-finding work on a minified file is bounded: what is kept, cached and escaped is an excerpt."""
    escaped: list[int] = []
    real = text_report.printable
    monkeypatch.setattr(text_report, "printable", lambda text: escaped.append(len(text)) or real(text))
    target = write(tmp_path, "mechanisms/m.json", json.dumps(_minified(2000), separators=(",", ":")))
    assert len(target.read_text(encoding="utf-8")) > 100_000
    report = lint([target], Config(root=tmp_path), root=tmp_path)
    assert len(report.results) >= 2000
    assert max(len(result.source_line) for result in report.results) <= 400
    output = text_report.render(report, OutputOptions())
    assert max(escaped) < 1000
    assert max(map(len, output.splitlines())) < 1000


def _prose(size: int) -> str:
    salt = next(_fresh)
    sentence = (
        f"Request {salt} can utilize the cache key (see `kv {salt}`) in order to prefill TTFT blocks, "
        "and the blocks were stored by the GPU. "
    )
    return sentence * (size // len(sentence) + 1)


@pytest.mark.parametrize("field", ["description", "caption"])
def test_a_long_description_costs_linear_time(tmp_path: Path, field: str) -> None:
    def run(size: int) -> None:
        data = json.loads(json.dumps(CLEAN_DATA))
        data[field] = _prose(size)
        _every_report(tmp_path, data)

    assert_linear(run, 20_000)


def test_a_long_description_with_escapes_places_each_finding_cheaply(tmp_path: Path) -> None:
    def run(size: int) -> None:
        data = json.loads(json.dumps(CLEAN_DATA))
        data["description"] = _prose(size).replace(". ", ".\n")  # \n is written \\n: offsets need the escapes
        _every_report(tmp_path, data)

    assert_linear(run, 20_000)


PATHOLOGICAL_PROSE: dict[str, Callable[[int], str]] = {
    "run-of-dots": lambda n: "a" + "." * n + "b",
    "run-of-marks": lambda n: "a" + "?!" * (n // 2) + "b",
    "run-of-quotes": lambda n: "a." + "'" * n + "b",
    "backticks": lambda n: "`" * n,
    "spaces": lambda n: "ABC" + " " * n + "(",
    "capitals-and-dashes": lambda n: "A-" * (n // 2) + "x",
    "open-parentheses": lambda n: "ABC " + "(" * n,
}


@pytest.mark.parametrize("shape", sorted(PATHOLOGICAL_PROSE))
def test_pathological_prose_costs_linear_time(tmp_path: Path, shape: str) -> None:
    def run(size: int) -> None:
        data = json.loads(json.dumps(CLEAN_DATA))
        data["description"] = f"Salt {next(_fresh)}. " + PATHOLOGICAL_PROSE[shape](size)
        _every_report(tmp_path, data, findings=False)

    assert_linear(run, 4000)


def test_the_config_finder_is_linear_in_blank_lines(tmp_path: Path) -> None:
    def run(lines: int) -> None:
        folder = tmp_path / str(next(_fresh))
        write(folder, "pyproject.toml", "[project]\nname = 'x'\n" + "\n" * lines + "[tool.other]\n")
        assert find_config_file(folder) is None

    assert_linear(run, 20_000)


def test_a_minified_file_through_the_command_line_finishes(tmp_path: Path) -> None:
    """A real process over 30,000 findings on one 2 MB line, well inside a timeout."""
    write(tmp_path, "mechanisms/m.json", json.dumps(_minified(30_000), separators=(",", ":")))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--no-color", "."],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr  # warnings only
    first = next(line for line in done.stdout.splitlines() if line.startswith(" 1 | "))
    assert first.startswith(" 1 | …") and len(first) < 250  # an excerpt of the line, never the line


# --- configuration bombs ------------------------------------------------------


def _invariant_file(definitions: list[tuple[str, str]], formula: str) -> str:
    text = f'[[invariant]]\nname = "bomb"\nsummary = "A bomb."\nformula = \'{formula}\'\n'
    for name, source in definitions:
        text += f"\n[invariant.define.{name}]\nformula = '{source}'\n"
    return text


def _load_with(tmp_path: Path, key: str, name: str, text: str) -> ConfigError:
    write(tmp_path, name, text)
    write(tmp_path, "mechlint.toml", f'{key} = ["{name}"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "mechlint.toml")
    return caught.value


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_definitions_that_double_at_each_level_are_refused_when_loading(tmp_path: Path) -> None:
    definitions = [("d0", 'active("a")')] + [(f"d{i}", f"d{i - 1} and d{i - 1}") for i in range(1, 40)]
    text = _invariant_file(definitions, "d39")
    assert len(text) < 3000
    started = time.monotonic()
    error = _load_with(tmp_path, "invariants", "bomb.toml", text)
    assert time.monotonic() - started < 30
    assert error.path == tmp_path / "bomb.toml"
    # 2^13 + ... parts: the first definition over the bound is named, on its line
    assert "define.d" in error.message and error.line is not None
    name = error.message.split("define.")[1].split(":")[0]
    index = int(name[1:])
    assert error.line == _line(text, f"d{index - 1} and d{index - 1}")


def test_thousands_of_chained_definitions_are_refused_not_a_recursion_error(tmp_path: Path) -> None:
    definitions = [("c0", 'active("a")')] + [(f"c{i}", f"not c{i - 1}") for i in range(1, 5000)]
    text = _invariant_file(definitions, "c4999")
    error = _load_with(tmp_path, "invariants", "chain.toml", text)
    assert error.path == tmp_path / "chain.toml" and error.line is not None
    assert "define.c" in error.message and "deep" in error.message


def test_a_modest_chain_of_definitions_still_loads(tmp_path: Path) -> None:
    definitions = [("c0", 'active("a")')] + [(f"c{i}", f"not c{i - 1}") for i in range(1, 50)]
    write(tmp_path, "ok.toml", _invariant_file(definitions, 'c49 or active("b")'))
    write(tmp_path, "mechlint.toml", 'invariants = ["ok.toml"]\n')
    config = load_config(tmp_path / "mechlint.toml")
    assert any(rule.meta.id == "invariant/bomb" for rule in config.extra_rules)


def test_too_many_invariants_in_one_file_are_refused(tmp_path: Path) -> None:
    text = "".join(
        f'[[invariant]]\nname = "i{index}"\nsummary = "S."\nformula = \'active("a")\'\n' for index in range(1001)
    )
    error = _load_with(tmp_path, "invariants", "many.toml", text)
    assert error.path == tmp_path / "many.toml" and "1000" in error.message


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("mechlint.toml", f'include = ["**/*.json"]\nx = {DEEP}\n'),
        ("pyproject.toml", f"[tool.mechlint]\ninclude = []\n\n[tool.other]\nx = {DEEP}\n"),
        ("mechlint.toml", "include = []\nx = " + "{ a = " * 5000 + "1" + " }" * 5000 + "\n"),
        ("mechlint.toml", "include = []\nx = " + "[" * 70 + "]" * 70 + "\n"),
    ],
    ids=["arrays-100000", "pyproject", "inline-tables-5000", "arrays-70"],
)
def test_deep_configuration_names_the_file_and_line(tmp_path: Path, name: str, text: str) -> None:
    write(tmp_path, name, text)
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / name)
    assert caught.value.path == tmp_path / name
    assert caught.value.line == _line(text, "x = ") and "nested" in caught.value.message


@pytest.mark.parametrize("key", ["invariants", "word-lists"])
def test_deep_rule_files_name_the_file_and_line(tmp_path: Path, key: str) -> None:
    text = "# a rule file\n\nallow = " + "[" * 100_000 + "]" * 100_000 + "\n"
    error = _load_with(tmp_path, key, "deep.toml", text)
    assert error.path == tmp_path / "deep.toml" and error.line == 3


def test_deep_configuration_through_the_command_line(tmp_path: Path) -> None:
    write(tmp_path, "mechlint.toml", f"include = []\nx = {DEEP}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "."], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "mechlint.toml:2:" in done.stderr


# --- terminal safety ------------------------------------------------------------

HOSTILE_NAMES = ["title\x1b]0;pwned\x07", "clear\x1b[2J", "over\rwrite", "two\nlines", "csi\u009b2J", "bidi\u202eevil"]
#: What must never reach a terminal raw (C1 CSI and a bidirectional override included).
RAW = ("\x1b", "\x07", "\r", "\u009b", "\u202e")


def _run(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mechlint", *arguments], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


def _hostile_tree(tmp_path: Path) -> None:
    data = json.loads(json.dumps(CLEAN_DATA))
    data["caption"] += ' It\'s a "straight" quote.'  # something `fix` changes
    data["targets"]["unused"] = {"id": "mechanism-unused", "kind": "node", "label": "U"}  # a finding
    for name in HOSTILE_NAMES:
        try:
            write(tmp_path, f"mechanisms/{name}.json", json.dumps(data, indent=2))
        except OSError:  # pragma: no cover - a file system that refuses the name
            pytest.skip("the file system refuses control characters in names")


@pytest.mark.parametrize("output_format", ["text", "github", "json", "sarif"])
def test_hostile_file_names_never_reach_the_terminal_raw(tmp_path: Path, output_format: str) -> None:
    _hostile_tree(tmp_path)
    done = _run(tmp_path, "check", "--fail-on", "warning", "--format", output_format, ".")
    assert done.returncode == 1, done.stderr
    for stream in (done.stdout, done.stderr):
        assert not any(char in stream for char in RAW)
    if output_format == "github":
        for line in done.stdout.splitlines():  # a line break in a name cannot start a line of its own
            assert line.startswith(("::", "mechanisms/", "mechlint:")), line
    if output_format in ("json", "sarif"):
        json.loads(done.stdout)  # still the same data


def test_fix_diff_escapes_file_names(tmp_path: Path) -> None:
    _hostile_tree(tmp_path)
    done = _run(tmp_path, "fix", "--diff", ".")
    assert done.returncode == 1, done.stderr
    for stream in (done.stdout, done.stderr):
        assert not any(char in stream for char in RAW)
    headers = [line for line in done.stdout.splitlines() if line.startswith(("---", "+++"))]
    assert len(headers) == 2 * len(HOSTILE_NAMES) and all(line.endswith(".json") for line in headers)


@pytest.mark.parametrize(
    "toml",
    [
        '"key\\u001b]0;pwned\\u0007" = 1\n',
        '[rules."x\\u001b[2J"]\nlevel = "error"\n',
        'include = ["a"]\nfail-on = "err\\u001b[2J\\r\\nmechlint: all good"\n',
    ],
    ids=["key", "rule-id", "value"],
)
def test_hostile_configuration_keys_and_values_are_escaped_in_errors(tmp_path: Path, toml: str) -> None:
    write(tmp_path, "mechlint.toml", toml)
    done = _run(tmp_path, "check", ".")
    assert done.returncode == 2
    assert not any(char in done.stderr for char in RAW) and "mechlint.toml" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_pin_messages_escape_file_names(tmp_path: Path) -> None:
    write(tmp_path, "mechanisms/bad\x1b[2J.json", "{not json")
    done = _run(tmp_path, "pin", "mechanisms/bad\x1b[2J.json")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert not any(char in done.stderr + done.stdout for char in RAW)


# --- Ctrl-C -----------------------------------------------------------------------


def _interrupt(tmp_path: Path, command: list[str], delay: float) -> tuple[int, str]:
    """SIGINT ``delay`` seconds after the start (any moment: while Python starts, imports, or works)."""
    process = subprocess.Popen(
        command, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    time.sleep(delay)
    if process.poll() is not None:
        pytest.skip("the run finished before it could be interrupted")
    with contextlib.suppress(ProcessLookupError):  # finished just now
        os.kill(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    return process.returncode, err.decode("utf-8", "replace")


def _many(tmp_path: Path, count: int = 400) -> None:
    for index in range(count):
        write(tmp_path, f"content/p{index}/mechanisms/m.json", CLEAN.read_text(encoding="utf-8"))


def _started_by_python(stderr: str) -> bool:
    """A traceback that Python printed while starting, before any of mechlint's code ran."""
    return "Traceback" in stderr and "mechlint" + os.sep not in stderr.replace("bin" + os.sep + "mechlint", "")


@pytest.mark.parametrize("delay", [0.0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.4])
def test_ctrl_c_at_any_moment_exits_130_with_one_line(tmp_path: Path, delay: float) -> None:
    _many(tmp_path)
    code, stderr = _interrupt(tmp_path, [sys.executable, "-m", "mechlint", "check", "--no-cache", "content"], delay)
    if code == -signal.SIGINT or _started_by_python(stderr):
        # Python had not yet run a line of mechlint: the interpreter's own start-up died of the
        # signal (a shell reports 130); nothing mechlint could handle, and no mechlint frame shown.
        return
    assert "Traceback" not in stderr
    assert (code == 130 and stderr.strip() == "mechlint: interrupted") or (code in (0, 1) and not stderr), stderr


@pytest.mark.parametrize("command", ["fix", "pin"])
def test_fix_and_pin_interrupted_say_so(tmp_path: Path, command: str) -> None:
    _many(tmp_path, 400)
    files = [f"content/p{index}/mechanisms/m.json" for index in range(400)]
    arguments = ["fix", "--diff", "content"] if command == "fix" else ["pin", "--check", *files]
    # interrupted once it has read a few files: in the middle of the work on any machine, never after it
    process = start_reading(tmp_path, arguments)
    os.kill(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    code, stderr = process.returncode, err.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr
    # 130, or death by SIGINT itself, which a shell reports as the same 130; either way one line, no traceback
    assert code in (130, -signal.SIGINT), (code, stderr)
    assert stderr.strip().splitlines() == ["mechlint: interrupted"], (code, stderr)
