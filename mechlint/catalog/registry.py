"""The explicit list of every rule mechlint has, in the order they run."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from types import ModuleType

from mechlint.document import Document
from mechlint.model import Finding
from mechlint.rules import Rule, RuleContext
from mechlint.rules.a11y import (
    alt_length,
    alt_missing,
    alt_redundant,
    flash_rate,
    label_missing,
    language,
    language_deprecated,
    reading_time,
)
from mechlint.rules.invariant import undecided_text
from mechlint.rules.mechlint import internal_error, invalid_config, unreadable_file, unused_suppression
from mechlint.rules.plain import (
    passive_voice,
    readability,
    sentence_length,
    term_consistency,
    typography_consistency,
    undefined_acronym,
    word_choice,
)
from mechlint.rules.provenance import (
    digest_mismatch,
    frozen_copy_mismatch,
    frozen_resolved,
    gone_source,
    history_unavailable,
    missing_source,
    stale_source,
    unpinned_source,
    unsafe_path,
)
from mechlint.rules.reference import (
    duplicate_id,
    duplicate_scenario,
    id_mismatch,
    kind_mismatch,
    state_keys,
    unknown_target,
    unselected_active,
    unused_target,
)
from mechlint.rules.schema import duplicate_key, invalid_json, placeholder, unsupported_version, violation

RULE_MODULES: tuple[ModuleType, ...] = (
    invalid_json,
    duplicate_key,
    unsupported_version,
    violation,
    placeholder,
    unknown_target,
    kind_mismatch,
    id_mismatch,
    duplicate_id,
    unused_target,
    state_keys,
    unselected_active,
    duplicate_scenario,
    unsafe_path,
    missing_source,
    digest_mismatch,
    stale_source,
    frozen_resolved,
    gone_source,
    frozen_copy_mismatch,
    unpinned_source,
    history_unavailable,
    alt_missing,
    alt_length,
    alt_redundant,
    label_missing,
    reading_time,
    language,
    language_deprecated,
    flash_rate,
    sentence_length,
    word_choice,
    passive_voice,
    undefined_acronym,
    term_consistency,
    typography_consistency,
    readability,
    undecided_text,
    unreadable_file,
    internal_error,
    invalid_config,
    unused_suppression,
)


def _no_check(document: Document, context: RuleContext) -> Iterator[Finding]:
    """Rules of the ``engine`` stage are reported by the engine itself."""
    return iter(())


@cache
def all_rules() -> tuple[Rule, ...]:
    rules = []
    for module in RULE_MODULES:
        check = getattr(module, "check", _no_check)
        rules.append(Rule(meta=module.META, check=check, doc=(module.__doc__ or "").strip()))
    from mechlint.invariants.loader import builtin_rules

    return (*rules, *builtin_rules())


@cache
def rules_by_id() -> dict[str, Rule]:
    return {rule.meta.id: rule for rule in all_rules()}
