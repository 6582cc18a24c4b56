"""Invariant files: TOML validated by ``schemas/invariants.schema.json``, turned into rules."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from mechlint.document import Document
from mechlint.document.views import quote, scenarios, steps, target_kind, targets
from mechlint.errors import ConfigError
from mechlint.invariants.clauses import Judgement
from mechlint.invariants.explain import explain
from mechlint.invariants.formula import FormulaError, Node, parse
from mechlint.invariants.invariant import Invariant
from mechlint.invariants.monitor import Targets, candidate_bindings, evaluate, step_view
from mechlint.invariants.vocabulary import show_clause, values_of
from mechlint.invariants.wording import (
    UNDECIDED_TEXT,
    clause_definitions,
    undecided_notes,
    undecided_steps,
    wording_hint,
)
from mechlint.model import Finding, Level, TraceStep
from mechlint.rules import Example, Rule, RuleContext, RuleMeta
from mechlint.schema.datafile import check_schema, line_of, read_toml

SCHEMA_NAME = "invariants.schema.json"


#: Bounds on a formula with its definitions written out: definitions that use each other can double
#: at each level (40 of them make 2^40 nodes) or chain thousands deep; both are refused when loading.
MAX_EXPANDED_NODES = 10_000
MAX_EXPANDED_DEPTH = 200
#: Invariants in one file: each is a rule run on every scenario of every file.
MAX_INVARIANTS = 1_000


def _formula(
    source: str, definitions: dict[str, Node], where: str, path: Path, text: str, sizes: dict[int, tuple[int, int]]
) -> Node:
    try:
        node = parse(source, definitions)
    except FormulaError as error:
        line = line_of(text, source, error.offset) if source else None
        column = error.offset - source.rfind("\n", 0, error.offset)
        raise ConfigError(f"{where}: {error.message} (at character {column} of the formula)", path, line) from None
    nodes, depth = _expanded(node, sizes)
    if nodes > MAX_EXPANDED_NODES or depth > MAX_EXPANDED_DEPTH:
        raise ConfigError(
            f"{where}: with its definitions written out the formula is too large (more than "
            f"{MAX_EXPANDED_NODES} parts or nested more than {MAX_EXPANDED_DEPTH} deep); "
            "use fewer layers of definitions",
            path,
            line_of(text, source) if source else None,
        )
    sizes[id(node)] = (nodes, depth)
    return node


def _expanded(root: Node, sizes: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """Nodes and depth of ``root`` with every definition written out, from the sizes of the definitions.

    Iterative, and a definition is never entered: its size was measured when it was defined.
    """
    done: dict[int, tuple[int, int]] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if node.op == "ref":
            inner = sizes.get(id(node.args[0]), (1, 1))
            done[id(node)] = (1 + inner[0], 1 + inner[1])
        elif children_done:
            parts = [done[id(arg)] for arg in node.args]
            nodes = 1 + sum(part[0] for part in parts)
            done[id(node)] = (min(nodes, MAX_EXPANDED_NODES + 1), 1 + max((part[1] for part in parts), default=0))
        else:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args)
    return done[id(root)]


def load_file(path: Path) -> list[Invariant]:
    """Read and check one invariant file; any mistake is a :class:`ConfigError`."""
    data, text = read_toml(path, "the invariant file")
    check_schema(data, SCHEMA_NAME, path, text)
    return _invariants(data, path, text)


def _invariants(data: dict[str, Any], path: Path, text: str) -> list[Invariant]:
    """The invariants of a file's data, valid by the schema; a formula's mistake is a :class:`ConfigError`."""
    invariants = []
    if len(data["invariant"]) > MAX_INVARIANTS:
        raise ConfigError(f"more than {MAX_INVARIANTS} invariants in one file; split or trim it", path)
    sizes: dict[int, tuple[int, int]] = {}
    for table in data["invariant"]:
        name = table["name"]
        where = f"invariant {name!r}"
        definitions: dict[str, Node] = {}
        says: dict[str, str] = {}
        sources: dict[str, str] = {}
        wordings: dict[str, str] = {}
        for def_name, definition in table.get("define", {}).items():
            def_where = f"{where}, define.{def_name}"
            if ("formula" in definition) == ("clause" in definition):
                raise ConfigError(f"{def_where}: give either formula or clause, not both or neither", path)
            if "clause" in definition:
                definitions[def_name] = Node("clause", values=values_of(definition["clause"]))
                sources[def_name] = show_clause(def_name, definition["clause"])
            else:
                definitions[def_name] = _formula(definition["formula"], definitions, def_where, path, text, sizes)
                sources[def_name] = definition["formula"].strip()
            says[def_name] = definition.get("says", "")
            if "example" in definition:
                wordings[def_name] = definition["example"]
        formula = _formula(table["formula"], definitions, f"{where}, formula", path, text, sizes)
        applies_text = table.get("applies", "")
        applies = _formula(applies_text, definitions, f"{where}, applies", path, text, sizes) if applies_text else None
        examples = tuple(
            Example(fires=e["fires"], json=e["json"], where=e.get("where"), note=e.get("note", ""))
            for e in table.get("example", [])
        )
        invariants.append(
            Invariant(
                name=name,
                level=Level.parse(table.get("level", "error")),
                summary=table["summary"],
                help=table.get("help", "").strip(),
                formula_text=table["formula"].strip(),
                formula=formula,
                applies_text=applies_text.strip(),
                applies=applies,
                says=says,
                wordings=wordings,
                definitions=sources,
                examples=examples,
                source=path,
            )
        )
    return invariants


def _check(invariant: Invariant) -> Any:
    def check(document: Document, context: RuleContext) -> Iterator[Finding]:
        found = targets(document.data)
        kinds = Targets.of({key: target_kind(target) or "" for key, target in found.items()})
        for index, scenario, pointer in scenarios(document.data):
            name = scenario.get("id")
            label = f"scenario {quote(name)}" if isinstance(name, str) and name else f"scenarios[{index}]"
            yield from _check_scenario(invariant, list(steps(scenario, pointer)), kinds, label)

    return check


def _check_scenario(
    invariant: Invariant, items: list[tuple[int, dict[str, Any], str]], kinds: Targets, scenario: str
) -> Iterator[Finding]:
    """Check one scenario, once for each binding of the placeholders where ``applies`` holds at some step.

    ``applies`` sees the same binding as the formula: ``target("store{n}")``
    there makes the formula about ``n`` apply only to a file with ``store{n}``.
    """
    views = [step_view(step) for _, step, _ in items]
    if not views:
        return
    numbers = [number for number, _, _ in items]
    keys = set(kinds.keys).union(*(view.active | view.paths for view in views))
    shared: dict[int, list[bool]] = {}
    applies_shared: dict[int, list[bool]] = {}
    doubtful: dict[int, tuple[str, Judgement]] | None = None  # found once, for the first binding it applies to
    noted: set[int] = set()
    for binding in candidate_bindings(invariant.formula, keys):
        if invariant.applies is not None:
            applies = evaluate(invariant.applies, views, binding, applies_shared, kinds)
            if not any(applies[id(invariant.applies)]):
                continue
        columns = evaluate(invariant.formula, views, binding, shared, kinds)
        held = columns[id(invariant.formula)]
        if doubtful is None:
            doubtful = undecided_steps(invariant.formula, views)
        if doubtful:  # text it cannot judge counts as it reads best: the invariant holds if either reading holds
            strict = evaluate(invariant.formula, views, binding, None, kinds, undecided=False)[id(invariant.formula)]
            decided = [index for index, (a, b) in enumerate(zip(held, strict, strict=True)) if a != b]
            held = [a or b for a, b in zip(held, strict, strict=True)]
            yield from undecided_notes(invariant, doubtful, decided, items, views, scenario, noted)
        for index, holds in enumerate(held):
            if holds:
                continue
            explanation = explain(invariant.formula, columns, views, index, binding, invariant.says, scenario, numbers)
            trace = tuple(TraceStep(items[k][2], line, _title(items[k])) for k, line in explanation.trace)
            message = explanation.message
            message += wording_hint(invariant, invariant.formula, views, index, numbers, message)
            yield Finding(
                invariant.rule_id, message, pointer=items[index][2], trace=trace, underline=_title(items[index])
            )


def _title(item: tuple[int, dict[str, Any], str]) -> str:
    """Where a finding at a step is underlined: its title, the words a reader sees (the finding stays at the step)."""
    _, step, pointer = item
    return f"{pointer}/title" if isinstance(step.get("title"), str) and step["title"] else ""


def _doc(invariant: Invariant) -> str:
    lines = [invariant.help or invariant.summary, "", "Formula (must hold at every step of a scenario):", ""]
    lines += ["```", invariant.formula_text, "```"]
    if invariant.applies_text:
        lines += ["", "Applies to scenarios where this holds at some step:", "", "```", invariant.applies_text, "```"]
    for name, source in invariant.definitions.items():
        says = invariant.says.get(name)
        lines += ["", f"`{name}`" + (f" ({says}):" if says else ":"), "", "```", source, "```"]
    return "\n".join(lines)


def to_rule(invariant: Invariant) -> Rule:
    meta = RuleMeta(
        id=invariant.rule_id,
        level=invariant.level,
        summary=invariant.summary,
        why=(
            "The animation must tell a true story: a step that happens before its cause "
            "teaches the reader something false."
        ),
        location="the step that breaks the invariant (its title underlined), with a trace of the steps that matter",
        examples=invariant.examples,
        tags=("invariant",),
        reports=(UNDECIDED_TEXT,) if clause_definitions(invariant.formula) else (),
    )
    return Rule(meta=meta, check=_check(invariant), doc=_doc(invariant))


@cache
def builtin_rules() -> tuple[Rule, ...]:
    from mechlint.prebuilt import prebuilt_data
    from mechlint.resources import data_folder

    rules: list[Rule] = []
    for path in sorted((data_folder("rules") / "invariants").glob("*.toml")):
        found = prebuilt_data(f"rules/invariants/{path.name}")  # unchanged since prebuilt: parsed and valid
        rules += map(to_rule, load_file(path) if found is None else _invariants(found[0], path, found[1]))
    return tuple(rules)
