"""Reports a word or phrase on the substitution list, with its plain alternative.

The list ships in ``rules/plain/words.toml``; each entry names the word or
phrase, what to use instead, and why. Matching is whole-word and
case-insensitive, and covers the inflections of the entry's first word
("utilize", "utilizes", "utilized", "utilizing"). Code spans are skipped. Add
entries, replace them or remove shipped ones with a word-list file named in
``word-lists`` of the configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from mechlint.document import Document, prose
from mechlint.document.prose import code_spans, in_code
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

if TYPE_CHECKING:
    from mechlint.language.plainlists import PlainLists, Substitution

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
    """One search of the word list over the file's prose joined into one text (:class:`prose.Joined`);
    what :func:`check_plain` finds string by string (a test holds the two equal)."""
    lists = context.lists
    whole = prose.joined(document)
    hits = whole.split(lists.find(whole.text))
    if hits is None:  # a listed phrase spans two strings: look at each string alone
        hits = _each_string(whole.passages, lists)
    yield from _findings(whole.passages, hits)


def check_plain(document: Document, context: RuleContext) -> Iterator[Finding]:
    """What :func:`check` finds, the plain way: the word list searched in each string alone."""
    passages = prose.of(document)
    yield from _findings(passages, _each_string(passages, context.lists))


def _each_string(passages: Sequence[prose.Passage], lists: PlainLists) -> list[tuple[int, int, int, Substitution]]:
    return [(index, start, end, entry) for index, p in enumerate(passages) for start, end, entry in lists.find(p.text)]


def _findings(
    passages: Sequence[prose.Passage], hits: Iterable[tuple[int, int, int, Substitution]]
) -> Iterator[Finding]:
    code: dict[int, list[tuple[int, int]]] = {}  # each passage's code spans, found once, not once a hit
    for index, start, end, entry in hits:
        passage = passages[index]
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
