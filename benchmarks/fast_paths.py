"""What each second implementation (a fast path beside a plain one) saves on a realistic corpus.

    python benchmarks/fast_paths.py [--files 300] [--repeats 5] [--work FOLDER]

Builds (once, in ``--work``) two corpora with ``benchmarks/corpus.py``, ``--files``
``prose`` files and as many ``varied`` ones, and times each fast path against
the plain computation it must agree with, in this process, with
``time.perf_counter``: each repeat is one pass over every file of both corpora
with fresh documents and emptied per-string caches, the fast and the plain
pass alternating; the table shows medians. Values a run shares between rules
(a document's passages and their sentence analysis) are computed before the
clock starts, as the rules that run earlier would have. The parser of ``check``
is timed in fresh processes instead: ``mechlint check FILE`` through the
console script's fast path against the same command through the typer app.

Each saving is also given as a share of a full ``mechlint check --jobs 1
--no-cache`` of both corpora (one process, as the in-process timings are), and
for the start-up paths as a share of a one-file run. The load average is
printed: the machine is shared, so only figures from one run compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from mechlint import lint  # noqa: E402
from mechlint.config import Config  # noqa: E402
from mechlint.document import Document, jsonscan, load, prose  # noqa: E402
from mechlint.language.plainlists import shipped  # noqa: E402
from mechlint.report import OutputOptions  # noqa: E402
from mechlint.rules import RuleContext  # noqa: E402
from mechlint.rules.plain import passive_voice, term_consistency, word_choice  # noqa: E402
from mechlint.rules.schema import violation  # noqa: E402
from mechlint.run.checking import run_rules  # noqa: E402


class Pair(NamedTuple):
    name: str
    fast: str
    plain: str
    test: str
    #: per file (an in-process pass) or per run (fresh processes)
    unit: str
    plain_seconds: float
    fast_seconds: float
    count: int


def corpora(work: Path, files: int) -> list[Path]:
    folders = []
    for mode in ("prose", "varied"):
        folder = work / f"{mode}-{files}"
        if not (folder / ".git").exists():
            subprocess.run(
                [sys.executable, str(HERE / "corpus.py"), str(folder), "--files", str(files), "--mode", mode],
                check=True,
                capture_output=True,
            )
        folders.append(folder)
    return folders


def raw_files(folders: list[Path]) -> list[tuple[str, bytes]]:
    return [(str(path), path.read_bytes()) for folder in folders for path in sorted(folder.rglob("mechanisms/*.json"))]


def fresh(files: list[tuple[str, bytes]]) -> list[Document]:
    """New documents (no derived values yet), with what earlier rules share already computed."""
    documents = [load(name, raw) for name, raw in files]
    for document in documents:
        for passage in (*prose.joined(document, labels=True).passages, *prose.joined(document).passages):
            prose.analyze(passage.text)
    return documents


def clear_caches() -> None:
    for function in (term_consistency.term_uses, passive_voice.passives):
        function.cache_clear()


def timed_passes(
    files: list[tuple[str, bytes]],
    fast: Callable[[Document], object],
    plain: Callable[[Document], object],
    repeats: int,
    prepare: Callable[[list[tuple[str, bytes]]], list[Any]] = fresh,
) -> tuple[float, float]:
    """Median seconds of a pass of ``plain`` and of ``fast`` over every file, alternating."""
    times: dict[str, list[float]] = {"fast": [], "plain": []}
    for repeat in range(repeats):
        order = (("fast", fast), ("plain", plain)) if repeat % 2 == 0 else (("plain", plain), ("fast", fast))
        for label, function in order:
            items = prepare(files)
            clear_caches()
            start = time.perf_counter()
            for item in items:
                function(item)
            times[label].append(time.perf_counter() - start)
    return statistics.median(times["plain"]), statistics.median(times["fast"])


def in_process(files: list[tuple[str, bytes]], repeats: int) -> list[Pair]:
    context = RuleContext(options={"allow": []}, word_lists=shipped())
    lists = shipped()
    pairs = []
    count = len(files)

    def add(name: str, fast: str, plain: str, test: str, times: tuple[float, float], n: int = count) -> None:
        pairs.append(Pair(name, fast, plain, test, "file", times[0], times[1], n))

    # schema: the compiled schema against jsonschema, on every file (most are valid)
    compiled = violation.fast_validator()
    assert compiled is not None
    jsonschema_validator = violation.validator()
    add(
        "compiled schema",
        "fastschema.compile_schema (rules/schema/violation.fast_validator)",
        "jsonschema (rules/schema/violation.validator)",
        "tests/test_fastschema.py::test_the_compiled_schema_agrees_with_jsonschema",
        timed_passes(
            files,
            lambda d: compiled(d.data),
            lambda d: not any(True for _ in jsonschema_validator.iter_errors(d.data)),
            repeats,
        ),
    )

    # placing findings: the targeted walk against the full scanner, on the files with findings
    enabled = Config().enabled()
    wanted: list[tuple[str, frozenset[str]]] = []
    for name, raw in files:
        document = load(name, raw)
        findings, _ = run_rules(document, enabled)
        if findings:
            pointers = frozenset(p for f in findings for p in (f.pointer, *(t.pointer for t in f.trace)))
            wanted.append((document.text, pointers))
    add(
        "locate beside scan",
        "jsonscan.locate",
        "jsonscan.scan",
        "tests/test_document.py::test_locate_gives_the_full_scanner_spans_for_every_pointer_it_was_asked",
        timed_passes(
            files,
            lambda item: jsonscan.locate(*item),
            lambda item: jsonscan.scan(item[0]),
            repeats,
            prepare=lambda _: wanted,
        ),
        len(wanted),
    )

    # word lists: candidate positions before the big pattern, on each file's joined prose
    add(
        "word-list prefilter",
        "plainlists.PlainLists.find",
        "plainlists.PlainLists.find_plain",
        "tests/test_prose_fast_paths.py::test_word_list_matches_equal_a_plain_scan_with_the_whole_pattern",
        timed_passes(
            files,
            lambda d: list(lists.find(prose.joined(d).text)),
            lambda d: list(lists.find_plain(prose.joined(d).text)),
            repeats,
        ),
    )

    # the prose rules with a fast path: check against check_plain, beside it in the rule's module
    for module, fast, plain in (
        (word_choice, "prose.Joined.split (one search of the joined prose)", "the word list on each string"),
        (passive_voice, "prose.Joined.having (strings with a form of 'be')", "passives of every string"),
        (term_consistency, "suspects and may_use", "term_uses of every string, every key"),
    ):
        rule = module.__name__.rpartition(".")[2].replace("_", "-")
        add(
            f"{rule} prefilter",
            f"{module.__name__}.check: {fast}",
            f"{module.__name__}.check_plain: {plain}",
            "tests/test_prose_fast_paths.py::test_prose_rules_find_with_their_fast_paths_what_their_plain_twins_find",
            timed_passes(
                files,
                lambda d, m=module: list(m.check(d, context)),  # type: ignore[misc]
                lambda d, m=module: list(m.check_plain(d, context)),  # type: ignore[misc]
                repeats,
            ),
        )

    # the analysis of a string: one search per sentence against grouping every word, once per distinct string
    texts = list(dict.fromkeys(p.text for _, raw in files for p in prose.of(load("x.json", raw), labels=True)))

    def distinct_texts(_: object) -> list[str]:
        prose.analyze.cache_clear()
        return texts

    # indented JSON: the SARIF log of each corpus (every file's results), written with the fast and the plain encoder
    from mechlint.report.jsontext import dumps, dumps_plain
    from mechlint.report.sarif import to_data

    folders = sorted({Path(name).parents[3] for name, _ in files})
    logs = [to_data(lint([folder], Config(root=folder), root=folder, jobs=1), OutputOptions()) for folder in folders]
    add(
        "indented JSON (SARIF logs of both corpora)",
        "report/jsontext.dumps",
        "json.dumps(indent=2) (report/jsontext.dumps_plain)",
        "tests/test_report_formats.py::test_the_fast_indented_json_is_the_standard_encoders_text",
        timed_passes(
            files[:1],
            lambda _: [dumps(log) for log in logs],
            lambda _: [dumps_plain(log) for log in logs],
            repeats,
            prepare=lambda f: f,
        ),
    )
    add(
        "analysis shortcut",
        "prose.analyze",
        "prose.analyze_plain",
        "tests/test_prose_fast_paths.py::test_analysis_equals_the_plain_analysis",
        timed_passes(files, prose.analyze, prose.analyze_plain, repeats, prepare=distinct_texts),
    )
    return pairs


def wall(command: list[str], cwd: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


TYPER = "import sys; from mechlint.cli.app import main; sys.exit(main(sys.argv[1:]))"
ENTRY = "import sys; from mechlint.cli.entry import main; sys.exit(main(sys.argv[1:]))"
#: Imports and validates one valid document, as a one-file run does; prints the seconds it took.
SCHEMA_START = """
import json, sys, time
start = time.perf_counter()
from mechlint.rules.schema import violation
data = json.loads(open(sys.argv[2], encoding="utf-8").read())
if sys.argv[1] == "fast":
    assert violation.fast_validator()(data)
else:
    assert not any(True for _ in violation.validator().iter_errors(data))
print(time.perf_counter() - start)
"""


#: Loads what a run reads of the shipped data (word lists, built-in invariants, mechanism schema); prints the seconds.
PREBUILT_START = """
import sys, time
start = time.perf_counter()
import mechlint.prebuilt
from mechlint.language import plainlists
if sys.argv[1] == "plain":  # read, parse and validate the shipped files, as before they were prebuilt
    plainlists.prebuilt_data = mechlint.prebuilt.prebuilt_data = lambda relative: None
    mechlint.prebuilt.prebuilt_schema = lambda name: None
from mechlint.schema import fastschema
from mechlint.invariants.loader import builtin_rules
plainlists.shipped(); builtin_rules(); fastschema.shipped("mechanism.schema.json")
print(time.perf_counter() - start)
"""


def in_child(code: str, arguments: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=True)
        times.append(float(done.stdout))
    return statistics.median(times)


def start_up(folder: Path, runs: int) -> list[Pair]:
    one = str(next(folder.rglob("mechanisms/*.json")).relative_to(folder))
    pairs = []
    for arguments in (["check", one], ["check", "-f", "json", "--no-cache", one]):
        command = " ".join(["mechlint", *arguments])
        times = {"fast": [], "plain": []}  # type: dict[str, list[float]]
        for repeat in range(runs):
            order = ("fast", "plain") if repeat % 2 == 0 else ("plain", "fast")
            for label in order:
                code = ENTRY if label == "fast" else TYPER
                times[label].append(wall([sys.executable, "-c", code, *arguments], folder, 1))
        pairs.append(
            Pair(
                f"check parser: {command}",
                "cli/fast_check.parse_check via cli/entry.main",
                "the typer app (cli/app.main)",
                "tests/test_entry.py::test_the_fast_parser_reads_every_check_command_line_as_typer_does",
                "run",
                statistics.median(times["plain"]),
                statistics.median(times["fast"]),
                1,
            )
        )
    path = str(folder / one)
    plain = in_child(PREBUILT_START, ["plain"], runs)
    fast = in_child(PREBUILT_START, ["fast"], runs)
    pairs.append(
        Pair(
            "prebuilt shipped data: start-up",
            "mechlint/prebuilt/ (written by python -m mechlint.authoring.prebuild)",
            "the shipped TOML files parsed and validated, the schema compiled",
            "tests/test_prebuild.py",
            "run",
            plain,
            fast,
            1,
        )
    )
    plain = in_child(SCHEMA_START, ["plain", path], runs)
    fast = in_child(SCHEMA_START, ["fast", path], runs)
    pairs.append(
        Pair(
            "compiled schema: start-up",
            "fastschema.shipped (compiled once a run)",
            "import of jsonschema and its validator",
            "tests/test_fastschema.py::test_the_compiled_schema_agrees_with_jsonschema",
            "run",
            plain,
            fast,
            1,
        )
    )
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/mechlint-fast-paths"))
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    folders = corpora(options.work, options.files)
    files = raw_files(folders)
    load_before = os.getloadavg()
    full = sum(
        wall([sys.executable, "-m", "mechlint", "check", "--jobs", "1", "--no-cache", "-f", "json", "."], f, 3)
        for f in folders
    )
    pairs = in_process(files, options.repeats) + start_up(folders[0], max(9, options.repeats))
    load_after = os.getloadavg()
    one_file = next(pair.fast_seconds for pair in pairs if pair.unit == "run")  # `mechlint check FILE` as it is
    print(f"{len(files)} files ({options.files} prose, {options.files} varied); medians of {options.repeats} passes")
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; {os.cpu_count()} cores")
    print(
        f"full `mechlint check --jobs 1 --no-cache` of both corpora: {full:.2f} s; one file: {one_file * 1000:.0f} ms"
    )
    print()
    print("| second implementation | fast | plain | test holding them equal | plain | fast | saving | share |")
    print("|---|---|---|---|---|---|---|---|")
    for pair in pairs:
        saved = pair.plain_seconds - pair.fast_seconds
        if pair.unit == "file":
            per = f"{saved / pair.count * 1e6:.1f} µs/file"
            share = saved / full
            times = f"{pair.plain_seconds * 1000:.1f} ms | {pair.fast_seconds * 1000:.1f} ms"
        else:
            per = f"{saved * 1000:.1f} ms/run"
            share = saved / one_file
            times = f"{pair.plain_seconds * 1000:.1f} ms | {pair.fast_seconds * 1000:.1f} ms"
        scope = "of the full check" if pair.unit == "file" else "of a one-file run"
        print(f"| {pair.name} | {pair.fast} | {pair.plain} | {pair.test} | {times} | {per} | {share:.1%} {scope} |")
    print()
    print(json.dumps([pair._asdict() for pair in pairs]))


if __name__ == "__main__":
    main()
