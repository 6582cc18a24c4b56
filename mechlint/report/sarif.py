"""SARIF 2.1.0, shaped for GitHub code scanning.

One run; ``tool.driver.rules`` holds every rule that ran (built-in or from the
configuration, read from the report, never from a registry) with its
descriptions, help, ``helpUri``, ``precision`` and ``problem.severity``; each
result has ``ruleId`` and ``ruleIndex``, a location relative to
``%SRCROOT%``, a region in Unicode code points and ``partialFingerprints``:
GitHub's ``primaryLocationLineHash`` (when the line is known) and
``mechlint/v1``, which tells apart two results of one rule at one place and
survives moved lines (see :func:`mechlint.report.fingerprint.result_fingerprints`). Crashed rules are tool
execution notifications; they, and a run stopped by invalid configuration, make ``executionSuccessful`` false.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import quote

from mechlint.model import Fix, Level, Region, Report, Result, RuleInfo
from mechlint.report.fingerprint import result_fingerprints
from mechlint.report.jsonshape import record_text
from mechlint.report.jsontext import dumps_inert
from mechlint.report.options import OutputOptions

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mechlint/mechlint"
_LEVELS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "note"}
#: ``properties.problem.severity``, the severity code scanning shows for a rule.
_SEVERITIES = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "recommendation"}
FINGERPRINT_KEY = "mechlint/v1"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _rule_descriptor(rule: RuleInfo) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": rule.id,
        "name": "".join(part.capitalize() for part in rule.id.replace("/", "-").split("-")),
        "shortDescription": {"text": _sentence(rule.summary)},
        "fullDescription": {"text": _sentence(rule.description or rule.summary)},
        "help": {"text": rule.help_text or rule.summary, "markdown": rule.help_markdown or rule.summary},
        "defaultConfiguration": {"level": _LEVELS[rule.level]},
        "properties": {
            "tags": list(rule.tags),
            "precision": rule.precision,
            "problem.severity": _SEVERITIES[rule.level],
        },
    }
    if rule.help_uri:
        descriptor["helpUri"] = rule.help_uri
    return descriptor


def _unknown_rule(rule_id: str, level: Level) -> RuleInfo:
    """A rule a result names but the report does not describe (a report built by hand)."""
    return RuleInfo(rule_id, level, rule_id, rule_id, rule_id, rule_id)


def _region(region: Region) -> dict[str, int]:
    return {
        "startLine": region.start_line,
        "startColumn": region.start_column,
        "endLine": region.end_line,
        "endColumn": region.end_column,
    }


def _artifact(uri: str) -> dict[str, str]:
    return dict(_artifact_fields(uri))


@functools.lru_cache(maxsize=256)
def _artifact_fields(uri: str) -> tuple[tuple[str, str], ...]:
    """Made once for a file's findings and trace steps: ``quote`` was a quarter of a large log's time."""
    if uri.startswith("file://"):
        return (("uri", uri),)
    return (("uri", quote(_uri_bytes(uri), safe="/")), ("uriBaseId", "%SRCROOT%"))


def _uri_bytes(path: str) -> bytes:
    """The bytes a URI percent-encodes: a byte of a file name that is not UTF-8 (PEP 383) is that byte again."""
    try:
        return path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that no byte stands for (a name not read from disk)
        return path.encode("utf-8", "surrogatepass")


def _fix(fix: Fix, uri: str) -> dict[str, Any]:
    """SARIF 2.1.0 §3.55: the fix's edits as replacements of one artifact; each deleted region is given both as
    lines and columns (code points, as the run says) and as bytes, which name the same span."""
    replacements = [
        {
            "deletedRegion": {**_region(edit.region), "byteOffset": edit.start, "byteLength": edit.end - edit.start},
            "insertedContent": {"text": edit.content},
        }
        for edit in fix.edits
    ]
    return {
        "description": {"text": _sentence(fix.title)},
        "artifactChanges": [{"artifactLocation": _artifact(uri), "replacements": replacements}],
    }


def _result(
    result: Result, uri: str, index: dict[str, int], fingerprints: Mapping[int, str], own: str
) -> dict[str, Any]:
    physical = {"artifactLocation": _artifact(uri), "region": _region(result.region)}
    out: dict[str, Any] = {
        "ruleId": result.rule_id,
        "ruleIndex": index[result.rule_id],
        "level": _LEVELS[result.level],
        "message": {"text": _sentence(result.message)},
        "locations": [{"physicalLocation": physical}],
    }
    if result.pointer:
        out["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": result.pointer, "kind": "element"}]
    if result.suppressed is not None:
        out["suppressions"] = [{"kind": "external", "justification": result.suppressed}]
    out["partialFingerprints"] = {FINGERPRINT_KEY: own}
    line_hash = fingerprints.get(result.region.start_line)
    if line_hash:
        out["partialFingerprints"]["primaryLocationLineHash"] = line_hash
    if result.fix is not None:
        out["fixes"] = [_fix(result.fix, uri)]
        out.setdefault("properties", {})["fixApplicability"] = result.fix.applicability
    if result.trace:
        locations = [
            {
                "location": {
                    "physicalLocation": {"artifactLocation": _artifact(uri), "region": _region(step.region)},
                    "message": {"text": _sentence(step.message)},
                }
            }
            for step in result.trace
        ]
        out["codeFlows"] = [{"threadFlows": [{"locations": locations}]}]
    return out


def _results(report: Report, index: dict[str, int]) -> Iterator[dict[str, Any]]:
    for file_report in report.files:
        for result, own in zip(file_report.results, result_fingerprints(file_report), strict=True):
            yield _result(result, file_report.uri, index, file_report.fingerprints, own)


def _run(report: Report, options: OutputOptions) -> tuple[dict[str, Any], dict[str, int]]:
    """The run without its results, and each rule's index."""
    rules = {rule.id: rule for rule in report.rules}
    for result in report.shown:
        if result.rule_id not in rules:
            rules[result.rule_id] = _unknown_rule(result.rule_id, result.level)
    index = {rule_id: position for position, rule_id in enumerate(rules)}
    notifications = [
        {
            "level": "error",
            "message": {"text": _sentence(f"{notice.path}: {notice.message}")},
            "descriptor": {"id": "mechlint/internal-error"},
            "associatedRule": {"id": notice.rule_id, "index": index[notice.rule_id]},
        }
        for notice in report.notifications
        if notice.rule_id in index
    ]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "mechlint",
                "version": options.tool_version,
                "semanticVersion": options.tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [_rule_descriptor(rule) for rule in rules.values()],
            }
        },
        "automationDetails": {"id": "mechlint/"},
        "columnKind": "unicodeCodePoints",
        "invocations": [
            {
                "executionSuccessful": not report.notifications and not report.stopped,
                "toolExecutionNotifications": notifications,
            }
        ],
        "results": [],
    }
    if options.root_uri:
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": options.root_uri}}
    return run, index


def to_data(report: Report, options: OutputOptions) -> dict[str, Any]:
    run, index = _run(report, options)
    run["results"] = list(_results(report, index))
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report, options: OutputOptions) -> str:
    """The log's text: ``inert_json(dumps(to_data(report, options))) + "\\n"``, written result by result."""
    return "".join(render_chunks(report, options))


def render_chunks(report: Report, options: OutputOptions) -> Iterator[str]:
    """:func:`render`'s text in pieces, one result at a time: a large log is never held in memory whole."""
    run, index = _run(report, options)
    results = _results(report, index)
    first = next(results, None)
    if first is None:
        yield dumps_inert({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]})
        yield "\n"
        return
    hole = _hole(run)
    run["results"] = [hole]
    outline = dumps_inert({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]})
    hole_text = dumps_inert(hole)
    start = outline.index(hole_text)
    indent = outline[outline.rindex("\n", 0, start) + 1 : start]
    yield outline[:start]
    separator = ",\n" + indent
    for number, result in enumerate(itertools.chain((first,), results)):
        if number:
            yield separator
        text = record_text(result, indent)
        yield dumps_inert(result).replace("\n", "\n" + indent) if text is None else text
    yield outline[start + len(hole_text) :] + "\n"


def _hole(run: dict[str, Any]) -> str:
    """A string that the run's text holds nowhere: the results are written where it is."""
    text = dumps_inert(run)
    for number in itertools.count():
        hole = f"mechlint:results:{number}"
        if hole not in text:
            return hole
    raise AssertionError("unreachable")
