"""Reports a ``language`` tag that uses a subtag the IANA registry has deprecated.

A deprecated subtag is still registered, so ``a11y/language`` accepts it,
but the registry names the one to use instead, and software that follows
the registry may not know the old one: ``iw`` is now ``he`` (Hebrew), ``in``
is ``id``, the region ``BU`` is ``MM``, the grandfathered ``i-klingon`` is
``tlh``, and the extended form ``zh-yue`` is ``yue``. The message names each
deprecated subtag and suggests the tag with the preferred values, in the
case RFC 5646 recommends. The registry ships with mechlint (see
``a11y/language``).
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import as_object, quote
from mechlint.language.bcp47 import parse
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="a11y/language-deprecated",
    level=Level.WARNING,
    summary="`language` uses a subtag that the IANA Language Subtag Registry has deprecated.",
    why=(
        "The registry names a preferred value for each deprecated subtag; speech software that follows it "
        "may not recognise the old code (BCP 47 / RFC 5646, 3.1.6 and 4.5)."
    ),
    location="`/language`",
    examples=(
        Example(fires=True, where="/language", json='"iw"', note="Hebrew is he"),
        Example(fires=True, where="/language", json='"de-DD"', note="the region DD is now DE"),
        Example(fires=False, where="/language", json='"he-IL"'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    tag = (as_object(document.data) or {}).get("language")
    if not isinstance(tag, str):
        return
    parsed, _ = parse(tag)
    if parsed is None:
        return  # a11y/language reports it
    from mechlint.language import langregistry  # read only by a run that checks a tag

    if langregistry.unregistered(parsed):
        return  # a11y/language reports it, with the likely tag
    found = langregistry.deprecated(parsed)
    if not found:
        return
    named = "; ".join(
        f"{what} is deprecated" + (f" in favour of {quote(preferred)}" if preferred else "")
        for what, preferred in found
    )
    likely = langregistry.likely(tag)
    advice = f"write {quote(likely)}" if likely else "see the IANA Language Subtag Registry for its replacement"
    yield META.finding("/language", f"{quote(tag)}: {named}; {advice}")
