"""Adopting mechlint in a repository that already has findings: suppressions and baselines.

A *suppression* is a configuration entry (``[[tool.mechlint.ignore]]``) with a
path glob, a rule id or family, an optional JSON pointer and a required
reason; a suppression that matched nothing is reported as
``mechlint/unused-suppression``. A *baseline* is a reviewed JSON file of
known findings, with a count: a new finding, or one more copy of a known
one, is not hidden.

A baseline entry matches on what an edit above the finding does not change:
the file, the rule id, the finding's *context* (its JSON pointer with each
array index replaced by what names the element: a scenario's ``id``, a
step's ``title``, a source's ``path``; ``[*]`` for a plain value) and a hash
of the offending value (for a finding on the whole document, of its message
with numbers left out). Never line numbers, never array indices: inserting a
limitation or a step above a finding leaves it hidden. The pointer is kept
only to tell equal candidates apart: a finding whose pointer is recorded is
matched first. Version 1 files (keyed on the pointer) are still read, with
their old matching, and ``mechlint check`` suggests rewriting them.

Long: suppressions and baselines are the two halves of one feature (hiding known findings) and share
the matching of a finding to a recorded entry; split, each half would need the other.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mechlint.config.suppressions import Suppression
from mechlint.errors import ConfigError
from mechlint.model import FileReport, Result
from mechlint.records import Record

BASELINE_VERSION = 2
_NAMING_KEYS = ("id", "path", "title", "name")
MAX_BASELINE = 64 * 1024 * 1024


class Suppressed(Record):
    """The results with each match marked suppressed, and how many results each suppression (by number) matched."""

    results: list[Result]
    used: Counter[int]


def apply_suppressions(results: Iterable[Result], relative: str, suppressions: tuple[Suppression, ...]) -> Suppressed:
    """Mark each result the first matching suppression covers (``relative`` is the file's path from the base)."""
    out = []
    used: Counter[int] = Counter()
    for result in results:
        for number, suppression in enumerate(suppressions):
            if suppression.matches(relative, result):
                used[number] += 1
                result = result._replace(suppressed=suppression.reason)
                break
        out.append(result)
    return Suppressed(out, used)


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def value_hash(data: Any, pointer: str, fallback: str, memo: dict[str, str] | None = None) -> str:
    """A short hash of the JSON value at ``pointer``, or of ``fallback`` (numbers left out) when there is none.

    A finding on the whole document (pointer ``""``) hashes ``fallback``, its
    message: a hash of the whole file would change with any edit. ``memo``
    keeps the hash of each value by pointer for the findings of one document:
    many findings on one large value (a long description) serialise it once.
    """
    if memo is not None and pointer in memo:
        return memo[pointer]
    node: Any = data
    found = bool(pointer) and data is not None
    for token in pointer.split("/")[1:] if found else []:
        token = _unescape(token)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            found = False
            break
    if found:
        try:
            text = json.dumps(node, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
        except ValueError:  # an integer past Python's 4,300-digit limit for decimal text: hashed in hex
            text = json.dumps(_huge_ints_in_hex(node), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    else:
        text = re.sub(r"\d+", "#", fallback)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    if memo is not None and found and data is not None:
        memo[pointer] = digest
    return digest


def _huge_ints_in_hex(node: Any) -> Any:
    """``node`` with each integer written as hex text, which has no length limit (``"0x1f…"``)."""
    if isinstance(node, dict):
        return {key: _huge_ints_in_hex(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_huge_ints_in_hex(value) for value in node]
    if isinstance(node, int) and not isinstance(node, bool):
        return hex(node)
    return node


def _element_name(element: Any) -> str:
    if isinstance(element, dict):
        for key in _NAMING_KEYS:
            value = element.get(key)
            if isinstance(value, str) and value:
                return f"[{key}={json.dumps(value, ensure_ascii=False)}]"
    return "[*]"


def context_of(data: Any, pointer: str) -> str:
    """``pointer`` with each array index replaced by what names the element, so that an insertion above keeps it.

    ``/scenarios/0/steps/2/active/1`` becomes
    ``/scenarios/[id="compatible-hit"]/steps/[title="B is compared"]/active/[*]``;
    a token past what the document holds is kept as it is.
    """
    if not pointer:
        return ""
    node: Any = data
    parts = []
    for token in pointer.split("/")[1:]:
        key = _unescape(token)
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
            parts.append(_element_name(node))
        elif isinstance(node, dict) and key in node:
            node = node[key]
            parts.append(token)
        else:
            node = None
            parts.append(token)
    return "/" + "/".join(parts)


#: (file, rule, context, value hash): what a version 2 baseline entry matches on.
BaselineKey = tuple[str, str, str, str]
#: (file, rule, pointer, value hash): what a version 1 entry matched on.
LegacyKey = tuple[str, str, str, str]


class Baseline:
    """The known findings of a baseline file: for each key, the recorded pointers (with their counts)."""

    __slots__ = ("known", "legacy", "version")

    def __init__(self, version: int = BASELINE_VERSION) -> None:
        self.known: dict[BaselineKey, Counter[str]] = {}
        self.legacy: Counter[LegacyKey] = Counter()
        self.version = version

    def add(self, key: BaselineKey, pointer: str, count: int = 1) -> None:
        self.known.setdefault(key, Counter())[pointer] += count


def baseline_key(uri: str, result: Result) -> BaselineKey:
    return (uri, result.rule_id, result.context, result.value_hash)


def _legacy_key(uri: str, result: Result) -> LegacyKey:
    return (uri, result.rule_id, result.pointer, result.value_hash)


def load_baseline(path: Path) -> Baseline:
    """The known findings of a baseline file; a missing or malformed file is a :class:`ConfigError`."""
    from mechlint.safety.safeio import NotReadable, read_regular

    try:
        text = read_regular(path, MAX_BASELINE).decode("utf-8")
    except NotReadable as error:
        if error.missing:
            raise ConfigError(
                "the baseline file does not exist; check the name, or record one with --update-baseline", path
            ) from None
        raise ConfigError(f"the baseline {error.reason}", path) from None
    except UnicodeDecodeError:
        raise ConfigError("the baseline is not UTF-8; rewrite it with --update-baseline", path) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ConfigError("the baseline is not JSON; rewrite it with --update-baseline", path) from None
    entries = data.get("findings") if isinstance(data, dict) else None
    version = data.get("version") if isinstance(data, dict) else None
    if not isinstance(entries, list) or version not in (1, BASELINE_VERSION) or isinstance(version, bool):
        raise ConfigError(
            f"not a mechlint baseline (version 1 or {BASELINE_VERSION}); rewrite it with --update-baseline", path
        )
    names = ("path", "rule", "pointer", "value") if version == 1 else ("path", "rule", "context", "value", "pointer")
    baseline = Baseline(version=version)
    for number, entry in enumerate(entries):
        fields = [entry.get(k) if isinstance(entry, dict) else None for k in names]
        count = entry.get("count", 1) if isinstance(entry, dict) else None
        if not all(isinstance(f, str) for f in fields) or type(count) is not int or count < 1:
            raise ConfigError(
                f"findings[{number}]: a baseline entry needs {', '.join(names)} (strings) and a count of at least 1; "
                "rewrite the file with --update-baseline",
                path,
            )
        if version == 1:
            baseline.legacy[(fields[0], fields[1], fields[2], fields[3])] += count  # type: ignore[index]
        else:
            baseline.add((fields[0], fields[1], fields[2], fields[3]), fields[4], count)  # type: ignore[arg-type]
    return baseline


class _LeftOver:
    """The first recorded pointer of a key that some finding can still take, found in linear time overall.

    Counts only go down, so a pointer used up stays used up: each key's
    pointers are passed over once, not once for every finding (issue 30: a
    baseline of 10,000 alike findings whose pointers all moved took seconds).
    """

    def __init__(self) -> None:
        self.order: dict[BaselineKey, list[str]] = {}
        self.at: dict[BaselineKey, int] = {}

    def first(self, key: BaselineKey, pointers: Counter[str]) -> str | None:
        order = self.order.get(key)
        if order is None:
            order = self.order[key] = list(pointers)
        at = self.at.get(key, 0)
        while at < len(order) and pointers[order[at]] <= 0:
            at += 1
        self.at[key] = at
        return order[at] if at < len(order) else None


def apply_baseline(files: list[FileReport], baseline: Baseline, source: str) -> list[FileReport]:
    """Mark the findings the baseline records as suppressed; the rest stay.

    Candidates with equal keys are told apart by their pointers: first the
    findings whose pointer is recorded take the entries, then the others take
    what is left, so an edit above a finding (which moves its pointer) keeps
    it hidden while one more copy of it is shown.
    """
    remaining = {key: Counter(pointers) for key, pointers in baseline.known.items()}
    legacy = Counter(baseline.legacy)
    hidden: set[tuple[int, int]] = set()
    open_results = [
        (f, r, file_report.uri, result)
        for f, file_report in enumerate(files)
        for r, result in enumerate(file_report.results)
        if result.suppressed is None
    ]
    for exact in (True, False):
        left = _LeftOver()
        for f, r, uri, result in open_results:
            key = baseline_key(uri, result)
            pointers = remaining.get(key)
            if (f, r) in hidden or not pointers:
                continue
            pointer = result.pointer if exact else left.first(key, pointers)
            if pointer is not None and pointers[pointer] > 0:
                pointers[pointer] -= 1
                hidden.add((f, r))
    for f, r, uri, result in open_results:
        key = _legacy_key(uri, result)
        if (f, r) not in hidden and legacy[key] > 0:
            legacy[key] -= 1
            hidden.add((f, r))
    why = f"recorded in the baseline {source}"
    return [
        file_report._replace(
            results=tuple(
                result._replace(suppressed=why) if (f, r) in hidden else result
                for r, result in enumerate(file_report.results)
            ),
        )
        for f, file_report in enumerate(files)
    ]


def baseline_text(files: Iterable[FileReport]) -> str:
    """The baseline of these findings: sorted, stable JSON with one entry per distinct key and pointer."""
    counts: Counter[tuple[str, str, str, str, str]] = Counter()
    for file_report in files:
        for result in file_report.results:
            if result.suppressed is None:
                counts[(*baseline_key(file_report.uri, result), result.pointer)] += 1
    findings = [
        {"path": path, "rule": rule, "context": context, "value": value, "pointer": pointer, "count": count}
        for (path, rule, context, value, pointer), count in sorted(counts.items())
    ]
    data = {"version": BASELINE_VERSION, "tool": "mechlint", "findings": findings}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
