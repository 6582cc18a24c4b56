"""a11y/language: the grammar of RFC 5646, the IANA registry, and the likely tag for a wrong one."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mechlint.document import Document
from mechlint.language import langregistry
from mechlint.language.bcp47 import parse, problem
from mechlint.rules import RuleContext
from mechlint.rules.a11y import language, language_deprecated

from .conftest import ROOT


def _messages(tag: str) -> list[str]:
    document = Document(path="x.json", raw=b"", text="", data={"language": tag})
    return [finding.message for finding in language.check(document, RuleContext())]


@pytest.mark.parametrize(
    "tag",
    [
        "xh",
        "xh-ZA",
        "xog",
        "XH",
        "xal",
        "xnr-IN",
        "en-US",
        "EN-us",
        "en-us",
        "zh-yue",
        "qaa",
        "sgn-BE-FR",
        "de-CH-1901",
    ],
)
def test_registered_tags_pass(tag: str) -> None:
    assert problem(tag) is None
    assert _messages(tag) == []


@pytest.mark.parametrize("tag", ["x-whatever", "x-a-b", "en-x-twain", "X-private"])
def test_private_use_starts_only_with_the_singleton_x(tag: str) -> None:
    assert _messages(tag) == []


@pytest.mark.parametrize("tag", ["english", "german", "abcd", "Deutsch", "klingonx"])
def test_long_language_subtags_are_well_formed_but_unregistered(tag: str) -> None:
    assert problem(tag) is None
    (message,) = _messages(tag)
    assert "not well-formed" not in message
    assert "not registered" in message


@pytest.mark.parametrize(
    ("tag", "likely"),
    [
        ("en_US", "en-US"),
        ("en_us", "en-US"),
        ("EN-us-", "en-US"),
        ("en--GB", "en-GB"),
        ("en GB", "en-GB"),
        (" de ", "de"),
        ("english", "en"),
        ("English", "en"),
        ("xhosa", "xh"),
        ("portuguese", "pt"),
        ("en-UK", "en-GB"),
        ("iw_IL", "he-IL"),
        ("in_ID", "id-ID"),
        ("de_DD", "de-DE"),
        ("sr_latn_rs", "sr-Latn-RS"),
        ("zh_min_nan", "nan"),
        ("en-yue", "yue"),
    ],
)
def test_the_message_suggests_the_likely_tag(tag: str, likely: str) -> None:
    assert langregistry.likely(tag) == likely
    (message,) = _messages(tag)
    assert f'did you mean "{likely}"?' in message


@pytest.mark.parametrize(
    ("tag", "named"),
    [
        ("zz", "'zz'"),
        ("en-Abcd", "'Abcd'"),
        ("en-QQQ", None),
        ("en-AA1", None),
        ("de-JJ", "'JJ'"),
        ("en-abcde", "'abcde'"),
    ],
)
def test_unregistered_subtags_are_named(tag: str, named: str | None) -> None:
    (message,) = _messages(tag)
    if named is not None:
        assert named in message and "not registered" in message


def test_an_extended_language_must_follow_its_prefix() -> None:
    (message,) = _messages("en-yue")
    assert "'zh'" in message


@pytest.mark.parametrize("tag", ["a" * 300, "en-" + "-".join(["abcde"] * 40), "\u0445h", "en-\u0399\u039d"])
def test_hostile_tags_get_one_finding_and_no_crash(tag: str) -> None:
    assert len(_messages(tag)) == 1


def test_canonical_case() -> None:
    tag, _ = parse("SR-latn-rs-X-Foo")
    assert tag is not None and tag.canonical() == "sr-Latn-RS-x-foo"


def test_the_registry_is_read_only_when_a_tag_is_checked() -> None:
    code = (
        "import sys, mechlint, mechlint.rules.a11y.language, mechlint.run.engine\n"
        "assert 'mechlint.language.langregistry' not in sys.modules, 'imported at start-up'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def _refresh_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refresh", ROOT / "scripts" / "refresh_language_subtags.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REGISTRY_EXCERPT = """File-Date: 2024-05-16
%%
Type: language
Subtag: en
Description: English
Added: 2005-10-16
%%
Type: language
Subtag: iw
Description: Hebrew
Added: 2005-10-16
Deprecated: 1989-01-01
Preferred-Value: he
%%
Type: language
Subtag: he
Description: Hebrew
Added: 2005-10-16
%%
Type: language
Subtag: qaa..qtz
Description: Private use
Added: 2005-10-16
%%
Type: extlang
Subtag: yue
Description: Yue Chinese
Added: 2009-07-29
Preferred-Value: yue
Prefix: zh
Macrolanguage: zh
%%
Type: region
Subtag: GB
Description: United Kingdom
Added: 2005-10-16
%%
Type: grandfathered
Tag: i-klingon
Description: Klingon
Added: 1999-05-26
Deprecated: 2004-02-24
Preferred-Value: tlh
"""


def test_the_refresh_script_derives_the_table_from_the_registry_text(tmp_path: Path) -> None:
    source = tmp_path / "language-subtag-registry"
    source.write_text(REGISTRY_EXCERPT, encoding="utf-8")
    output = tmp_path / "subtags.json"
    assert _refresh_script().main([str(source), str(output)]) == 0
    table = json.loads(output.read_text(encoding="utf-8"))
    assert table["file-date"] == "2024-05-16"
    assert table["language"].split() == sorted(
        ["en", "he", "iw", *[f"q{a}{b}" for a in "abcdefghijklmnopqrst" for b in "abcdefghijklmnopqrstuvwxyz"]]
    )
    assert table["extlang-prefix"] == {"yue": "zh"}
    assert table["deprecated"]["language"] == {"iw": "he"}
    assert table["deprecated"]["tag"] == {"i-klingon": "tlh"}
    assert table["region"] == "gb"
    names = json.loads((tmp_path / "names.json").read_text(encoding="utf-8"))
    assert names == {"english": "en", "hebrew": "he"}  # a deprecated subtag is never suggested


def test_the_shipped_table_is_what_the_script_makes_of_its_own_output_format() -> None:
    table = langregistry.registry()
    assert table.file_date >= "2024-05-16"
    assert all(code in table.subtags["language"] for code in ("en", "de", "xh", "xog", "he", "iw", "qaa", "qtz"))
    assert not any(code in table.subtags["language"] for code in ("english", "zz", "e n", "", "en de"))
    assert table.deprecated["language"]["iw"] == "he"
    assert table.names["english"] == "en"


def _deprecated(tag: str) -> list[str]:
    document = Document(path="x.json", raw=b"", text="", data={"language": tag})
    return [finding.message for finding in language_deprecated.check(document, RuleContext())]


@pytest.mark.parametrize(
    ("tag", "likely"),
    [
        ("iw", "he"),
        ("in-ID", "id-ID"),
        ("mo", "ro"),
        ("de-DD", "de-DE"),
        ("my-BU", "my-MM"),
        ("i-klingon", "tlh"),
        ("zh-yue-HK", "yue-HK"),
        ("sgn-BE-FR", "sfb"),
        ("zh-guoyu", "cmn"),
    ],
)
def test_deprecated_subtags_are_a_warning_with_the_preferred_tag(tag: str, likely: str) -> None:
    assert _messages(tag) == []  # registered: no error
    (message,) = _deprecated(tag)
    assert f'write "{likely}"' in message


@pytest.mark.parametrize("tag", ["he", "en-GB", "yue-HK", "xh-ZA", "EN-us", "en_US", "english", "x-iw"])
def test_current_or_wrong_tags_are_not_called_deprecated(tag: str) -> None:
    assert _deprecated(tag) == []


@pytest.mark.parametrize("tag", ["en-USA", "de-DEU"])
def test_a_three_letter_region_is_explained(tag: str) -> None:
    (message,) = _messages(tag)
    assert "a region is 2 letters" in message


@pytest.mark.parametrize(
    ("tag", "code_point", "likely"),
    [
        ("\u0435n", "U+0435", "en"),
        ("\uff45\uff4e-GB", "U+FF45", "en-GB"),
        ("en\u2010GB", "U+2010", "en-GB"),
        ("en\u200b", "U+200B", "en"),
    ],
)
def test_a_look_alike_character_in_a_tag_is_named(tag: str, code_point: str, likely: str) -> None:
    (message,) = _messages(tag)
    assert code_point in message
    assert f'did you mean "{likely}"?' in message
