"""Suppressions: the ``[[tool.mechlint.ignore]]`` entries of a configuration, read and checked.

Each has a path glob, a rule id or family, an optional JSON pointer and a required reason. The
configuration reads them; :mod:`mechlint.run.adoption` marks the results they cover and the run reports one
that matched nothing as ``mechlint/unused-suppression``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from mechlint.config.globs import glob_regex
from mechlint.model import Result
from mechlint.records import Record

__all__ = ["Suppression", "parse_suppressions"]


class Suppression(Record):
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


def parse_suppressions(
    value: Any, report: Callable[[str, str, int | None], bool], known_rules: Iterable[str], text: str
) -> tuple[Suppression, ...]:
    """The valid ``ignore`` entries of a configuration file; ``report(key, message, line)`` is told every
    mistake of every entry, each at the line of its own ``[[ignore]]`` table, until it returns False."""
    if not isinstance(value, list):
        report("ignore", "expected an array of tables: [[tool.mechlint.ignore]] with path, rule and reason", None)
        return ()
    families = {rule_id.partition("/")[0] for rule_id in known_rules}
    ids = set(known_rules)
    found: list[Suppression] = []
    pattern = r"^[ \t]*\[\[[ \t]*(?:tool[ \t]*\.[ \t]*mechlint[ \t]*\.[ \t]*)?ignore[ \t]*\]\]"
    lines = [m.start() for m in re.finditer(pattern, text, re.M)]
    tables = len(lines) == len(value)  # else inline tables (ignore = [{...}]): the line of `ignore`
    for number, entry in enumerate(value):
        where = f"ignore[{number}]"
        line = text.count("\n", 0, lines[number]) + 1 if tables else None
        mistakes = _suppression_mistakes(entry, where, ids, families)
        for mistake in mistakes:
            if not report("ignore", mistake, line):
                return tuple(found)
        if not mistakes:
            rule, reason = entry["rule"], entry["reason"]
            found.append(Suppression(entry["path"], rule.rstrip("/"), entry.get("pointer"), reason.strip(), line))
    return tuple(found)


def _suppression_mistakes(entry: Any, where: str, ids: set[str], families: set[str]) -> list[str]:
    """What is wrong with one ``[[ignore]]`` entry: every mistake, not only the first."""
    from mechlint.text.lookalike import suggestion

    if not isinstance(entry, dict):
        return [f"{where} must be a table with path, rule and reason"]
    mistakes = []
    allowed = ["path", "rule", "pointer", "reason"]
    for key in entry:
        if key not in allowed:
            mistakes.append(
                f"{where} has the unknown key {key!r}{suggestion(key, allowed)}; it takes {', '.join(allowed)}"
            )
    path, rule, pointer, reason = entry.get("path"), entry.get("rule"), entry.get("pointer"), entry.get("reason")
    if not isinstance(path, str) or not path:
        mistakes.append(f'{where}.path must be a glob such as "content/blog/**/mechanisms/*.json"')
    if not isinstance(rule, str) or (rule not in ids and rule.rstrip("/") not in families and rule != "ALL"):
        hint = suggestion(rule, [*ids, *families]) if isinstance(rule, str) else ""
        mistakes.append(f"{where}.rule must be a rule id or a family; got {rule!r}{hint}")
    if pointer is not None and (not isinstance(pointer, str) or (pointer and not pointer.startswith("/"))):
        mistakes.append(f'{where}.pointer must be a JSON pointer such as "/scenarios/0/steps/2"')
    if not isinstance(reason, str) or not reason.strip():
        mistakes.append(f"{where}.reason is required: say why this finding is kept")
    return mistakes
