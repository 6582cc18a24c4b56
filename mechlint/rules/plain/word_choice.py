"""Reports a word or phrase on the substitution list, with its plain alternative.

The list ships in ``rules/plain/words.toml``; each entry names the word or
phrase, what to use instead, and why. Matching is whole-word and
case-insensitive, and covers the inflections of the entry's first word
("utilize", "utilizes", "utilized", "utilizing"). Code spans are skipped. Add
entries, replace them or remove shipped ones with a word-list file named in
``word-lists`` of the configuration.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint import prose
from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.prose import code_spans, in_code
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import quote

META = RuleMeta(
    id="plain/word-choice",
    level=Level.WARNING,
    summary="A word or phrase on the substitution list appears; use the plain alternative.",
    why=(
        "Common short words are understood faster and by more readers, including those reading in a second "
        "language (US Federal Plain Language Guidelines; Simplified Technical English uses one plain word "
        "for one meaning)."
    ),
    location="the string, narrowed to the word or phrase",
    examples=(
        Example(fires=True, where="/scenarios/0/steps/0/description", json='"A utilizes two blocks."'),
        Example(fires=True, where="/caption", json='"Prior to the check, B waits."'),
        Example(fires=False, where="/scenarios/0/steps/0/description", json='"A uses two blocks."'),
    ),
    tags=("plain-language",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    lists = context.lists
    whole = prose.joined(document)
    hits = whole.split(lists.find(whole.text))  # one pass over the file's prose
    if hits is None:  # a listed phrase spans two strings: look at each string alone
        hits = [
            (index, start, end, entry)
            for index, passage in enumerate(whole.passages)
            for start, end, entry in lists.find(passage.text)
        ]
    code: dict[int, list[tuple[int, int]]] = {}  # each passage's code spans, found once, not once a hit
    for index, start, end, entry in hits:
        passage = whole.passages[index]
        if index not in code:
            code[index] = code_spans(passage.text)
        if in_code(code[index], start):
            continue
        reason = f" ({entry.why})" if entry.why else ""
        yield META.finding(
            passage.pointer,
            f"{quote(passage.text[start:end])}: use {quote(entry.use)} instead{reason}",
            span=(start, end),
        )
