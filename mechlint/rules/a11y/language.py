"""Reports a ``language`` that is not a well-formed BCP 47 tag, or names subtags IANA has not registered.

Screen readers choose their voice and pronunciation from the language tag.
The tag is checked against the grammar of RFC 5646 by a real parser
(language, extended language, script, region, variants, extensions, private
use, and the grandfathered tags), not by a pattern for two letters; a
repeated variant or extension is refused too. Only the singleton ``x``
starts private use: ``xh`` (Xhosa) is a language.

A well-formed tag is then checked against the IANA Language Subtag Registry
(a copy ships with mechlint; ``scripts/refresh_language_subtags.py``
refreshes it): each language, extended language, script, region and variant
subtag must be registered, and an extended language must follow its
registered prefix (``zh-yue``, not ``en-yue``). A language subtag of 5 to 8
letters ("english") is well-formed, but none is registered. Extension and
private-use subtags are not checked. Case carries no meaning (``EN-us`` is
valid), and deprecated subtags are registered (``iw``): neither is reported
here (``a11y/language-deprecated`` warns about the second).

The message suggests the likely tag when there is one: ``en_US`` → ``en-US``,
``english`` → ``en``, ``en-UK`` → ``en-GB``, ``iw_IL`` → ``he-IL``, in the
case the RFC recommends. An ISO 639-2 or 639-3 code of a language that has a
two-letter code is not registered (BCP 47 uses the shortest code): ``eng`` →
``en``, ``xho-ZA`` → ``xh-ZA``, ``ger`` → ``de``. An unregistered variant
suggests the registered one it most likely means: ``en-GB-oxford`` →
``en-GB-oxendict``. Where no tag stands out, the message says what to change,
never a list of unrelated tags.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import as_object, quote
from mechlint.language.bcp47 import parse
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.text.lookalike import odd_characters

META = RuleMeta(
    id="a11y/language",
    level=Level.ERROR,
    summary="`language` is not a well-formed BCP 47 language tag, or names subtags IANA has not registered.",
    why=(
        "Assistive technology reads text with the rules of its language; a broken tag makes it guess "
        "(WCAG 2.2, 3.1.1 Language of Page; BCP 47 / RFC 5646)."
    ),
    location="`/language`",
    examples=(
        Example(fires=True, where="/language", json='"en_GB"', note="subtags are separated by hyphens"),
        Example(fires=True, where="/language", json='"english"', note="well-formed, but not registered: en"),
        Example(fires=True, where="/language", json='"en-UK"', note="the region is GB"),
        Example(fires=False, where="/language", json='"xh-ZA"', note="Xhosa; only x- alone starts private use"),
        Example(fires=False, where="/language", json='"en-GB"'),
        Example(fires=False, where="/language", json='"zh-Hant-TW"'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    tag = (as_object(document.data) or {}).get("language")
    if not isinstance(tag, str):
        return
    from mechlint.language import langregistry  # the registry is read only by a run that checks a tag

    parsed, reason = parse(tag)
    if parsed is None:
        odd = odd_characters(tag)[:3]
        has = f"; it has {', '.join(odd)}" if odd else ""
        advice = _advice(tag) or (
            "write the language subtag first (2 or 3 letters), then any script, region and variants, "
            "separated by hyphens"
        )
        yield META.finding("/language", f"{quote(tag)} is not a well-formed BCP 47 tag: {reason}{has}; {advice}")
        return
    missing = langregistry.unregistered(parsed)
    if missing:
        yield META.finding(
            "/language",
            f"{quote(tag)} names subtags the IANA Language Subtag Registry does not have: "
            f"{'; '.join(missing)}; {_advice(tag) or 'use only subtags the registry has, or drop the others'}",
        )


def _advice(tag: str) -> str:
    """ "did you mean …?" with the likely tag, or "" when there is none to name."""
    from mechlint.language import langregistry

    likely = langregistry.likely(tag)
    return f"did you mean {quote(likely)}?" if likely else ""
