"""``docs/format.md``: the mechanism file for authors, key by key, generated.

Each key's type, whether it is required and what it means come from the
mechanism schema (``schemas/mechanism.schema.json``, the descriptions an
editor shows on hover); its value in the seed (``fixtures/seed/``) is the
worked example; the rules that look at it come from :data:`RULES_BY_KEY`,
which a test holds against every rule's documented examples. A test fails
when the file on disk differs from :func:`format_markdown`;
``python -m mechlint.authoring.formatdoc`` rewrites it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mechlint.resources import schema

#: Where an object's keys are described: (heading, schema definition or "" for the top level, path for people).
PARTS = (
    ("The file", "", ""),
    ("Source", "source", "sources[]"),
    ("Target", "target", "targets.<key>"),
    ("Scenario", "scenario", "scenarios[]"),
    ("Step", "step", "scenarios[].steps[]"),
)

PROSE = (
    "plain/sentence-length",
    "plain/word-choice",
    "plain/passive-voice",
    "plain/undefined-acronym",
    "plain/term-consistency",
    "plain/typography-consistency",
    "plain/readability",
)
#: Labels count for the consistency rules only.
LABELS = ("plain/term-consistency", "plain/typography-consistency")
INVARIANTS = "invariant/reuse-after-store-and-compare"
#: The note an invariant gives on step text it cannot judge.
UNDECIDED = "invariant/undecided-text"
LIT = ("reference/unknown-target", "reference/kind-mismatch", "reference/unselected-active", "reference/unused-target")

#: The rules that look at each key, besides schema/violation (every key) and schema/placeholder (every string).
RULES_BY_KEY: dict[tuple[str, str], tuple[str, ...]] = {
    ("", "$schema"): (),
    ("", "version"): ("schema/unsupported-version",),
    ("", "language"): ("a11y/language", "a11y/language-deprecated"),
    ("", "title"): ("a11y/alt-redundant", *PROSE),
    ("", "description"): PROSE,
    ("", "caption"): ("a11y/alt-redundant", *PROSE),
    ("", "alt"): ("a11y/alt-missing", "a11y/alt-length", "a11y/alt-redundant", *PROSE),
    ("", "sources"): ("provenance/unpinned-source",),
    ("", "limitations"): PROSE,
    ("", "targets"): ("reference/unused-target", "reference/unknown-target", INVARIANTS),
    ("", "stateLabels"): ("reference/state-keys", *LABELS),
    ("", "scenarios"): (),
    ("source", "path"): (
        "provenance/unsafe-path",
        "provenance/missing-source",
        "provenance/frozen-resolved",
        "provenance/gone-source",
        "provenance/frozen-copy-mismatch",
        "provenance/history-unavailable",
    ),
    ("source", "sha256"): (
        "provenance/unpinned-source",
        "provenance/digest-mismatch",
        "provenance/stale-source",
        "provenance/frozen-copy-mismatch",
    ),
    ("source", "description"): (),
    ("target", "id"): ("reference/id-mismatch", "reference/duplicate-id"),
    ("target", "kind"): ("reference/kind-mismatch",),
    ("target", "label"): ("a11y/label-missing", *LABELS),
    ("scenario", "id"): ("reference/duplicate-scenario",),
    ("scenario", "title"): PROSE,
    ("scenario", "description"): PROSE,
    ("scenario", "initial"): ("reference/state-keys", *PROSE),
    ("scenario", "unselected"): ("reference/unknown-target", "reference/unselected-active"),
    ("scenario", "steps"): ("a11y/flash-rate",),
    ("step", "title"): (*PROSE, INVARIANTS, UNDECIDED),
    ("step", "description"): ("a11y/reading-time", *PROSE, INVARIANTS, UNDECIDED),
    ("step", "duration"): ("a11y/reading-time", "a11y/flash-rate"),
    ("step", "active"): (*LIT, "a11y/flash-rate", INVARIANTS),
    ("step", "paths"): (*LIT, "a11y/flash-rate", INVARIANTS),
    ("step", "state"): ("reference/state-keys", "a11y/reading-time", *PROSE, INVARIANTS, UNDECIDED),
}

SEED = "fixtures/seed/mechanisms/prefix-cache.json"
_TYPES = {"string": "string", "integer": "whole number", "array": "array", "object": "object"}
_REFS = {
    "text": "string",
    "state": "object: state key → string",
    "keyList": "array of target keys",
    "source": "source",
    "target": "target",
    "scenario": "scenario",
    "step": "step",
}


def key_of(pointer: str) -> tuple[str, str] | None:
    """The (part, key) a JSON pointer into a mechanism falls under, or ``None`` for the whole file."""
    tokens = pointer.split("/")[1:]
    part = ""
    while tokens:
        name = tokens[0]
        if part == "" and name == "sources" and len(tokens) > 2:
            part, tokens = "source", tokens[2:]
        elif part == "" and name == "targets" and len(tokens) > 2:
            part, tokens = "target", tokens[2:]
        elif part == "" and name == "scenarios" and len(tokens) > 2:
            part, tokens = "scenario", tokens[2:]
        elif part == "scenario" and name == "steps" and len(tokens) > 2:
            part, tokens = "step", tokens[2:]
        else:
            return part, name
    return None


def _properties(part: str) -> dict[str, Any]:
    root = schema("mechanism.schema.json")
    node = root if part == "" else root["$defs"][part]
    properties: dict[str, Any] = node["properties"]
    return properties


def _required(part: str) -> set[str]:
    root = schema("mechanism.schema.json")
    node = root if part == "" else root["$defs"][part]
    return set(node.get("required", []))


def _type(node: dict[str, Any]) -> str:
    if "enum" in node:
        return " or ".join(f"`{json.dumps(v)}`" for v in node["enum"])
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return _REFS.get(ref[len("#/$defs/") :], "object")
    kind = _TYPES.get(str(node.get("type")), str(node.get("type")))
    items = node.get("items", {}).get("$ref", "")
    if kind == "array" and items.startswith("#/$defs/"):
        kind = f"array of {_REFS.get(items[len('#/$defs/') :], 'values')}"
    if kind == "object" and isinstance(node.get("additionalProperties"), dict):
        value = node["additionalProperties"].get("$ref", "")[len("#/$defs/") :]
        kind = f"object: key → {_REFS.get(value, 'value')}"
    if node.get("minItems"):
        kind += f", at least {node['minItems']}"
    return kind


def _seed_value(seed: Any, part: str, key: str) -> Any:
    """The seed's value of the key, in its first source, target, scenario or step; ``...`` when absent."""
    node: Any = seed
    if part == "source":
        node = seed["sources"][0]
    elif part == "target":
        node = next(iter(seed["targets"].values()))
    elif part == "scenario":
        node = seed["scenarios"][0]
    elif part == "step":
        node = seed["scenarios"][0]["steps"][0]
    return node.get(key, ...)


def _excerpt(value: Any, depth: int = 2, indent: str = "") -> str:
    """JSON of ``value`` cut short for reading: containers deeper than ``depth`` as ``[…]``/``{…}``.

    A long array shows its first element, an object with more than six members its first one, then ``…``.
    """
    inner = indent + "  "
    if isinstance(value, list) and value:
        if depth == 0:
            return "[…]"
        shown = [inner + _excerpt(item, depth - 1, inner) for item in value[:1]]
        more = [inner + "…"] if len(value) > 1 else []
        return "[\n" + ",\n".join(shown + more) + "\n" + indent + "]"
    if isinstance(value, dict) and value:
        if depth == 0:
            return "{…}"
        members = list(value.items()) if len(value) <= 6 else list(value.items())[:1]
        shown = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_excerpt(v, depth - 1, inner)}" for k, v in members]
        more = [inner + "…"] if len(members) < len(value) else []
        return "{\n" + ",\n".join(shown + more) + "\n" + indent + "}"
    return json.dumps(value, ensure_ascii=False)


def _rule_link(rule_id: str) -> str:
    return f"[`{rule_id}`](rules/{rule_id}.md)"


def _description(node: dict[str, Any]) -> str:
    text = str(node.get("markdownDescription") or node.get("description", ""))
    return re.sub(r"\n\n\[The format, key by key\]\([^)]*\)\Z", "", text)


def format_markdown(root: Path | None = None) -> str:
    """The whole of ``docs/format.md``."""
    base = root or Path(__file__).resolve().parent.parent.parent
    seed_path = base / SEED
    seed = json.loads(seed_path.read_text(encoding="utf-8")) if seed_path.is_file() else {}
    contents = schema("mechanism.schema.json")
    lines = [
        "# The mechanism file, key by key",
        "",
        "Generated from [the schema](../schemas/mechanism.schema.json) (each key's meaning is the text an editor",
        "shows on hover), [the seed](../fixtures/seed/mechanisms/prefix-cache.json) and the rule table in",
        "`mechlint/authoring/formatdoc.py` by `python -m mechlint.authoring.formatdoc`; do not edit by hand.",
        "",
        _description(contents),
        "",
        "Start a new file with `mechlint new content/blog/<post>/mechanisms/<name>.json`: it writes every key",
        "below with a `TODO: …` placeholder wherever there is something to write, and `mechlint check` lists",
        "what is left (`schema/placeholder`). Your editor completes and explains the keys through the schema;",
        "see [the editor schema](editor-schema.md).",
        "",
        "The worked example is the seed, a real mechanism: it explains prefix caching. Request A prefills two",
        "full blocks of four tokens, the blocks are kept, request B's cache key is compared, B uses the eight",
        "cached positions again and prefills only its new two-token tail. Each key below shows its value in",
        "the seed (the first source, target, scenario or step; long values cut short).",
        "",
        "Every key is checked against the schema by [`schema/violation`](rules/schema/violation.md), and every",
        "string for a placeholder by [`schema/placeholder`](rules/schema/placeholder.md); the whole file is",
        "read by [`schema/invalid-json`](rules/schema/invalid-json.md) and",
        "[`schema/duplicate-key`](rules/schema/duplicate-key.md). The other rules that look at a key are listed",
        "with it.",
    ]
    for heading, part, where in PARTS:
        lines += ["", f"## {heading}" + (f" (`{where}`)" if where else ""), ""]
        required = _required(part)
        for key, node in _properties(part).items():
            title = f"### `{key}`" if part == "" else f"### {heading} `{key}`"
            need = "required" if key in required else "optional"
            lines += [title, "", f"*{_type(node)}, {need}.* {_description(node)}", ""]
            value = _seed_value(seed, part, key) if seed else ...
            if value is ...:
                lines += ["The seed does not have it.", ""]
            else:
                lines += ["In the seed:", "", "```jsonc", f"{json.dumps(key)}: {_excerpt(value)}", "```", ""]
            rules = RULES_BY_KEY.get((part, key), ())
            looked = ", ".join(_rule_link(r) for r in rules) if rules else "only the schema rules"
            lines += [f"Rules that look at it: {looked}.", ""]
        lines.pop()
    lines += [
        "",
        "## Extensions",
        "",
        "A key that starts with `x-` is an extension, allowed in every object (the file, a source, a target, a",
        'scenario, a step) and never checked: `"x-colour": "red"`. Any other key that is not above is a',
        "`schema/violation`, with the key you probably meant.",
    ]
    return "\n".join(lines) + "\n"


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mechlint.authoring.formatdoc",
        description="Write the page of the mechanism file's keys (docs/format.md) from the schema and the seed.",
    )
    parser.add_argument("target", nargs="?", type=Path, default=Path("docs/format.md"), help="where to write it")
    parser.parse_args().target.write_text(format_markdown(), encoding="utf-8")
