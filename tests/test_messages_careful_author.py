"""Messages a careful author understands (issue 26, point 6).

A malformed key gets no suggested id with a space in it; a three-letter ISO
639 code and an unregistered variant get the registered tag they mean; a
label of white space or of invisible characters says which, and names every
character, controls included.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from mechlint.model import Result
from mechlint.run.engine import lint_bytes
from mechlint.text.charnames import char_name, described
from mechlint.text.lookalike import odd_characters

from .test_corpus import BLOG, CORPUS, GC


def base() -> Any:
    return json.loads((CORPUS / BLOG / GC).read_text(encoding="utf-8"))


def findings(doc: Any, rule: str) -> list[Result]:
    return [r for r in lint_bytes(json.dumps(doc, indent=2).encode()) if r.rule_id == rule]


def with_key(doc: Any, old: str, new: str, target_id: str) -> Any:
    doc["targets"] = {(new if key == old else key): value for key, value in doc["targets"].items()}
    doc["targets"][new]["id"] = target_id
    return doc


# -- id-mismatch for a malformed key ------------------------------------------------


def test_an_id_that_follows_the_well_formed_spelling_of_a_spaced_key_is_left_to_the_schema() -> None:
    doc = with_key(base(), "a", "page fault", "mechanism-page-fault")
    assert findings(doc, "reference/id-mismatch") == []
    assert [r.pointer for r in findings(doc, "schema/violation")] == ["/targets/page fault"]


def test_a_malformed_key_with_another_id_points_at_the_key_and_suggests_no_id_with_a_space() -> None:
    doc = with_key(base(), "a", "page fault", "mechanism-pf")
    [found] = findings(doc, "reference/id-mismatch")
    assert found.pointer == "/targets/page fault/id"
    assert found.message == (
        'the target "page fault" has the id "mechanism-pf", but no id can follow its key: "page fault" is not a '
        "well-formed key (a lowercase letter, then lowercase letters, digits, _ or -); rename it to "
        '"page-fault" and give the target the id "mechanism-page-fault"'
    )
    assert "mechanism-page fault" not in found.message


def test_a_key_with_no_well_formed_spelling_gets_no_invented_key() -> None:
    doc = with_key(base(), "a", "0 0", "mechanism-zero")
    [found] = findings(doc, "reference/id-mismatch")
    assert "rename it to a key and give the target the id" in found.message
    assert '"mechanism-" followed by the new key' in found.message


def test_a_well_formed_key_still_gets_the_expected_id() -> None:
    """Regression guard: the usual mismatch is unchanged."""
    doc = base()
    doc["targets"]["a"]["id"] = "mechanism-b2"
    [found] = findings(doc, "reference/id-mismatch")
    assert found.message == 'the target "a" has the id "mechanism-b2"; expected "mechanism-a"'


# -- language tags --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "likely"),
    [
        ("xho-ZA", "xh-ZA"),
        ("eng", "en"),
        ("eng-GB", "en-GB"),
        ("ger", "de"),  # ISO 639-2/B
        ("deu-CH", "de-CH"),  # ISO 639-2/T
        ("fre-CA", "fr-CA"),
        ("en-GB-oxford", "en-GB-oxendict"),
        ("en-scotlnd", "en-scotland"),
    ],
)
def test_the_message_suggests_the_registered_tag(tag: str, likely: str) -> None:
    doc = base()
    doc["language"] = tag
    [found] = findings(doc, "a11y/language")
    assert found.message.endswith(f'did you mean "{likely}"?')
    assert "such as" not in found.message


def test_a_three_letter_code_says_why_it_is_not_registered() -> None:
    doc = base()
    doc["language"] = "xho-ZA"
    [found] = findings(doc, "a11y/language")
    assert "'xho' is not registered: it is the ISO 639-2/3 code of a language that BCP 47 writes with its " in (
        found.message
    )


@pytest.mark.parametrize("tag", ["xog", "yue", "en-GB-oxendict", "sgn-BE-FR"])
def test_registered_three_letter_codes_and_variants_stay_clean(tag: str) -> None:
    """Regression guard: Soga (xog) and Cantonese (yue) have no two-letter code; oxendict is registered."""
    doc = base()
    doc["language"] = tag
    assert findings(doc, "a11y/language") == []


@pytest.mark.parametrize(
    ("tag", "advice"),
    [
        ("qq-ZZ", "use only subtags the registry has, or drop the others"),
        ("e_n", "write the language subtag first (2 or 3 letters), then any script, region and variants"),
    ],
)
def test_without_a_likely_tag_the_advice_is_specific_never_a_list(tag: str, advice: str) -> None:
    doc = base()
    doc["language"] = tag
    [found] = findings(doc, "a11y/language")
    assert advice in found.message
    assert "en, en-GB or de" not in found.message


# -- labels -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "says"),
    [
        ("", 'the target "a" has an empty label; name what the box or arrow is'),
        (
            "\u2003",
            'the target "a" has a label of only white space (U+2003 EM SPACE); name what the box or arrow is',
        ),
        (
            " \t",
            'the target "a" has a label of only white space (U+0020 SPACE, U+0009 CHARACTER TABULATION); '
            "name what the box or arrow is",
        ),
        (
            "\x1f",
            'the target "a" has a label with no visible character (U+001F INFORMATION SEPARATOR ONE); '
            "name what the box or arrow is",
        ),
        (
            "\u200b",
            'the target "a" has a label with no visible character (U+200B ZERO WIDTH SPACE); '
            "name what the box or arrow is",
        ),
    ],
)
def test_a_label_that_shows_nothing_says_what_it_holds(label: str, says: str) -> None:
    doc = base()
    doc["targets"]["a"]["label"] = label
    assert [r.message for r in findings(doc, "a11y/label-missing")] == [says]


@pytest.mark.parametrize("label", ["A", "Root set", "\u00a0A", "x\x1f"])
def test_a_label_with_a_visible_character_is_not_missing(label: str) -> None:
    doc = base()
    doc["targets"]["a"]["label"] = label
    assert findings(doc, "a11y/label-missing") == []


@pytest.mark.parametrize(
    ("char", "name"),
    [
        ("\x00", "NULL"),
        ("\x1f", "INFORMATION SEPARATOR ONE"),
        ("\x7f", "DELETE"),
        ("\x85", "NEXT LINE"),
        ("\x9f", "APPLICATION PROGRAM COMMAND"),
        ("\u2003", "EM SPACE"),
        ("\ue000", "a private-use character"),
        ("\U000e0080", "an unassigned code point"),
    ],
)
def test_every_character_has_a_name(char: str, name: str) -> None:
    assert char_name(char) == name
    assert described(char) == f"U+{ord(char):04X} {name}"


def test_every_control_character_has_its_alias() -> None:
    controls = [chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) == "Cc"]
    assert len(controls) == 65
    for char in controls:
        assert unicodedata.lookup(char_name(char)) == char


def test_look_alike_descriptions_name_control_characters() -> None:
    assert odd_characters("en\x1f") == ["U+001F INFORMATION SEPARATOR ONE"]
