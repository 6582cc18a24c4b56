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


def _with_label(label: object) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["targets"]["a0"]["label"] = label
    return data


@pytest.mark.parametrize(
    ("label", "what"),
    [
        ("", "an empty label"),
        (" ", "a label of only white space (U+0020 SPACE)"),
        (  # three different characters: all named, no ellipsis
            " \u2003\t \t",
            "a label of only white space (U+0020 SPACE, U+2003 EM SPACE, U+0009 CHARACTER TABULATION)",
        ),
        (  # four: the first three, then an ellipsis
            " \u2003\t\n",
            "a label of only white space (U+0020 SPACE, U+2003 EM SPACE, U+0009 CHARACTER TABULATION, …)",
        ),
        (
            "\u200b \u001f\u200b",
            "a label with no visible character "
            "(U+200B ZERO WIDTH SPACE, U+0020 SPACE, U+001F INFORMATION SEPARATOR ONE)",
        ),
    ],
)
def test_label_missing_says_what_the_label_holds(label: str, what: str) -> None:
    assert _found(_with_label(label), "a11y/label-missing") == [
        ("/targets/a0/label", f'the target "a0" has {what}; name what the box or arrow is')
    ]


@pytest.mark.parametrize("label", ["a\u200b", " x ", 1, None])
def test_label_missing_leaves_a_visible_label_and_a_label_that_is_no_string_alone(label: object) -> None:
    """A label with one visible character names something; a label that is no string is schema/violation's."""
    assert _found(_with_label(label), "a11y/label-missing") == []


WRITE_FIRST = (
    "write the language subtag first (2 or 3 letters), then any script, region and variants, separated by hyphens"
)
ASCII_ONLY = "must have only ASCII letters and digits, separated by hyphens"


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        (
            "en_GB",
            f'"en_GB" is not a well-formed BCP 47 tag: the subtag \'en_GB\' {ASCII_ONLY}; did you mean "en-GB"?',
        ),
        (  # three characters that are not ASCII: all named
            "\u00e9\u00f1\u00fc",
            f"\"\u00e9\u00f1\u00fc\" is not a well-formed BCP 47 tag: the subtag '\u00e9\u00f1\u00fc' {ASCII_ONLY}; "
            "it has U+00E9 LATIN SMALL LETTER E WITH ACUTE, U+00F1 LATIN SMALL LETTER N WITH TILDE, "
            f"U+00FC LATIN SMALL LETTER U WITH DIAERESIS; {WRITE_FIRST}",
        ),
        (  # four: the first three
            "\u00e9\u00f1\u00fc\u00e7",
            f"\"\u00e9\u00f1\u00fc\u00e7\" is not a well-formed BCP 47 tag: the subtag '\u00e9\u00f1\u00fc\u00e7' "
            f"{ASCII_ONLY}; it has U+00E9 LATIN SMALL LETTER E WITH ACUTE, U+00F1 LATIN SMALL LETTER N WITH TILDE, "
            f"U+00FC LATIN SMALL LETTER U WITH DIAERESIS; {WRITE_FIRST}",
        ),
        (
            "123",
            "\"123\" is not a well-formed BCP 47 tag: the language subtag '123' must be 2 to 8 letters "
            f"(for example en, de, fil); {WRITE_FIRST}",
        ),
        (
            "en-UK",
            '"en-UK" names subtags the IANA Language Subtag Registry does not have: '
            "the region subtag 'UK' is not registered; did you mean \"en-GB\"?",
        ),
        (
            "qq",
            '"qq" names subtags the IANA Language Subtag Registry does not have: '
            "the language subtag 'qq' is not registered; use only subtags the registry has, or drop the others",
        ),
    ],
)
def test_language_message_whole(tag: str, message: str) -> None:
    data = copy.deepcopy(BASE)
    data["language"] = tag
    assert _found(data, "a11y/language") == [("/language", message)]


FLASH_RATE = "a11y/flash-rate"
A0, B0 = ["a0"], ["b0"]


def _steps(durations: list[Any], lit: list[list[str]]) -> dict[str, Any]:
    """The clean file with one step per duration, each lighting the targets of ``lit`` and no path."""
    data = copy.deepcopy(BASE)
    scenario = data["scenarios"][0]
    template = scenario["steps"][0]
    scenario["steps"] = [
        {**copy.deepcopy(template), "duration": d, "active": a, "paths": []}
        for d, a in zip(durations, lit, strict=True)
    ]
    return data


def _flashes(data: dict[str, Any], config: Config | None = None) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """flash-rate's findings with their traces, and any crash of a rule (``mechlint/internal-error``)."""
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [
        (r.rule_id, r.pointer, r.message, [(t.pointer, t.message) for t in r.trace])
        for r in lint_bytes(raw, config=config or Config())
        if r.rule_id in (FLASH_RATE, "mechlint/internal-error")
    ]


def _flash(key: str, span: int, limit: int = 3, window: int = 1000) -> str:
    return (
        f'the target "{key}" changes {limit + 1} times within {span} ms (at most {limit} changes in {window} ms); '
        "make the steps longer or light it steadily"
    )


STEP = "/scenarios/0/steps"


def test_flash_rate_reports_four_changes_within_999_ms_with_each_change_in_the_trace() -> None:
    """``a0`` goes on at the second step; ``b0``, on from the start, is off, on, off, on: its window starts at its
    second change (on and off are counted from the first change, which is always on)."""
    data = _steps([2000, 333, 333, 333, 333, 2000], [B0, A0, B0, A0, B0, B0])
    assert _flashes(data) == [
        (
            FLASH_RATE,
            f"{STEP}/4",
            _flash("a0", 999),
            [
                (f"{STEP}/1/active/0", '"a0" turns on at 2000 ms'),
                (f"{STEP}/2", '"a0" turns off at 2333 ms'),
                (f"{STEP}/3/active/0", '"a0" turns on at 2666 ms'),
                (f"{STEP}/4", '"a0" turns off at 2999 ms'),
            ],
        ),
        (
            FLASH_RATE,
            f"{STEP}/4/active/0",
            _flash("b0", 999),
            [
                (f"{STEP}/1", '"b0" turns off at 2000 ms'),
                (f"{STEP}/2/active/0", '"b0" turns on at 2333 ms'),
                (f"{STEP}/3", '"b0" turns off at 2666 ms'),
                (f"{STEP}/4/active/0", '"b0" turns on at 2999 ms'),
            ],
        ),
    ]


def test_flash_rate_allows_four_changes_spanning_exactly_the_window_and_three_in_any_time() -> None:
    assert _flashes(_steps([2000, 334, 333, 333, 333, 2000], [B0, A0, B0, A0, B0, B0])) == []
    # a0: on, off, on within 500 ms, then steady; b0's four changes span 2500 ms
    assert _flashes(_steps([2000, 250, 250, 250, 2000], [B0, A0, B0, A0, A0])) == []


def test_flash_rate_counts_a_step_of_1_ms_and_skips_a_scenario_with_a_duration_it_cannot_add() -> None:
    """A step of 1 ms is a step; a scenario with a duration of 0, below 0, not a whole number or missing is
    schema/violation's, and flash-rate neither guesses its times nor crashes."""
    lit = [B0, A0, B0, A0, B0, B0]
    (found,) = [f for f in _flashes(_steps([2000, 1, 1, 1, 1, 2000], lit)) if "a0" in f[2]]
    assert found[:3] == (FLASH_RATE, f"{STEP}/4", _flash("a0", 3))
    for odd in (0, -1, 250.0, "250", None):
        assert _flashes(_steps([2000, 250, odd, 250, 250, 2000], lit)) == [], odd


def test_flash_rate_neither_reports_nor_crashes_on_short_steps_that_do_not_flash_or_no_steps() -> None:
    assert _flashes(_steps([250, 250], [A0, B0])) == []
    assert _flashes(_steps([], [])) == []


@pytest.mark.parametrize(("option", "value"), [("max-changes", 1), ("window-ms", 1)])
def test_flash_rate_options_have_their_least_values(tmp_path: Path, option: str, value: int) -> None:
    (tmp_path / "mechlint.toml").write_text(f'[rules."{FLASH_RATE}"]\n{option} = {value}\n')
    assert load_config(start=tmp_path).options[FLASH_RATE][option] == value
    (tmp_path / "mechlint.toml").write_text(f'[rules."{FLASH_RATE}"]\n{option} = {value - 1}\n')
    with pytest.raises(ConfigError) as caught:
        load_config(start=tmp_path)
    assert str(caught.value).endswith(f'rules."{FLASH_RATE}".{option}: expected a whole number of at least 1; got 0')


def test_flash_rate_options_set_the_limit_and_the_window() -> None:
    """At most one change in 300 ms: ``a0``'s second change, 250 ms after its first, crosses it."""
    config = Config(options={FLASH_RATE: {"max-changes": 1, "window-ms": 300}})
    found = _flashes(_steps([2000, 250, 2000], [B0, A0, B0]), config)
    assert [f[:3] for f in found] == [
        (FLASH_RATE, f"{STEP}/2", _flash("a0", 250, limit=1, window=300)),
        (FLASH_RATE, f"{STEP}/2/active/0", _flash("b0", 250, limit=1, window=300)),
    ]


ALT_REDUNDANT = "a11y/alt-redundant"
TITLE = BASE["title"]


def _redundant(**members: Any) -> list[tuple[str, str]]:
    """alt-redundant's findings, and any crash of a rule, on the clean file with ``members`` set."""
    data = copy.deepcopy(BASE)
    data.update(members)
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [
        (r.rule_id, r.message)
        for r in lint_bytes(raw, config=Config())
        if r.rule_id in (ALT_REDUNDANT, "mechlint/internal-error")
    ]


def _repeats(how: str, name: str = "title") -> list[tuple[str, str]]:
    return [(ALT_REDUNDANT, f"alt {how} the {name}; describe what the diagram shows instead of its {name}")]


def _words(length: int) -> str:
    """Prose of exactly ``length`` characters that folding leaves as it is."""
    text = ("a prefills two full blocks and b uses them again " * 60)[:length]
    assert not text.endswith(" ") and len(text) == length
    return text


def _one_letter_changed(text: str) -> str:
    middle = len(text) // 2
    return text[:middle] + ("x" if text[middle] != "x" else "y") + text[middle + 1 :]


def test_alt_redundant_tells_a_repeat_from_a_near_repeat() -> None:
    """The same words in other case and punctuation repeat the title; one letter changed (the same length) nearly
    repeats it."""
    assert _redundant(alt=TITLE.upper() + "!") == _repeats("repeats")
    assert _redundant(alt=_one_letter_changed(TITLE)) == _repeats("nearly repeats")


def test_alt_redundant_reports_a_similarity_of_exactly_0_9() -> None:
    """9 of 11 characters in common (2 × 9 / 20 = 0.9, also the bound the lengths allow) is similar; 9 of 12 is not."""
    assert _redundant(alt="Prefix ok", title="Prefix ok b") == _repeats("nearly repeats")
    assert _redundant(alt="Prefix ok", title="Prefix ok bc") == []


def test_alt_redundant_compares_texts_up_to_2000_characters_without_dropping_common_letters() -> None:
    """A near repeat of 2000 characters is found (``autojunk`` would ignore the letters that are frequent, and the
    similarity would fall to 0.5); one of 2001 characters is not compared at all (a bounded cost)."""
    for length, found in ((2000, _repeats("nearly repeats")), (2001, [])):
        alt = _words(length)
        assert _redundant(alt=alt, title=_one_letter_changed(alt)) == found, length


def test_alt_redundant_leaves_different_words_of_a_similar_length_alone() -> None:
    """The lengths allow a similarity of 0.95, the letters in common only 0.78: not similar."""
    assert _redundant(alt="A prefills the blocks, then B reads them.", title=TITLE) == []


def test_alt_redundant_skips_a_placeholder_title_and_what_is_no_string() -> None:
    """A title that is a placeholder is schema/placeholder's (the caption is still compared); a title, caption or
    alt that is no string is schema/violation's, and alt-redundant does not crash on it."""
    assert _redundant(alt="Todo.", title="TODO") == []
    assert _redundant(alt="Todo.", title="TODO", caption="todo!") == _repeats("repeats", "caption")
    assert _redundant(caption=None) == []
    assert _redundant(title=5, caption=5) == []
    assert _redundant(alt=5) == []
    assert _redundant(alt=None) == []


def test_alt_redundant_says_which_words_announce_an_image() -> None:
    assert _redundant(alt="  An  animated diagram\nshowing how A prefills two blocks.") == [
        (
            ALT_REDUNDANT,
            'alt starts with "An animated diagram showing"; the screen reader already says it is an image, '
            "so start with what it shows",
        )
    ]
