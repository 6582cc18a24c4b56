"""The edges of the ``plain/`` rules that ``scripts/mutate.py`` found unchecked (issue 32).

Each test is named after the rule module it is about (``undefined_acronym``),
so that the mutation run, which first runs the tests named after a rule, picks
it. A rule that crashes reports nothing of its own, so each test through the
engine that expects no finding also expects no ``mechlint/internal-error``;
the other tests call a rule's ``check`` on a small file of their own
(``_check``), where a crash fails the test, and compare whole findings:
pointer, message and span.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mechlint.config import Config, load_config
from mechlint.document import load
from mechlint.errors import ConfigError
from mechlint.rules import RuleContext
from mechlint.rules.plain import (
    passive_voice,
    readability,
    sentence_length,
    term_consistency,
    typography_consistency,
    word_choice,
)
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

ACRONYM = "plain/undefined-acronym"
CRASH = "mechlint/internal-error"


def _check(rule: ModuleType, data: dict[str, Any], **options: Any) -> list[tuple[str, str, tuple[int, int] | None]]:
    """``(pointer, message, span)`` of each finding of ``rule`` on a file made of ``data``, with the rule's
    default options but ``options`` (``max_grade`` for ``max-grade``)."""
    chosen = {option.name: option.default for option in rule.META.options}
    chosen |= {name.replace("_", "-"): value for name, value in options.items()}
    document = load("x.json", json.dumps({"version": 1, **data}, ensure_ascii=False).encode())
    return [(f.pointer, f.message, f.span) for f in rule.check(document, RuleContext(options=chosen))]


def _option_problem(tmp_path: Path, rule: str, setting: str) -> str | None:
    """What the configuration says about ``setting`` in the rule's table: ``None`` when it takes it as written."""
    (tmp_path / "mechlint.toml").write_text(f'[rules."{rule}"]\n{setting}\n')
    try:
        options = load_config(start=tmp_path).options[rule]
    except ConfigError as error:
        return str(error).rsplit(f'rules."{rule}".', 1)[1]
    assert options == tomllib.loads(setting)
    return None


def _found(caption: str, state: str | None = None) -> list[tuple[str, str, str]]:
    """The acronym findings and crashes for ``caption``, with ``state`` the whole value of a state in one step."""
    data: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["caption"] = caption
    if state is not None:
        data["stateLabels"]["link"] = "Link"
        data["scenarios"][0]["initial"]["link"] = "Start"
        for step in data["scenarios"][0]["steps"]:
            step["state"]["link"] = "Start"
        data["scenarios"][0]["steps"][0]["state"]["link"] = state
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [
        (r.rule_id, r.pointer, r.message.split('"')[1])
        for r in lint_bytes(raw, config=Config())
        if r.rule_id in (ACRONYM, CRASH)
    ]


@pytest.mark.parametrize(("state", "without"), [("WAKE", ["WAKE"]), (" WAKE ", ["WAKE"]), ("HOLD-DOWN", ["HOLD"])])
def test_undefined_acronym_a_state_value_of_four_capitals_names_a_state(state: str, without: list[str]) -> None:
    """The whole value (white space around it allowed) is the state's name: the caption may use it; without the
    state, the same caption is reported."""
    caption = f"The server is in {state.strip()}."
    assert _found(caption, state) == []
    assert _found(caption) == [(ACRONYM, "/caption", word) for word in without]


@pytest.mark.parametrize(
    ("caption", "reported"),
    [
        ("Translation lookaside buffers (TLBs) cache pages. A TLB miss is slow.", []),
        ("Translation lookaside buffers (TLBs ) cache pages. A TLB miss is slow.", []),
        ("TLBs (translation lookaside buffers) cache pages. The TLB fills.", []),
        ("TLBs, short for translation lookaside buffers, cache pages. The TLB fills.", []),
        ("The TLBs cache pages. The TLB fills.", ["TLB"]),
        ("The TLBs (see below) cache pages.", ["TLB"]),
    ],
)
def test_undefined_acronym_a_plural_is_defined_where_its_parenthesis_is(caption: str, reported: list[str]) -> None:
    """The plural "s" sits between the acronym and the parenthesis that defines it, or that it defines."""
    assert _found(caption) == [(ACRONYM, "/caption", word) for word in reported]


def test_undefined_acronym_a_state_value_of_three_capitals_is_still_an_acronym() -> None:
    """``SYN-2`` has three capitals: as a state value it is no name, so ``SYN`` in it needs a definition."""
    assert _found("The client waits in SYN-2.", "SYN-2") == [(ACRONYM, "/caption", "SYN")]


# -- word-choice ------------------------------------------------------------------------------------------------


def test_word_choice_message_names_the_word_the_plain_one_and_why() -> None:
    assert _check(word_choice, {"caption": "A utilizes two blocks, prior to B."}) == [
        ("/caption", '"utilizes": use "use" instead (a longer word for the same thing)', (2, 10)),
        ("/caption", '"prior to": use "before" instead (a phrase for one short word)', (23, 31)),
    ]


# -- sentence-length --------------------------------------------------------------------------------------------

NUMBERS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)  # fmt: skip


def _sentence(words: int) -> str:
    """A sentence of ``words`` words ("One two three … twenty one two …")."""
    return " ".join(NUMBERS[index % 20] for index in range(words)).capitalize() + "."


def _too_long(words: int, limit: int, kind: str) -> str:
    quoted = _sentence(words)[:39] + "…"
    return f'the sentence "{quoted}" has {words} words, more than {limit} for {kind}; split it or say less'


def test_sentence_length_step_text_takes_twenty_words_and_other_prose_twenty_five() -> None:
    steps = [{"title": "Go", "description": _sentence(20)}, {"title": "Go", "description": _sentence(21)}]
    data = {"caption": _sentence(25), "alt": _sentence(26), "scenarios": [{"id": "s", "steps": steps}]}
    assert _check(sentence_length, data) == [
        ("/alt", _too_long(26, 25, "descriptive text"), (0, len(_sentence(26)))),
        ("/scenarios/0/steps/1/description", _too_long(21, 20, "step text"), (0, len(_sentence(21)))),
    ]


def test_sentence_length_a_state_value_is_step_text_and_a_limitation_is_not() -> None:
    steps = [{"title": "Go", "state": {"stage": _sentence(21)}}]
    data = {"limitations": [_sentence(21)], "scenarios": [{"id": "s", "steps": steps}]}
    assert _check(sentence_length, data) == [
        ("/scenarios/0/steps/0/state/stage", _too_long(21, 20, "step text"), (0, len(_sentence(21))))
    ]


def test_sentence_length_reports_each_long_sentence_of_a_string_alone() -> None:
    text = f"{_sentence(3)} {_sentence(21)} {_sentence(20)}"
    start = len(_sentence(3)) + 1
    assert _check(sentence_length, {"scenarios": [{"id": "s", "steps": [{"description": text}]}]}) == [
        ("/scenarios/0/steps/0/description", _too_long(21, 20, "step text"), (start, start + len(_sentence(21))))
    ]


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ("step-words = 1", None),
        ("step-words = 0", "step-words: expected a whole number of at least 1; got 0"),
        ("text-words = 1", None),
        ("text-words = 0", "text-words: expected a whole number of at least 1; got 0"),
    ],
)
def test_sentence_length_options_have_their_least_values(tmp_path: Path, setting: str, problem: str | None) -> None:
    assert _option_problem(tmp_path, "plain/sentence-length", setting) == problem


# -- typography-consistency -------------------------------------------------------------------------------------


def _mixed(straight: int, curly: int, style: str) -> str:
    other = "curly" if style == "straight" else "straight"
    counts = {"straight": straight, "curly": curly}
    return (
        f"{other} apostrophe or quote in a file that mostly uses {style} ones ({counts[style]} {style}, "
        f"{counts[other]} {other}); use {style} ones (mechlint fix does it)"
    )


def test_typography_consistency_reports_the_less_used_style_at_its_first_mark() -> None:
    data = {"title": "A's and B's", "caption": "C’s, D’s and “E”.", "alt": "F’s"}
    assert _check(typography_consistency, data) == [("/title", _mixed(2, 5, "curly"), (1, 2))]


def test_typography_consistency_on_a_tie_takes_the_style_written_first() -> None:
    assert _check(typography_consistency, {"title": "B’s key", "caption": "C's tail"}) == [
        ("/caption", _mixed(1, 1, "curly"), (1, 2))
    ]
    assert _check(typography_consistency, {"title": 'B "key"', "caption": "C’s tail, D’s head"}) == [
        ("/caption", _mixed(2, 2, "straight"), (1, 2))
    ]


def test_typography_consistency_counts_labels_and_skips_code_spans() -> None:
    data = {"caption": "Use `'` here: B’s tail. C’s head.", "targets": {"a": {"label": "D's"}}}
    assert _check(typography_consistency, data) == [("/targets/a/label", _mixed(1, 2, "curly"), (1, 2))]


@pytest.mark.parametrize("caption", ["No marks at all.", "Only B’s and “C”.", 'Only B\'s and "C".'])
def test_typography_consistency_one_style_or_none_is_consistent(caption: str) -> None:
    assert _check(typography_consistency, {"caption": caption, "alt": "A `'` mark in code."}) == []


# -- readability ------------------------------------------------------------------------------------------------


def _prose(sentences: int, words: int, two_syllables: int) -> str:
    """``sentences`` sentences of ``words`` words each; the first ``two_syllables`` words have two syllables."""
    out, written = [], 0
    for _ in range(sentences):
        sentence = []
        for _ in range(words):
            sentence.append("window" if written < two_syllables else "cat")
            written += 1
        out.append(" ".join(sentence).capitalize() + ".")
    return " ".join(out)


def _reads_at(grade: str, words: int, limit: str = "9") -> list[tuple[str, str, None]]:
    message = (
        f"the prose reads at Flesch–Kincaid grade {grade} ({words} words), above {limit}; "
        "use shorter sentences and shorter words"
    )
    return [("", message, None)]


def test_readability_grade_nine_is_the_default_limit() -> None:
    # 5 sentences of 20 words: 0.39 × 20 + 11.8 × syllables / 100 − 15.59
    assert _check(readability, {"caption": _prose(5, 20, 47)}) == _reads_at("9.6", 100)  # 147 syllables
    assert _check(readability, {"caption": _prose(5, 20, 38)}) == []  # 138 syllables: grade 8.49


def test_readability_counts_sentences_words_and_syllables_of_all_prose() -> None:
    data = {"caption": _prose(2, 20, 30), "limitations": [_prose(3, 20, 17), "2024, 3000."]}
    assert _check(readability, data) == _reads_at("9.6", 100)  # words without letters are not scored
    assert readability.grade([data["caption"], *data["limitations"]]) == pytest.approx((9.556, 100))


def test_readability_scores_only_a_hundred_words_or_more() -> None:
    assert _check(readability, {"caption": _prose(5, 20, 100)}) == _reads_at("15.8", 100)
    assert _check(readability, {"caption": _prose(1, 99, 99)}) == []  # grade 46.6, but 99 words


def test_readability_a_grade_equal_to_the_limit_is_not_above_it() -> None:
    text = _prose(5, 20, 47)
    score, _ = readability.grade([text])
    assert _check(readability, {"caption": text}, max_grade=score) == []
    assert _check(readability, {"caption": text}, max_grade=score - 0.01) == _reads_at("9.6", 100, "9.546")


def test_readability_a_file_without_words_has_nothing_to_score() -> None:
    assert _check(readability, {"caption": "2024: 3000, 1.5."}, max_grade=-100, min_words=1) == []
    assert readability.grade(["2024."]) == (0.0, 0)


@pytest.mark.parametrize(
    ("language", "scored"),
    [
        ("en", True),
        ("en-GB", True),
        (" EN_us ", True),
        ("de", False),
        ("de-CH", False),
        ("fr_FR", False),
        ("", True),  # no usable tag: a11y/language reports it
        ("123", True),
        ("x", True),
        (None, True),
        (7, True),
    ],
)
def test_readability_scores_only_english_or_an_unusable_tag(language: Any, scored: bool) -> None:
    data = {"caption": _prose(5, 20, 100)} | ({} if language is None else {"language": language})
    assert _check(readability, data) == (_reads_at("15.8", 100) if scored else [])


@pytest.mark.parametrize(
    ("setting", "problem"),
    [("min-words = 1", None), ("min-words = 0", "min-words: expected a whole number of at least 1; got 0")],
)
def test_readability_min_words_has_its_least_value(tmp_path: Path, setting: str, problem: str | None) -> None:
    assert _option_problem(tmp_path, "plain/readability", setting) == problem


# -- passive-voice ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # "used to": a noun phrase or a gerund after it makes "accustomed"; a verb after it keeps the passive
        ("It is used to the noise.", []),
        ("It is used to waiting.", []),
        ("He is used to doing it.", []),
        ("It is used to store the keys.", ["is used"]),
        ("The bell is used to ring the hour.", ["is used"]),
        ("It is used to.", ["is used"]),
        ("The block is used.", ["is used"]),
        ("The block is used again.", ["is used"]),
        # a regular participle has more than four letters; a short "-ed" word is no participle
        ("The file is saved.", ["is saved"]),
        ("The winner is Reed.", []),
        ("The cache is large.", []),
        ("It is indeed.", []),
        # an adverb of more than four letters ending in "-ly", at most two of them
        ("The site is holy ground.", []),
        ("It was quickly fully safely stored.", []),
        ("The key is there.", []),
        ("The key is not compared.", ["is not compared"]),
        ("That is how it is.", []),
        # the words between the verb and the participle, and the word after it
        ("The question is: kept or evicted?", []),
        ("The blocks are kept; others go.", ["are kept"]),
        ("The block is evicted quickly.", ["is evicted"]),
        # code spans are no prose
        ("The note `is kept` stays.", []),
        ("The blocks are kept in `a is kept`.", ["are kept"]),
    ],
)
def test_passive_voice_edges(text: str, found: list[str]) -> None:
    assert [text[start:end] for start, end in passive_voice.passives(text)] == found


def test_passive_voice_message_and_span_in_title_case() -> None:
    """A title in Title Case: the file's only form of "be" starts with a capital."""
    assert _check(passive_voice, {"title": "Blocks Are Kept By The Cache"}) == [
        ("/title", '"Are Kept" is passive; say who or what does it (active voice)', (7, 15))
    ]


def test_passive_voice_reads_a_file_whose_lower_case_is_longer() -> None:
    """ "İ" is two characters in lower case: the one search over the whole file cannot be mapped back."""
    assert _check(passive_voice, {"title": "İstanbul", "caption": "The blocks are kept by the cache."}) == [
        ("/caption", '"are kept" is passive; say who or what does it (active voice)', (11, 19))
    ]


# -- term-consistency -------------------------------------------------------------------------------------------


def _variant(odd: str, norm: str, often: str, where: str = "caption", tie: str = "", times: int = 1) -> str:
    more = f" ({times} times in this file, first here)" if times > 1 else ""
    rule = {"": "", "first": "; the spelling written first is taken as the rule"}.get(
        tie, "; the spelling whose capitals a sentence or heading start explains is taken as the rule"
    )
    return (
        f'"{odd}"{more} is a variant of "{norm}", which this file uses {often} (first in {where}); '
        f"choose one spelling{rule}"
    )


def test_term_consistency_reports_each_other_spelling_once_at_its_first_use() -> None:
    data = {
        "caption": "The cache key matches. The cache-key is new. A cache key. The cache-key again.",
        "alt": "The CacheKey and the cache key.",
    }
    assert _check(term_consistency, data) == [
        ("/caption", _variant("cache-key", "cache key", "3 times", times=2), (27, 36)),
        ("/alt", _variant("CacheKey", "cache key", "3 times"), (4, 12)),
    ]


def test_term_consistency_a_longer_phrase_around_a_reported_variant_is_not_reported_again() -> None:
    caption = "The ClientHello message starts. The ClientHello message ends. Then the Client Hello message waits."
    assert _check(term_consistency, {"caption": caption}) == [
        ("/caption", _variant("Client Hello", "ClientHello", "2 times"), (71, 83))
    ]


def test_term_consistency_reports_two_variants_in_one_string() -> None:
    data = {
        "caption": "The ClientHello starts. The ClientHello ends. The page table fills.",
        "alt": "The page table.",
        "limitations": ["Then the Client Hello waits for the Page Table."],
    }
    assert _check(term_consistency, data) == [
        ("/limitations/0", _variant("Client Hello", "ClientHello", "2 times"), (9, 21)),
        ("/limitations/0", _variant("Page Table", "page table", "2 times"), (36, 46)),
    ]


@pytest.mark.parametrize(
    ("data", "found"),
    [
        # a capital a start explains joins the spelling without it, which the message quotes
        (
            {"caption": "Page table entries grow. The page table is full. The Page table is empty."},
            [("/caption", _variant("Page table", "page table", "2 times"), (53, 63))],
        ),
        ({"title": "Page Table Walk", "caption": "Page table entries grow."}, []),
        # a number with its unit is one word; its spellings are variants like any other
        (
            {"caption": "The wait is 3000 ms. The wait is 3000ms."},
            [("/caption", _variant("3000ms", "3000 ms", "as often", tie="first"), (33, 39))],
        ),
    ],
)
def test_term_consistency_which_spellings_are_alike(
    data: dict[str, Any], found: list[tuple[str, str, tuple[int, int]]]
) -> None:
    assert _check(term_consistency, data) == found


@pytest.mark.parametrize(
    ("caption", "found"),
    [
        # as often, no start explains either: the spelling written first is the rule
        ("The Page Table is full. The page table is empty.", [("page table", "Page Table", "first", 28)]),
        ("The Page table is full. Page Table entries grow.", [("Page Table", "Page table", "first", 24)]),
        # as often: a spelling whose every capital a start explains is the rule, even written later
        ("The Page Table is full. Page table entries grow.", [("Page Table", "Page table", "start", 4)]),
        ("Page table entries grow. The Page Table is full.", [("Page Table", "Page table", "start", 29)]),
        # a start explains the capital: no variant
        ("Page table entries grow. The page table is full.", []),
        ("Step 2: Page table walk. The page table is full.", []),
    ],
)
def test_term_consistency_on_a_tie(caption: str, found: list[tuple[str, str, str, int]]) -> None:
    assert _check(term_consistency, {"caption": caption}) == [
        ("/caption", _variant(odd, norm, "as often", tie=tie), (start, start + len(odd)))
        for odd, norm, tie, start in found
    ]


def test_term_consistency_titles_and_labels_may_be_in_title_case() -> None:
    caption = "The page table is full."
    assert _check(term_consistency, {"title": "Page Table Walk", "caption": caption}) == []
    assert _check(term_consistency, {"targets": {"a": {"label": "Page Table"}}, "caption": caption}) == []
    assert _check(term_consistency, {"description": "Walk the Page Table.", "caption": caption}) == [
        ("/caption", _variant("page table", "Page Table", "as often", "description", "first"), (4, 14))
    ]


def test_term_consistency_counts_labels_in_check_its_plain_twin_and_its_fix() -> None:
    data = {"caption": "The KV fills.", "targets": {"a": {"label": "K/V"}}}
    expected = [("/targets/a/label", _variant("K/V", "KV", "as often", tie="first"), (0, 3))]
    assert _check(term_consistency, data) == expected
    document = load("x.json", json.dumps({"version": 1, **data}).encode())
    plain = term_consistency.check_plain(document, RuleContext())
    assert [(f.pointer, f.message, f.span) for f in plain] == expected
    assert [
        ([use.written for use in odd], [use.written for use in norm])
        for odd, norm in term_consistency.variant_groups(document)
    ] == [(["K/V"], ["KV"])]
