"""The edges inside rules: the values at which a verdict turns, each checked from both sides.

Each test is named after the rule module it is about, so that
``scripts/mutate.py`` (which runs these for every rule) and a reader find them.
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from mechlint.config import Config, load_config
from mechlint.errors import ConfigError
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

BASE: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))


def _clean() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def _found(data: dict[str, Any], rule: str, config: Config | None = None) -> list[tuple[str, str]]:
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [(r.pointer, r.message) for r in lint_bytes(raw, config=config or Config()) if r.rule_id == rule]


# -- a11y/reading-time ----------------------------------------------------------------------------------------

READING = "a11y/reading-time"


def _step_with_text(characters: int, duration: int) -> dict[str, Any]:
    """The clean file with a first step whose only new text is ``characters`` long."""
    data = _clean()
    step = data["scenarios"][0]["steps"][0]
    step["description"] = "x" * characters
    step["state"] = dict(data["scenarios"][0]["initial"])  # nothing changes: no state text to read
    step["duration"] = duration
    return data


def test_reading_time_fires_at_one_millisecond_and_not_at_zero() -> None:
    """0 ms is the schema's to report (a duration is positive); 1 ms is far too short, and said so exactly."""
    data = _clean()
    data["scenarios"][0]["steps"][0]["duration"] = 0
    assert _found(data, READING) == []
    data["scenarios"][0]["steps"][0]["duration"] = 1
    assert _found(data, READING) == [
        (
            "/scenarios/0/steps/0/duration",
            '"A prefills the prefix" needs 3.0 s to read (50 characters at 17 per second), has 0.0 s; '
            "make it at least 3000 ms or show less text",
        )
    ]


@pytest.mark.parametrize(
    ("characters", "duration", "fires"),
    [
        (0, 999, True),  # no text still needs the minimum of 1 s
        (0, 1000, False),
        (34, 1999, True),  # 34 characters at 17 per second: 2 s
        (34, 2000, False),
        (35, 2058, True),  # 2.0588… s, rounded up to 2.1 s in the message
        (35, 2059, False),
    ],
)
def test_reading_time_boundaries_of_rate_and_minimum(characters: int, duration: int, fires: bool) -> None:
    assert bool(_found(_step_with_text(characters, duration), READING)) is fires


def test_reading_time_message_rounds_the_need_up_to_a_tenth() -> None:
    [(_, message)] = _found(_step_with_text(35, 1500), READING)
    assert message == (
        '"A prefills the prefix" needs 2.1 s to read (35 characters at 17 per second), has 1.5 s; '
        "make it at least 2100 ms or show less text"
    )


@pytest.mark.parametrize(("duration", "has"), [(1049, "1.0"), (1050, "1.1")])
def test_reading_time_message_gives_the_duration_in_tenths_of_a_second(duration: int, has: str) -> None:
    [(_, message)] = _found(_step_with_text(35, duration), READING)
    assert f", has {has} s;" in message


def test_reading_time_names_an_untitled_step_this_step() -> None:
    data = _step_with_text(35, 1500)
    del data["scenarios"][0]["steps"][0]["title"]
    [(_, message)] = _found(data, READING)
    assert message.startswith("this step needs 2.1 s to read (35 characters")


def test_reading_time_options_change_the_rate_and_the_minimum() -> None:
    config = Config(options={READING: {"characters-per-second": 1, "minimum-seconds": 0}})
    first = "/scenarios/0/steps/0/duration"
    assert first in [p for p, _ in _found(_step_with_text(3, 2999), READING, config)]
    assert first not in [p for p, _ in _found(_step_with_text(3, 3000), READING, config)]
    assert first not in [p for p, _ in _found(_step_with_text(0, 1), READING, config)]  # no text, no minimum


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ("characters-per-second = 1", None),
        ("characters-per-second = 0.5", "characters-per-second: expected a number of at least 1; got 0.5"),
        ("minimum-seconds = 0", None),
        ("minimum-seconds = -1", "minimum-seconds: expected a number of at least 0; got -1"),
    ],
)
def test_reading_time_options_have_their_least_values(tmp_path: Path, setting: str, problem: str | None) -> None:
    (tmp_path / "mechlint.toml").write_text(f'[rules."a11y/reading-time"]\n{setting}\n')
    if problem is None:
        assert load_config(start=tmp_path).options[READING] == tomllib.loads(setting)
    else:
        with pytest.raises(ConfigError) as caught:
            load_config(start=tmp_path)
        assert str(caught.value).endswith(f'rules."a11y/reading-time".{problem}')


@pytest.mark.parametrize("duration", [True, 1.5, "1000", None])
def test_reading_time_leaves_a_duration_that_is_no_whole_number_to_the_schema(duration: Any) -> None:
    assert _found(_step_with_text(340, duration), READING) == []


def test_reading_time_counts_a_state_value_only_when_it_changes() -> None:
    data = _step_with_text(0, 1000)
    steps = data["scenarios"][0]["steps"]
    steps[0]["state"]["stage"] = "y" * 34  # new text: 34 characters, 2 s
    assert [p for p, _ in _found(data, READING)] == ["/scenarios/0/steps/0/duration"]
    steps[0]["duration"] = 2000
    steps[1]["state"] = dict(steps[0]["state"])  # the next step keeps it: nothing new to read there
    steps[1]["description"] = ""
    steps[1]["duration"] = 1000
    assert _found(data, READING) == []


# -- reference/unused-target ----------------------------------------------------------------------------------

UNUSED = "reference/unused-target"


def test_unused_target_reports_a_malformed_key_that_no_step_names() -> None:
    data = _clean()
    data["targets"]["A9"] = {"id": "mechanism-a9", "kind": "node", "label": "x"}
    assert _found(data, UNUSED) == [
        ("/targets/A9", 'the target "A9" is not lit or animated by any step; use it in a step or remove it')
    ]


def test_unused_target_points_at_the_key_not_its_value() -> None:
    data = _clean()
    data["targets"]["extra"] = {"id": "mechanism-extra", "kind": "node", "label": "x"}
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    [result] = [r for r in lint_bytes(raw, config=Config()) if r.rule_id == UNUSED]
    line = raw.decode().splitlines()[result.region.start_line - 1]
    assert line == '    "extra": {'
    assert (result.region.start_column, result.region.end_column) == (5, 12)  # "extra", quotes included


def test_unused_target_leaves_a_malformed_key_that_steps_name_well_formed_to_the_schema() -> None:
    data = _clean()
    data["targets"]["A0"] = data["targets"].pop("a0")
    assert _found(data, UNUSED) == []


def test_unused_target_reports_a_well_formed_key_even_when_steps_name_its_other_case() -> None:
    data = _clean()
    data["targets"]["tail"]["id"] = "mechanism-tail"
    data["targets"]["tial"] = {"id": "mechanism-tial", "kind": "node", "label": "x"}
    assert [p for p, _ in _found(data, UNUSED)] == ["/targets/tial"]


# -- plain/undefined-acronym ----------------------------------------------------------------------------------

ACRONYM = "plain/undefined-acronym"


@pytest.mark.parametrize(
    ("caption", "defined"),
    [
        ("The time to first token (TTFT) is short.", True),
        ("TTFT (time to first token) is short.", True),
        ("TTFT stands for time to first token.", True),
        ("(TTFT) is short.", False),  # no words before the parenthesis
        ("Go (TTFT) now.", True),  # two letters are a word
        ("The time to first token ( TTFT ) is short.", True),  # spaces inside the parentheses
        ("Go" + " " * 78 + "(TTFT) now.", True),  # the word is looked for in the 80 characters before "("
        ("Go" + " " * 79 + "(TTFT) now.", False),
        ("A (TTFT) is short.", False),  # one letter is not words
        ("The TTFT (2 ms) is short.", False),  # a parenthesis that is no expansion
        ("The TTFT (see below) is short.", False),  # words, but none starts with T
        ("The TTFT (time to first token is short.", False),  # never closed
        ("Time to first token (TTFT is short.", False),  # never closed
        ("TTFT stands for a number.", False),
    ],
)
def test_undefined_acronym_definitions(caption: str, defined: bool) -> None:
    data = _clean()
    data["caption"] = caption
    found = _found(data, ACRONYM)
    assert found == ([] if defined else [("/caption", _undefined("TTFT"))])


def _undefined(word: str, within: str = "") -> str:
    inside = f' in "{within}"' if within else ""
    return (
        f'the acronym "{word}"{inside} is not defined in this file; write it out once, as in "words ({word})", '
        "or, if every reader knows it, add it to `allow = [...]` in a word-list file named by `word-lists = [...]` "
        "in the configuration (mechlint.toml or [tool.mechlint])"
    )


@pytest.mark.parametrize(
    ("caption", "reported"),
    [
        ("The QQ and the QQQQQ wait for QQ.", ["QQ", "QQQQQ"]),  # two to five capitals; each reported once
        ("The QQQQQQ waits.", []),  # six capitals: a name
        ("The QQs wait.", ["QQ"]),  # a plural names the acronym without its s
        ("It stays in LISTEN-QQ.", ["QQ"]),  # a name joined to an acronym: the acronym counts
        ("It stays in LISTEN-A.", []),  # a name joined to a letter: a name
        ("It stays in LISTEN-QQQQQ.", ["QQQQQ"]),  # five capitals joined to a name: still an acronym
        ("The Q/Z link.", ["Q/Z"]),  # letters joined: one acronym, reported whole
        ("In phase XIV it waits.", []),  # a Roman numeral
        ("The QQ-GPU waits.", ["QQ"]),  # a compound: its undefined part, named within it (GPU is allowed)
    ],
)
def test_undefined_acronym_what_counts(caption: str, reported: list[str]) -> None:
    data = _clean()
    data["caption"] = caption
    found = _found(data, ACRONYM)
    assert [message.split('"')[1] for _, message in found] == reported
    if caption.startswith("The QQ-GPU"):
        assert found == [("/caption", _undefined("QQ", within="QQ-GPU"))]


@pytest.mark.parametrize(("caption", "marked"), [("The QQs wait.", "QQ"), ("It stays in LISTEN-QQQQQ.", "QQQQQ")])
def test_undefined_acronym_marks_the_acronym_alone(caption: str, marked: str) -> None:
    data = _clean()
    data["caption"] = caption
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    [result] = [r for r in lint_bytes(raw, config=Config()) if r.rule_id == ACRONYM]
    region = result.region
    assert region.start_line == region.end_line
    line = raw.decode().splitlines()[region.start_line - 1]
    assert line[region.start_column - 1 : region.end_column - 1] == marked
