"""Reports a ``language`` that is not a well-formed BCP 47 tag.

Screen readers choose their voice and pronunciation from the language tag.
The tag is checked against the grammar of RFC 5646 by a real parser
(language, extended language, script, region, variants, extensions, private
use, and the grandfathered tags), not by a pattern for two letters; a
repeated variant or extension is refused too. Whether a subtag is registered
with IANA is not checked.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.bcp47 import problem
from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import as_object, quote

META = RuleMeta(
    id="a11y/language",
    level=Level.ERROR,
    summary="`language` is not a well-formed BCP 47 language tag.",
    why=(
        "Assistive technology reads text with the rules of its language; a broken tag makes it guess "
        "(WCAG 2.2, 3.1.1 Language of Page; BCP 47 / RFC 5646)."
    ),
    location="`/language`",
    examples=(
        Example(fires=True, where="/language", json='"en_GB"', note="subtags are separated by hyphens"),
        Example(fires=True, where="/language", json='"english"'),
        Example(fires=False, where="/language", json='"en-GB"'),
        Example(fires=False, where="/language", json='"zh-Hant-TW"'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    tag = (as_object(document.data) or {}).get("language")
    if not isinstance(tag, str):
        return
    reason = problem(tag)
    if reason is not None:
        yield META.finding(
            "/language",
            f"{quote(tag)} is not a well-formed BCP 47 tag: {reason}; write a tag such as en, en-GB or de",
        )
