"""Fuzzing with hypothesis: structurally valid and invalid mechanism documents, through every report.

For each generated file: no exception escapes, no rule crashes, every output
format is produced, the SARIF validates against the SARIF 2.1.0 schema, and a
second run gives byte-identical output. ``fuzz/`` has an atheris harness for
longer runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mechlint import lint
from mechlint.config import Config
from mechlint.report import OutputOptions, reporter

from .conftest import ROOT

SARIF_VALIDATOR = jsonschema.Draft4Validator(
    json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
)
FORMATS = ("text", "json", "github", "sarif")

keys = st.sampled_from(["a0", "a1", "cache0", "store0", "reuse0", "reuse1", "b0", "tail", "x", "Bad Key", ""])
words = st.sampled_from(
    ["A", "B's", "B’s", "KV", "K/V", "cache key", "cache-key", "TTFT", "utilize", "is kept", "prefills", "the",
     "block", "e.g.", "3000 ms", "P=4", "“quoted”", "\"quoted\"", "…", "\u202e", "\n", "compares the key", "again."]
)  # fmt: skip
prose = st.lists(words, max_size=30).map(" ".join)
states = st.dictionaries(st.sampled_from(["stage", "artifact", "extra"]), prose, max_size=3)


@st.composite
def mechanisms(draw: st.DrawFn) -> dict[str, Any]:
    target_keys = draw(st.lists(keys, min_size=1, max_size=8, unique=True))
    targets = {
        key: {
            "id": draw(st.sampled_from([f"mechanism-{key}", "mechanism-x", ""])),
            "kind": draw(st.sampled_from(["node", "edge", "box"])),
            "label": draw(prose),
        }
        for key in target_keys
    }
    steps = [
        {
            "title": draw(prose),
            "description": draw(prose),
            "duration": draw(st.integers(min_value=-5, max_value=9000)),
            "active": draw(st.lists(keys, max_size=3)),
            "paths": draw(st.lists(keys, max_size=3)),
            "state": draw(states),
        }
        for _ in range(draw(st.integers(min_value=0, max_value=8)))
    ]
    scenario = {
        "id": draw(st.sampled_from(["one", "one", "two"])),
        "title": draw(prose),
        "description": draw(prose),
        "initial": draw(states),
        "unselected": draw(st.lists(keys, max_size=2)),
        "steps": steps,
    }
    sources = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "path": st.sampled_from(["post.md", "../x", ".git/config", "research/r/before/a.svg", "a\u0000b"]),
                    "description": prose,
                },
                optional={"sha256": st.sampled_from(["0" * 64, "ABC", ""])},
            ),
            max_size=3,
        )
    )
    return {
        "version": draw(st.sampled_from([1, 1, 2, "1"])),
        "language": draw(st.sampled_from(["en", "en-GB", "en_US", "", "x-private"])),
        "title": draw(prose),
        "description": draw(prose),
        "caption": draw(prose),
        "alt": draw(prose),
        "sources": sources,
        "limitations": draw(st.lists(prose, max_size=2)),
        "targets": targets,
        "stateLabels": {"stage": "Stage", "artifact": "Artifact"},
        "scenarios": draw(st.lists(st.just(scenario), min_size=1, max_size=2)),
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)


def _mutate(data: dict[str, Any], where: list[str], value: Any) -> dict[str, Any]:
    node: Any = data
    for token in where[:-1]:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and node:
            node = node[0]
        else:
            return data
    if isinstance(node, dict):
        node[where[-1]] = value
    return data


documents = st.one_of(
    mechanisms().map(lambda d: json.dumps(d, indent=2, ensure_ascii=False).encode()),
    st.builds(
        _mutate,
        mechanisms(),
        st.lists(
            st.sampled_from(["scenarios", "steps", "targets", "state", "active", "title", "sources", "x"]),
            min_size=1,
            max_size=4,
        ),
        json_values,
    ).map(lambda d: json.dumps(d).encode()),
    st.tuples(mechanisms(), st.integers(min_value=0, max_value=2000), st.binary(max_size=6)).map(
        lambda t: (lambda raw: raw[: t[1]] + t[2] + raw[t[1] :])(json.dumps(t[0]).encode())
    ),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _outputs(target: Path, root: Path) -> dict[str, str]:
    report = lint([target], Config(root=root), root=root, fingerprints=True)
    assert not [r for r in report.results if r.rule_id == "mechlint/internal-error"], report.results
    assert not report.notifications
    options = OutputOptions(root_uri=root.as_uri() + "/", tool_version="0")
    return {name: reporter(name)(report, options) for name in FORMATS}


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(documents)
def test_generated_documents_through_every_report(folder: Path, raw: bytes) -> None:
    target = folder / "mechanisms" / "fuzz.json"
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(raw)
    first = _outputs(target, folder)
    SARIF_VALIDATOR.validate(json.loads(first["sarif"]))
    json.loads(first["json"])
    assert _outputs(target, folder) == first
