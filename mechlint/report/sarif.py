"""SARIF 2.1.0, shaped for GitHub code scanning.

One run; ``tool.driver.rules`` holds every enabled rule with its descriptions
and help; each result has ``ruleId`` and ``ruleIndex``, a location relative
to ``%SRCROOT%``, a region in Unicode code points and GitHub's
``primaryLocationLineHash``. Crashed rules are tool execution notifications.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from mechlint.docs import rule_markdown, rule_text
from mechlint.model import Level, Region, Report, Result
from mechlint.registry import rules_by_id
from mechlint.report import OutputOptions
from mechlint.terminal import inert_json

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mechlint/mechlint"
_LEVELS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "note"}


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _rule_descriptor(rule_id: str) -> dict[str, Any]:
    rule = rules_by_id()[rule_id]
    meta = rule.meta
    return {
        "id": meta.id,
        "name": "".join(part.capitalize() for part in meta.id.replace("/", "-").split("-")),
        "shortDescription": {"text": _sentence(meta.summary)},
        "fullDescription": {"text": _sentence(rule.doc.split("\n\n")[0].replace("\n", " "))},
        "help": {"text": rule_text(rule), "markdown": rule_markdown(rule)},
        "defaultConfiguration": {"level": _LEVELS[meta.level]},
        "properties": {"tags": sorted({meta.family, *meta.tags})},
    }


def _region(region: Region) -> dict[str, int]:
    return {
        "startLine": region.start_line,
        "startColumn": region.start_column,
        "endLine": region.end_line,
        "endColumn": region.end_column,
    }


def _artifact(uri: str) -> dict[str, str]:
    if uri.startswith("file://"):
        return {"uri": uri}
    return {"uri": quote(uri, safe="/"), "uriBaseId": "%SRCROOT%"}


def _result(result: Result, uri: str, index: dict[str, int], fingerprints: dict[int, str]) -> dict[str, Any]:
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
    fingerprint = fingerprints.get(result.region.start_line)
    if fingerprint:
        out["partialFingerprints"] = {"primaryLocationLineHash": fingerprint}
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


def to_data(report: Report, options: OutputOptions) -> dict[str, Any]:
    rule_ids = list(report.rules)
    for result in report.shown:
        if result.rule_id not in rule_ids:
            rule_ids.append(result.rule_id)
    index = {rule_id: position for position, rule_id in enumerate(rule_ids)}
    results = [
        _result(result, file_report.uri, index, file_report.fingerprints)
        for file_report in report.files
        for result in file_report.results
    ]
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
                "rules": [_rule_descriptor(rule_id) for rule_id in rule_ids],
            }
        },
        "automationDetails": {"id": "mechlint/"},
        "columnKind": "unicodeCodePoints",
        "invocations": [{"executionSuccessful": not report.notifications, "toolExecutionNotifications": notifications}],
        "results": results,
    }
    if options.root_uri:
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": options.root_uri}}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report, options: OutputOptions) -> str:
    return inert_json(json.dumps(to_data(report, options), indent=2, ensure_ascii=False)) + "\n"
