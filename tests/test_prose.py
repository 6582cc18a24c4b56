"""Tables for the prose helpers and the a11y/plain rules that need more than fixture files."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.document.prose import sentences, syllables, words
from mechlint.language.bcp47 import problem
from mechlint.language.plainlists import PlainLists, Substitution, inflections, shipped
from mechlint.rules.plain.passive_voice import passives
from mechlint.rules.plain.readability import grade
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN, SEED


def _texts(text: str, ranges: list[tuple[int, int]]) -> list[str]:
    return [text[a:b] for a, b in ranges]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two.", ["One.", "Two."]),
        ("Use e.g. this one. Next.", ["Use e.g. this one.", "Next."]),
        ("That is, i.e. the key. Then B.", ["That is, i.e. the key.", "Then B."]),
        ("It takes 1.5 s. Then v1.2.3 runs.", ["It takes 1.5 s.", "Then v1.2.3 runs."]),
        ("P=4 is an example. B waits.", ["P=4 is an example.", "B waits."]),
        ("Wait... then go. Done.", ["Wait... then go.", "Done."]),
        ("Wait… Then go.", ["Wait… Then go."]),
        ('He said "Stop." Then B ran.', ['He said "Stop."', "Then B ran."]),
        ('The label says "Go." before it runs.', ['The label says "Go." before it runs.']),
        ("Why? Because.", ["Why?", "Because."]),
        ("Title without a stop", ["Title without a stop"]),
        ("Line one\nLine two", ["Line one", "Line two"]),
        ("Apples, pears, etc. The rest.", ["Apples, pears, etc.", "The rest."]),
        ("", []),
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    assert _texts(text, sentences(text)) == expected


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("A prefills the prefix.", 4),
        ("The two-token tail is new.", 5),
        ("P=4 is an example.", 4),
        ("Use K/V and p1–p4 here.", 5),
        ("It waits 3000 ms here.", 4),
        ("Run `mechlint check --all` now.", 3),
        ("B’s tail — and A's.", 4),
        ("e.g. this", 2),
    ],
)
def test_words_count_like_ste(text: str, count: int) -> None:
    assert len(words(text)) == count


@pytest.mark.parametrize(
    ("word", "count"),
    [
        ("cat", 1),
        ("table", 2),
        ("stored", 1),
        ("compared", 2),
        ("needed", 2),
        ("uses", 2),
        ("makes", 1),
        ("action", 2),
        ("ratio", 3),
        ("media", 3),
        ("special", 2),
        ("language", 2),
        ("quality", 3),
        ("implementation", 5),
        ("computation", 4),
        ("necessary", 4),
        ("memory", 3),
        ("every", 2),
        ("the", 1),
        ("reuse", 2),
        ("prefix", 2),
        ("4", 1),
    ],
)
def test_syllables(word: str, count: int) -> None:
    assert syllables(word) == count


def test_flesch_kincaid_grade_formula() -> None:
    # 2 sentences, 6 words, 6 syllables: 0.39 * 3 + 11.8 * 1 - 15.59
    score, count = grade(["The cat sat. The dog ran."])
    assert count == 6
    assert score == pytest.approx(0.39 * 3 + 11.8 - 15.59)


@pytest.mark.parametrize(
    "tag",
    [
        "en",
        "en-GB",
        "de",
        "fil",
        "zh-Hant-TW",
        "sr-Latn-RS",
        "de-CH-1901",
        "es-419",
        "en-US-x-twain",
        "x-private",
        "i-klingon",
        "zh-min-nan",
        "zh-yue-HK",
        "en-a-bbb-b-ccc",
        "EN-gb",
        "sl-rozaj-biske",
    ],
)
def test_well_formed_language_tags(tag: str) -> None:
    assert problem(tag) is None


EMPTY_SUBTAG = "the tag has an empty subtag (two hyphens in a row, or a hyphen at an end)"
LANGUAGE_LENGTH = "the language subtag {!r} must be 2 to 8 letters (for example en, de, fil)"
NOT_ALNUM = "the subtag {!r} must have only ASCII letters and digits, separated by hyphens"
OUT_OF_PLACE = "the subtag {!r} is out of place (order: language, script, region, variants, extensions)"


@pytest.mark.parametrize(
    ("tag", "why"),
    [
        ("", "the tag is empty"),
        ("e", LANGUAGE_LENGTH.format("e")),
        ("en_GB", NOT_ALNUM.format("en_GB")),
        ("en-", EMPTY_SUBTAG),
        ("-en", EMPTY_SUBTAG),
        ("en--GB", EMPTY_SUBTAG),
        ("abcdefghi", LANGUAGE_LENGTH.format("abcdefghi")),
        ("en-GB-GB", OUT_OF_PLACE.format("GB")),
        ("en-x", "the private-use singleton x must be followed by at least one subtag"),
        ("123", LANGUAGE_LENGTH.format("123")),
        ("de-1901-1901", "the variant '1901' appears twice"),
        ("en-a-bbb-a-ccc", "the extension singleton 'a' appears twice"),
        ("en-a", "the extension singleton 'a' must be followed by a subtag of 2 to 8 characters"),
        ("en GB", NOT_ALNUM.format("en GB")),
        (" en", "the tag has white space around it"),
        ("en-ü", NOT_ALNUM.format("ü")),
        ("en-Latn-Latn", OUT_OF_PLACE.format("Latn")),
    ],
)
def test_malformed_language_tags(tag: str, why: str) -> None:
    assert problem(tag) == why


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("The blocks are kept by the cache.", ["are kept"]),
        ("The key is not always compared.", ["is not always compared"]),
        ("It was quickly and fully stored.", []),
        ("It was quickly fully stored.", ["was quickly fully stored"]),
        ("The key isn't compared.", ["isn't compared"]),
        ("The block gets reused again.", ["gets reused"]),
        ("The tail was written.", ["was written"]),
        ("Playback is not measured runtime.", []),
        ("The cache keeps the blocks.", []),
        ("The result is based on the key.", []),
        ("The step is needed.", ["is needed"]),
        ("The speed is red.", []),
        # short regular participles, adverbs between, and what may follow a participle that stays a verb
        ("The block is tied to the request.", ["is tied"]),
        ("The seed is fed and the need is met.", ["is fed", "is met"]),
        ("The bill is duly paid by the scheduler.", ["is duly paid"]),
        ("The key is indeed compared before reuse.", ["is indeed compared"]),
        ("The site is holy ground.", []),
        ("The block is evicted early when memory runs low.", ["is evicted"]),
        ("The flag is considered harmful.", ["is considered"]),
        ("The panel is made visible.", ["is made"]),
        ("The blocks are cached blocks.", []),
        ("The goal is speed.", []),
    ],
)
def test_passive_voice(text: str, found: list[str]) -> None:
    assert _texts(text, list(passives(text))) == found


def test_word_list_inflections_and_phrases() -> None:
    assert inflections("utilize") == ["utilize", "utilized", "utilizes", "utilizing"]
    assert "modifies" in inflections("modify")
    lists = PlainLists.build([Substitution("prior to", "before", ""), Substitution("utilize", "use", "")], [])
    text = "Utilized prior\n to the run; reutilize and utilizer stay."
    assert [text[a:b] for a, b, _ in lists.find(text)] == ["Utilized", "prior\n to"]


def test_shipped_lists_load_and_validate() -> None:
    lists = shipped()
    assert any(entry.word == "utilize" for entry in lists.substitutions)
    assert "KV" in lists.allow


def _findings(data: dict[str, Any], rule: str) -> list[tuple[str, str, int, int]]:
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [
        (r.pointer, r.message, r.region.start_column, r.region.end_column)
        for r in lint_bytes(raw, config=Config())
        if r.rule_id == rule
    ]


def _clean() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
    return data


def test_seed_gets_its_two_known_inconsistencies() -> None:
    report = lint([SEED], Config(root=SEED.parent), root=SEED.parent)
    found = {(r.rule_id, r.pointer) for r in report.results}
    assert ("plain/typography-consistency", "/scenarios/0/steps/2/title") in found
    # "KV" 3 times, "K/V" 4 times: the finding is at the first "KV", the spelling used less
    assert ("plain/term-consistency", "/description") in found
    messages = " ".join(r.message for r in report.results if r.rule_id == "plain/term-consistency")
    assert '"KV"' in messages and '"K/V"' in messages


def test_clean_mechanism_gets_no_prose_finding() -> None:
    report = lint([CLEAN], Config(root=CLEAN.parent), root=CLEAN.parent)
    assert report.results == []


def test_reading_time_message_says_how_much() -> None:
    data = _clean()
    data["scenarios"][0]["steps"][3]["duration"] = 3000
    data["scenarios"][0]["steps"][3]["description"] = "Use the K/V with the same cache key again."
    [(pointer, message, _, _)] = _findings(data, "a11y/reading-time")
    assert pointer == "/scenarios/0/steps/3/duration"
    assert "needs 5.9 s to read" in message and "has 3.0 s" in message


def test_reading_time_leaves_out_unchanged_state_and_the_title() -> None:
    data = _clean()
    step = data["scenarios"][0]["steps"][0]
    step["description"] = "x" * 17
    step["state"] = {"stage": step["title"], "artifact": data["scenarios"][0]["initial"]["artifact"]}
    step["duration"] = 1000
    assert _findings(data, "a11y/reading-time") == []
    step["duration"] = 999
    assert len(_findings(data, "a11y/reading-time")) == 1


def test_word_region_is_narrowed_inside_the_string_with_escapes() -> None:
    data = _clean()
    data["caption"] = "Tab\there. We utilize it."
    raw = json.dumps(data, indent=2).encode()
    [result] = [r for r in lint_bytes(raw, config=Config()) if r.rule_id == "plain/word-choice"]
    line = raw.decode().splitlines()[result.region.start_line - 1]
    assert line[result.region.start_column - 1 : result.region.end_column - 1] == "utilize"


def test_term_consistency_names_each_variant_and_ignores_sentence_case() -> None:
    data = _clean()
    data["caption"] = "Request B uses the cache-key check. Cache key checks are cheap."  # a start: no variant
    [(pointer, message, _, _)] = _findings(data, "plain/term-consistency")
    assert pointer == "/caption"
    assert message.startswith('"cache-key" is a variant of "cache key"') and "(first in title)" in message


def test_typography_names_the_dominant_style() -> None:
    data = _clean()
    data["caption"] = "B's key and A's key match."
    found = _findings(data, "plain/typography-consistency")
    assert found and all("mostly uses curly" in message for _, message, _, _ in found)


def test_acronym_defined_either_way_and_single_letters_are_names() -> None:
    data = _clean()
    data["caption"] = "TTFT (time to first token) is short. Request A and B wait. The QPS stays low."
    found = _findings(data, "plain/undefined-acronym")
    assert [message.split('"')[1] for _, message, _, _ in found] == ["QPS"]


def test_user_word_list_extends_and_removes(tmp_path: Any) -> None:
    (tmp_path / "words.toml").write_text(
        'remove = ["utilize"]\nallow = ["QPS"]\n\n[[words]]\nword = "cached"\nuse = "kept"\nwhy = "house style"\n'
    )
    (tmp_path / "mechlint.toml").write_text('word-lists = ["words.toml"]\n')
    from mechlint.config import load_config

    config = load_config(start=tmp_path)
    data = _clean()
    data["caption"] = "B uses cached blocks. We utilize the QPS."
    raw = json.dumps(data, indent=2).encode()
    found = {(r.rule_id, r.message.split(":")[0]) for r in lint_bytes(raw, config=config)}
    assert ("plain/word-choice", '"cached"') in found
    assert not any(rule == "plain/word-choice" and "utilize" in text for rule, text in found)
    assert not any(rule == "plain/undefined-acronym" for rule, _ in found)


def test_a_broken_word_list_is_a_config_error(tmp_path: Any) -> None:
    from mechlint.config import load_config
    from mechlint.errors import ConfigError

    (tmp_path / "words.toml").write_text('[[words]]\nword = "x"\n')
    (tmp_path / "mechlint.toml").write_text('word-lists = ["words.toml"]\n')
    with pytest.raises(ConfigError) as error:
        load_config(start=tmp_path)
    assert "words.toml" in str(error.value.path)
