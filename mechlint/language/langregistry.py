"""Language tags checked against the IANA Language Subtag Registry, and the likely tag for a wrong one.

The registry ships as ``rules/language/subtags.json``, a compact table made
from the registry file by ``scripts/refresh_language_subtags.py``. It is
read on first use only, so a run that never checks a language tag never
loads it.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from mechlint.language.bcp47 import Tag, parse
from mechlint.records import Record
from mechlint.resources import data_folder

#: Region codes people write that ISO 3166 (and so the registry) does not use.
COMMON_REGION_MISTAKES = {"uk": "GB", "en": "GB"}


class Codes:
    """A set of lower-case codes kept as the one space-separated string the table holds: building a set of
    the 8,000 language subtags would cost more than the few look-ups a run makes."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = f" {text} "

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and code.isalnum() and f" {code} " in self._text

    def starting_with(self, start: str) -> list[str]:
        """The codes that begin with ``start`` (lower case, letters and digits), in the table's order."""
        if not start.isalnum():
            return []
        return re.findall(rf" ({re.escape(start)}[a-z0-9]*)(?= )", self._text)


class Registry(Record):
    file_date: str
    subtags: dict[str, Codes]  # by type: language, extlang, script, region, variant (lower case)
    extlang_prefix: dict[str, str]
    deprecated: dict[str, dict[str, str]]  # by type, and "tag" for whole tags: subtag → preferred value or ""

    @property
    def names(self) -> dict[str, str]:
        """Single-word English language names → subtag (``"english"`` → ``"en"``), read on first use."""
        return _names()

    @property
    def alpha3(self) -> dict[str, str]:
        """ISO 639-2/3 three-letter codes of languages registered by their two-letter code (``"eng"`` →
        ``"en"``, ``"ger"`` → ``"de"``), read on first use."""
        return _alpha3()


def _read(name: str) -> Any:
    with open(data_folder("rules") / "language" / name, encoding="utf-8") as handle:
        return json.load(handle)


@cache
def registry() -> Registry:
    """The shipped registry table, read once per process."""
    raw = _read("subtags.json")
    kinds = ("language", "extlang", "script", "region", "variant")
    return Registry(
        file_date=str(raw["file-date"]),
        subtags={kind: Codes(str(raw[kind])) for kind in kinds},
        extlang_prefix=dict(raw["extlang-prefix"]),
        deprecated={kind: dict(values) for kind, values in raw["deprecated"].items()},
    )


@cache
def _names() -> dict[str, str]:
    return dict(_read("names.json"))


@cache
def _alpha3() -> dict[str, str]:
    return dict(_read("alpha3.json"))


def unregistered(tag: Tag) -> list[str]:
    """Sentences naming each subtag of a well-formed ``tag`` that the registry lacks or that is out of place."""
    if tag.grandfathered or not tag.language:
        return []  # a grandfathered tag is registered whole; private use is anyone's
    table = registry()
    found: list[str] = []
    language = tag.language.lower()
    if language not in table.subtags["language"]:
        if len(language) >= 4:
            found.append(
                f"the language subtag {tag.language!r} is well-formed but not registered "
                "(no language subtag of 4 to 8 letters is; use the 2- or 3-letter code)"
            )
        elif language in table.alpha3:
            found.append(
                f"the language subtag {tag.language!r} is not registered: it is the ISO 639-2/3 code of a "
                f"language that BCP 47 writes with its two-letter code, {table.alpha3[language]!r}"
            )
        else:
            found.append(f"the language subtag {tag.language!r} is not registered")
    for extlang in tag.extlangs:
        prefix = table.extlang_prefix.get(extlang.lower())
        if prefix is None:
            found.append(
                f"the extended language subtag {extlang!r} is not registered (3 letters after the language are "
                "read as an extended language; a region is 2 letters or 3 digits, such as US or 419)"
            )
        elif prefix != language:
            found.append(f"the extended language subtag {extlang!r} belongs after {prefix!r}, not {tag.language!r}")
    for kind, value in (("script", tag.script), ("region", tag.region)):
        if value and value.lower() not in table.subtags[kind]:
            found.append(f"the {kind} subtag {value!r} is not registered")
    found.extend(
        f"the variant subtag {variant!r} is not registered"
        for variant in tag.variants
        if variant.lower() not in table.subtags["variant"]
    )
    return found


def _preferred(kind: str, subtag: str) -> str:
    return registry().deprecated.get(kind, {}).get(subtag.lower(), "")


def _likely_language(word: str) -> str:
    """A registered language subtag for ``word``: itself, its preferred value, the two-letter code of an
    ISO 639-2/3 code (``xho`` → ``xh``), or the subtag of its name."""
    table = registry()
    lowered = word.lower()
    if lowered in table.subtags["language"]:
        return _preferred("language", lowered) or lowered
    return table.alpha3.get(lowered) or table.names.get(lowered, word)


def likely_variant(variant: str) -> str | None:
    """The registered variant an unregistered one most likely means: the one that shares the longest start
    with it (``oxford`` → ``oxendict``, at least two characters), or the nearest by edit distance; None when
    no single one stands out."""
    from mechlint.text.lookalike import closest

    lowered = variant.lower()
    registered = registry().subtags["variant"]
    if lowered in registered:
        return lowered
    for length in range(len(lowered), 1, -1):
        sharing = registered.starting_with(lowered[:length])
        if len(sharing) == 1:
            return sharing[0]
        if sharing:
            return closest(lowered, sharing)
    return closest(lowered, registered.starting_with(""))


def _repaired(text: str) -> str:
    """``text`` with the usual slips undone: white space around, ``_`` or spaces for ``-``, doubled hyphens,
    look-alike letters (a Cyrillic ``е``, a fullwidth ``ｅ``, a zero-width space) and dashes for hyphens."""
    from mechlint.text.lookalike import skeleton

    joined = re.sub(r"[\s_]+", "-", skeleton(text).strip())
    return re.sub(r"-{2,}", "-", joined).strip("-")


def likely(text: str) -> str | None:
    """The registered tag ``text`` most likely means (``en_US`` → ``en-US``, ``iw`` → ``he``), if it is another."""
    if len(text) > 200:
        return None
    repaired = _repaired(text)
    if not repaired:
        return None
    table = registry()
    whole = table.deprecated["tag"].get(repaired.lower())
    if whole:
        repaired = whole
    first, _, rest = repaired.partition("-")
    repaired = "-".join(filter(None, (_likely_language(first), rest)))
    tag, why = parse(repaired)
    if tag is None or why is not None:
        return None
    if not tag.grandfathered and tag.language:
        tag = _preferred_subtags(tag)
    candidate = tag.canonical()
    if candidate == text or parse(candidate)[1] is not None:
        return None
    checked = parse(candidate)[0]
    return candidate if checked is not None and not unregistered(checked) else None


def _preferred_subtags(tag: Tag) -> Tag:
    """``tag`` with deprecated subtags replaced, an extended language made primary, and UK made GB."""
    language, extlangs = tag.language, tag.extlangs
    if len(extlangs) == 1 and extlangs[0].lower() in registry().extlang_prefix:
        language, extlangs = extlangs[0], ()  # zh-yue → yue: the registry prefers the extended language alone
    region = tag.region
    if region:
        region = _preferred("region", region) or COMMON_REGION_MISTAKES.get(region.lower(), region)
    script = _preferred("script", tag.script) or tag.script if tag.script else ""
    variants = tuple(_preferred("variant", v) or likely_variant(v) or v for v in tag.variants)
    return Tag(language, extlangs, script, region, variants, tag.extensions, tag.private)


def deprecated(tag: Tag) -> list[tuple[str, str]]:
    """``(what, preferred value or "")`` for the whole tag, or each of its subtags, that the registry deprecates."""
    table = registry()
    if tag.grandfathered:
        key = tag.grandfathered.lower()
        return (
            [(f"the tag {tag.grandfathered!r}", table.deprecated["tag"][key])] if key in table.deprecated["tag"] else []
        )
    if not tag.language:
        return []
    whole = "-".join((tag.language, *tag.extlangs)).lower()
    if whole in table.deprecated["tag"]:  # a redundant tag such as zh-yue
        return [(f"the tag {'-'.join((tag.language, *tag.extlangs))!r}", table.deprecated["tag"][whole])]
    found: list[tuple[str, str]] = []
    for kind, values in (
        ("language", (tag.language,)),
        ("extlang", tag.extlangs),
        ("script", (tag.script,)),
        ("region", (tag.region,)),
        ("variant", tag.variants),
    ):
        for value in values:
            if value and value.lower() in table.deprecated[kind]:
                found.append((f"the {kind} subtag {value!r}", table.deprecated[kind][value.lower()]))
    return found
