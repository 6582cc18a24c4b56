"""Adopting mechlint in a repository that already has findings: suppressions and baselines.

A *suppression* is a configuration entry (``[[tool.mechlint.ignore]]``) with a
path glob, a rule id or family, an optional JSON pointer and a required
reason; a suppression that matched nothing is reported as
``mechlint/unused-suppression``. A *baseline* is a reviewed JSON file of
known findings, keyed on file, rule id, JSON pointer and a hash of the
offending value (never on line numbers, so unrelated edits do not disturb
it), with a count: a new finding, or one more copy of a known one, is not
hidden.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mechlint.discovery import glob_regex
from mechlint.errors import ConfigError
from mechlint.model import FileReport, Result

BASELINE_VERSION = 1
UNUSED_SUPPRESSION = "mechlint/unused-suppression"


@dataclass(frozen=True, slots=True)
class Suppression:
    path: str
    rule: str
    pointer: str | None
    reason: str
    line: int | None = None

    def matches(self, relative: str, result: Result) -> bool:
        if not glob_regex(self.path).match(relative):
            return False
        rule, family = result.rule_id, result.rule_id.partition("/")[0]
        if self.rule not in (rule, family, "ALL"):
            return False
        if self.pointer is None:
            return True
        return result.pointer == self.pointer or result.pointer.startswith(self.pointer.rstrip("/") + "/")

    def covers(self, relative: str) -> bool:
        return bool(glob_regex(self.path).match(relative))


def parse_suppressions(value: Any, fail: Any, known_rules: Iterable[str], text: str) -> tuple[Suppression, ...]:
    """The ``ignore`` entries of a configuration file; each mistake names the entry."""
    if not isinstance(value, list):
        raise fail("ignore", "expected an array of tables: [[tool.mechlint.ignore]] with path, rule and reason")
    families = {rule_id.partition("/")[0] for rule_id in known_rules}
    ids = set(known_rules)
    found = []
    pattern = r"^[ \t]*\[\[\s*(?:tool\s*\.\s*mechlint\s*\.\s*)?ignore\s*\]\]"
    lines = [m.start() for m in re.finditer(pattern, text, re.M)]
    for number, entry in enumerate(value):
        where = f"ignore[{number}]"
        if not isinstance(entry, dict):
            raise fail("ignore", f"{where} must be a table with path, rule and reason")
        unknown = set(entry) - {"path", "rule", "pointer", "reason"}
        if unknown:
            raise fail("ignore", f"{where} has unknown keys {sorted(unknown)}; it takes path, rule, pointer, reason")
        path, rule, pointer, reason = entry.get("path"), entry.get("rule"), entry.get("pointer"), entry.get("reason")
        if not isinstance(path, str) or not path:
            raise fail("ignore", f'{where}.path must be a glob such as "content/blog/**/mechanisms/*.json"')
        if not isinstance(rule, str) or (rule not in ids and rule.rstrip("/") not in families and rule != "ALL"):
            raise fail("ignore", f"{where}.rule must be a rule id or a family; got {rule!r}")
        if pointer is not None and (not isinstance(pointer, str) or (pointer and not pointer.startswith("/"))):
            raise fail("ignore", f'{where}.pointer must be a JSON pointer such as "/scenarios/0/steps/2"')
        if not isinstance(reason, str) or not reason.strip():
            raise fail("ignore", f"{where}.reason is required: say why this finding is kept")
        line = text.count("\n", 0, lines[number]) + 1 if number < len(lines) else None
        found.append(Suppression(path, rule.rstrip("/"), pointer, reason.strip(), line))
    return tuple(found)


def apply_suppressions(
    results: Iterable[Result], relative: str, suppressions: tuple[Suppression, ...], used: Counter[int]
) -> list[Result]:
    out = []
    for result in results:
        for number, suppression in enumerate(suppressions):
            if suppression.matches(relative, result):
                used[number] += 1
                result = replace(result, suppressed=suppression.reason)
                break
        out.append(result)
    return out


def value_hash(data: Any, pointer: str, fallback: str, memo: dict[str, str] | None = None) -> str:
    """A short hash of the JSON value at ``pointer``, or of ``fallback`` when there is none.

    ``memo`` keeps the hash of each value by pointer for the findings of one
    document: many findings on one large value (a long description, the root)
    serialise it once, not once each.
    """
    if memo is not None and pointer in memo:
        return memo[pointer]
    node: Any = data
    found = True
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            found = False
            break
    if found and data is not None:
        text = json.dumps(node, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    else:
        text = re.sub(r"\d+", "#", fallback)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    if memo is not None and found and data is not None:
        memo[pointer] = digest
    return digest


BaselineKey = tuple[str, str, str, str]


def baseline_key(uri: str, result: Result) -> BaselineKey:
    return (uri, result.rule_id, result.pointer, result.value_hash)


def load_baseline(path: Path) -> Counter[BaselineKey]:
    """The known findings of a baseline file; a missing file is an empty baseline."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Counter()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the baseline: {error}", path) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ConfigError("the baseline is not JSON; rewrite it with --update-baseline", path) from None
    entries = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(entries, list) or data.get("version") != BASELINE_VERSION:
        raise ConfigError("not a mechlint baseline (version 1); rewrite it with --update-baseline", path)
    counts: Counter[BaselineKey] = Counter()
    for entry in entries:
        fields = [entry.get(k) if isinstance(entry, dict) else None for k in ("path", "rule", "pointer", "value")]
        count = entry.get("count", 1) if isinstance(entry, dict) else None
        if not all(isinstance(f, str) for f in fields) or not isinstance(count, int) or count < 1:
            raise ConfigError("a baseline entry needs path, rule, pointer, value and a count", path)
        counts[(fields[0], fields[1], fields[2], fields[3])] += count  # type: ignore[index]
    return counts


def apply_baseline(files: list[FileReport], known: Counter[BaselineKey], source: str) -> list[FileReport]:
    remaining = Counter(known)
    out = []
    for file_report in files:
        results = []
        for result in file_report.results:
            key = baseline_key(file_report.uri, result)
            if result.suppressed is None and remaining[key] > 0:
                remaining[key] -= 1
                result = replace(result, suppressed=f"recorded in the baseline {source}")
            results.append(result)
        out.append(replace(file_report, results=tuple(results)))
    return out


def baseline_text(files: Iterable[FileReport]) -> str:
    """The baseline of these findings: sorted, stable JSON with one entry per distinct key."""
    counts: Counter[BaselineKey] = Counter()
    for file_report in files:
        for result in file_report.results:
            if result.suppressed is None:
                counts[baseline_key(file_report.uri, result)] += 1
    findings = [
        {"path": path, "rule": rule, "pointer": pointer, "value": value, "count": count}
        for (path, rule, pointer, value), count in sorted(counts.items())
    ]
    data = {"version": BASELINE_VERSION, "tool": "mechlint", "findings": findings}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
