"""The edges of the ``a11y/`` rules that ``scripts/mutate.py`` found unchecked (issue 32).

Each test is named after the rule module it is about (``alt_length``), so that
the mutation run, which first runs the tests named after a rule, picks it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from mechlint.config import Config, load_config
from mechlint.errors import ConfigError
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

BASE: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
ALT_LENGTH = "a11y/alt-length"


def _found(data: dict[str, Any], rule: str, config: Config | None = None) -> list[tuple[str, str]]:
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [(r.pointer, r.message) for r in lint_bytes(raw, config=config or Config()) if r.rule_id == rule]


def _with_alt(alt: str) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["alt"] = alt
    return data


def test_alt_length_allows_the_limit_and_reports_one_more_exactly() -> None:
    assert _found(_with_alt("x" * 150), ALT_LENGTH) == []
    assert _found(_with_alt("x" * 151), ALT_LENGTH) == [
        (
            "/alt",
            "alt has 151 characters, more than 150; keep the gist here and move details to description",
        )
    ]


def test_alt_length_counts_runs_of_white_space_as_one() -> None:
    assert _found(_with_alt("x  " * 75), ALT_LENGTH) == []  # 75 words: 149 characters once spaces are folded


@pytest.mark.parametrize(
    ("value", "problem"), [(1, None), (0, "max-length: expected a whole number of at least 1; got 0")]
)
def test_alt_length_limit_has_its_least_value(tmp_path: Path, value: int, problem: str | None) -> None:
    (tmp_path / "mechlint.toml").write_text(f'[rules."{ALT_LENGTH}"]\nmax-length = {value}\n')
    if problem is None:
        assert load_config(start=tmp_path).options[ALT_LENGTH] == {"max-length": value}
        assert _found(_with_alt("xy"), ALT_LENGTH, Config(options={ALT_LENGTH: {"max-length": 1}})) == [
            ("/alt", "alt has 2 characters, more than 1; keep the gist here and move details to description")
        ]
    else:
        with pytest.raises(ConfigError) as caught:
            load_config(start=tmp_path)
        assert str(caught.value).endswith(f'rules."{ALT_LENGTH}".{problem}')


@pytest.mark.parametrize("alt", ["", " \n\t "])
def test_alt_missing_says_what_to_write(alt: str) -> None:
    assert _found(_with_alt(alt), "a11y/alt-missing") == [
        ("/alt", "alt is empty; write one or two sentences that say what the diagram shows")
    ]


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        (  # Serbia and Montenegro split in two: no one replacement
            "sr-CS",
            "\"sr-CS\": the region subtag 'CS' is deprecated; "
            "see the IANA Language Subtag Registry for its replacement",
        ),
        ("in-ID", '"in-ID": the language subtag \'in\' is deprecated in favour of "id"; write "id-ID"'),
        (
            "en-GB-oed",
            '"en-GB-oed": the tag \'en-GB-oed\' is deprecated in favour of "en-GB-oxendict"; write "en-GB-oxendict"',
        ),
    ],
)
def test_language_deprecated_names_the_replacement_and_the_tag_to_write(tag: str, message: str) -> None:
    data = copy.deepcopy(BASE)
    data["language"] = tag
    assert _found(data, "a11y/language-deprecated") == [("/language", message)]
