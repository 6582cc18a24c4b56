"""``mechlint rules`` (every rule with its level) and ``mechlint rule ID`` (one rule's documentation)."""

from __future__ import annotations

from typing import Annotated

import typer

from mechlint.cli.exits import EXIT_USAGE, config_error, error
from mechlint.cli.inputs import ConfigOption, config_or_exit
from mechlint.safety.terminal import printable, printable_lines

__all__ = ["list_rules", "show_rule"]


def list_rules(
    config_file: ConfigOption = None,
) -> None:
    """List every rule with its level and summary. Rules from the configuration and configured levels included."""
    config = config_or_exit(config_file)
    levels = {entry.rule.meta.id: entry.level.label for entry in config.enabled()}
    rules = list(config.known_rules().values())
    width = max(len(rule.meta.id) for rule in rules)
    for rule in rules:
        level = levels.get(rule.meta.id, "off")
        typer.echo(printable(f"{rule.meta.id:<{width}}  {level:<7}  {rule.meta.summary}"))


def show_rule(
    rule_id: Annotated[
        str,
        typer.Argument(
            metavar="RULE", help="A rule id such as reference/unknown-target, or a family such as reference."
        ),
    ],
    config_file: ConfigOption = None,
    raw_markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Markdown of docs/rules/ instead of drawing it.")
    ] = False,
) -> None:
    """Print the documentation of one rule or family. Invariants from the configuration too."""
    from mechlint.catalog.docs import rule_markdown
    from mechlint.catalog.registry import rules_by_id
    from mechlint.config import load_config
    from mechlint.errors import ConfigError
    from mechlint.text.lookalike import closest, explain

    rules = rules_by_id()
    try:
        rules = load_config(config_file).known_rules()
    except ConfigError as problem:
        if rule_id not in rules:  # a built-in rule is documented even when the configuration is broken
            config_error(problem)
            raise typer.Exit(EXIT_USAGE) from None
    family = [rule for name, rule in rules.items() if name.partition("/")[0] == rule_id.rstrip("/")]
    if rule_id not in rules and family:  # a family: its rules, as `mechlint rules` lists them
        width = max(len(rule.meta.id) for rule in family)
        typer.echo(f"{rule_id.rstrip('/')}: a family of {len(family)} rules; `mechlint rule ID` documents one")
        for rule in family:
            typer.echo(printable(f"  {rule.meta.id:<{width}}  {rule.meta.summary}"))
        return
    if rule_id not in rules:
        families = list(dict.fromkeys(name.partition("/")[0] for name in rules))
        close = closest(rule_id, [*rules, *families])
        alike = f" ({explain(rule_id, close)})" if close and explain(rule_id, close) else ""
        hint = f"; did you mean {close}?{alike}" if close else "; `mechlint rules` lists them"
        error(f"no rule {rule_id!r}{hint}")
        raise typer.Exit(EXIT_USAGE)
    markdown = printable_lines(rule_markdown(rules[rule_id]))
    if raw_markdown:
        typer.echo(markdown, nl=False)
        return
    from mechlint.catalog.termdoc import render
    from mechlint.cli.output import text_width, use_color

    color = use_color(None)
    typer.echo(render(markdown, width=text_width(to_terminal=True), color=color), nl=False, color=color)
