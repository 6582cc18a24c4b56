"""Rule documentation, generated from the rule modules.

``docs/rules/<family>/<name>.md`` is :func:`rule_markdown` of each rule, and
``docs/rules/README.md`` is the index; a test fails when the files on disk
differ from what this module generates (``python -m mechlint.catalog.docs`` rewrites
them).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mechlint.catalog.registry import all_rules, rules_by_id
from mechlint.catalog.ruleexamples import base_text, example_diff
from mechlint.document.views import readable_path
from mechlint.fixes import FIXABLE, fix_line
from mechlint.model import RuleInfo
from mechlint.rules import Example, Rule
from mechlint.rules.a11y import alt_redundant
from mechlint.rules.plain import passive_voice, readability

#: Where the documentation is published; every link in a rule's help is absolute, under it.
REPOSITORY_URL = "https://github.com/mechlint/mechlint"
DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs"

#: How often a finding of a family is a true problem (SARIF ``precision``), and the rules that differ.
_PRECISION_BY_FAMILY = {
    "schema": "very-high",
    "reference": "very-high",
    "provenance": "very-high",
    "mechlint": "very-high",
    "invariant": "high",
    "a11y": "high",
    "plain": "medium",
}
_PRECISION_BY_RULE = {
    alt_redundant.META.id: "medium",
    passive_voice.META.id: "low",
    readability.META.id: "low",
}


def help_uri(rule: Rule) -> str:
    """The absolute URL of the rule's documentation page.

    A rule of mechlint has its own page; an invariant from the user's
    configuration has none there, so it points at the page on invariants (its
    full documentation is in the help, and ``mechlint rule ID`` prints it).
    """
    rule_id = rule.meta.id
    if rules_by_id().get(rule_id) is not rule:
        return f"{DOCS_URL}/invariants.md"
    family, _, name = rule_id.partition("/")
    return f"{DOCS_URL}/rules/{family}/{name}.md"


def precision(rule_id: str) -> str:
    family = rule_id.partition("/")[0]
    return _PRECISION_BY_RULE.get(rule_id, _PRECISION_BY_FAMILY.get(family, "high"))


def rule_info(rule: Rule, markdown: bool = True) -> RuleInfo:
    """Everything a report says about ``rule``, resolved once for the run.

    ``markdown=False`` leaves ``help_markdown`` empty: only SARIF carries the
    rule's page, and drawing its examples (each a whole file and its diff)
    costs more than the rest of a one-file run's rule descriptions.
    """
    meta = rule.meta
    return RuleInfo(
        id=meta.id,
        level=meta.level,
        summary=meta.summary,
        description=rule.doc.split("\n\n")[0].replace("\n", " "),
        help_text=rule_text(rule),
        help_markdown=rule_markdown(rule) if markdown else "",
        help_uri=help_uri(rule),
        tags=tuple(sorted({meta.family, *meta.tags})),
        precision=precision(meta.id),
    )


def _example(example: Example) -> list[str]:
    """One example: the whole file when it is one, else its diff against the base file."""
    lines = []
    if example.note:
        lines.append(f"{example.note[0].upper()}{example.note[1:]}:")
        lines.append("")
    if example.where is None:
        lines += ["The whole file:", "", "```json", example.json, "```", ""]
    elif diff := example_diff(example):
        lines.append(f"`{readable_path(example.where)}` (JSON pointer `{example.where}`) changed:")
        lines += ["", "```diff", *diff, "```", ""]
    else:
        lines.append(f"The base file as it is, with `{readable_path(example.where)}` (JSON pointer `{example.where}`):")
        lines += ["", "```json", example.json, "```", ""]
    return lines


def _single_backticks(text: str) -> str:
    """Docstrings mark code as reStructuredText does (````x````); Markdown, and the terminal, as ```x```."""
    return re.sub(r"(?<!`)``(?!`)((?:[^`\n]|\n(?!\n))+?)``(?!`)", r"`\1`", text)


def rule_text(rule: Rule) -> str:
    """Plain-text help: what the rule does and why."""
    return f"{rule.doc}\n\nWhy it matters: {rule.meta.why}"


def rule_markdown(rule: Rule) -> str:
    meta = rule.meta
    lines = [
        f"# {meta.id}",
        "",
        f"{meta.summary}",
        "",
        f"- Default level: **{meta.level.label}**",
        f"- Location: {meta.location}",
        f"- Fix: {_single_backticks(fix_line(meta.id))}",
        "",
        "## What it does",
        "",
        _single_backticks(rule.doc),
        "",
        "## Why it matters",
        "",
        _single_backticks(meta.why),
        "",
    ]
    failing = [e for e in meta.examples if e.fires]
    passing = [e for e in meta.examples if not e.fires]
    if failing:
        lines += [
            "## Example",
            "",
            f"Each example changes one value of the clean [base file]({DOCS_URL}/rules/base.json), "
            "shown as a diff against it.",
            "",
        ]
        for example in failing:
            lines += _example(example)
    if passing:
        lines += ["## Use instead", ""]
        for example in passing:
            lines += _example(example)
    lines += ["## Options", ""]
    if meta.options:
        lines += ["| option | type | default | meaning |", "|---|---|---|---|"]
        for option in meta.options:
            lines.append(f"| `{option.name}` | {option.kind} | `{option.default!r}` | {option.help} |")
    else:
        lines.append("None besides `level`.")
    lines += [
        "",
        "## Configuration",
        "",
        "```toml",
        f'[tool.mechlint.rules."{meta.id}"]',
        f'level = "{meta.level.label}"  # the default; error, warning, note or off',
    ]
    lines += [f"{option.name} = {_toml(option.default)}" for option in meta.options]
    lines += ["```", ""]
    return "\n".join(lines)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)


def index_markdown() -> str:
    lines = [
        "# Rules",
        "",
        "Generated from the rule modules by `python -m mechlint.catalog.docs`; do not edit by hand.",
        "Examples in the rule pages change one value of [base.json](base.json), a clean mechanism, and are shown "
        "as a diff against it.",
        "",
        "The fix column says which rules `mechlint check --fix` fixes (safe) and which it fixes with "
        "`--unsafe-fixes` too (unsafe); see [Fixing](../../README.md#fixing).",
        "",
        "| id | level | fix | summary |",
        "|---|---|---|---|",
    ]
    for rule in all_rules():
        family, _, name = rule.meta.id.partition("/")
        fix = FIXABLE[rule.meta.id][0].split(" ")[0] if rule.meta.id in FIXABLE else ""
        lines.append(
            f"| [`{rule.meta.id}`]({family}/{name}.md) | {rule.meta.level.label} | {fix} | {rule.meta.summary} |"
        )
    return "\n".join(lines) + "\n"


def expected_files() -> dict[str, str]:
    """Every generated file under ``docs/rules/``, by relative path."""
    files = {"README.md": index_markdown(), "base.json": base_text()}
    for rule in all_rules():
        family, _, name = rule.meta.id.partition("/")
        files[f"{family}/{name}.md"] = rule_markdown(rule)
    return files


def write(folder: Path) -> None:
    for relative, text in expected_files().items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/rules"))
