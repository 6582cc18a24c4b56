"""Results as LSP diagnostics: UTF-16 ranges, severity from the level, the rule id as code."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lsprotocol import types

from mechlint.lsp.positions import TextIndex
from mechlint.model import Level, Result, RuleInfo

SOURCE = "mechlint"
SEVERITY = {
    Level.ERROR: types.DiagnosticSeverity.Error,
    Level.WARNING: types.DiagnosticSeverity.Warning,
    Level.NOTE: types.DiagnosticSeverity.Information,
}


def diagnostic(result: Result, index: TextIndex, uri: str, rules: Mapping[str, RuleInfo]) -> types.Diagnostic:
    """One result: ``code`` is the rule id, ``codeDescription`` its page, the trace as related information."""
    info = rules.get(result.rule_id)
    href = info.help_uri if info is not None and info.help_uri else None
    related = [
        types.DiagnosticRelatedInformation(types.Location(uri, index.region_range(step.region)), step.message)
        for step in result.trace
    ]
    return types.Diagnostic(
        range=index.region_range(result.region),
        message=result.message,
        severity=SEVERITY[result.level],
        code=result.rule_id,
        code_description=types.CodeDescription(href) if href else None,
        source=SOURCE,
        related_information=related or None,
        data={"pointer": result.pointer},
    )


def diagnostics(
    results: Iterable[Result], index: TextIndex, uri: str, rules: Mapping[str, RuleInfo]
) -> list[types.Diagnostic]:
    return [diagnostic(result, index, uri, rules) for result in results]
