"""Reports one term written in more than one way in one file.

No list is needed: words and short phrases (up to three words, not across
punctuation) are compared after folding case and removing ``/``, ``-``,
``.`` and spaces. Forms that are then equal but written differently are
variants: "KV" and "K/V", "cache key" and "cache-key". A capital only at the
start of a word (because a sentence or a heading starts there) is no
variant: "Request B" and "request A" use the same word. A capital that is
*not* at such a start is part of the spelling: "the Page Table" in
mid-sentence is a variant of "page table", while a name the file always
capitalises ("In Raft, ...", "Raft elects") is consistent. A single word
with a leading capital is never reported for it alone (a name such as "Go"
or "Edge" is also a common word), only a phrase. In titles and labels, which
are often in Title Case, every word may carry a capital.

A compound with a short function word inside is one term in its spaced,
hyphenated and joined spellings: "copy on write" and "copy-on-write", "end
to end" and "end-to-end" (the first and last words are not function words;
one or two function words sit between). The literal "from end to end" is a
phrase of its own, not the compound. Other phrases made with function words
("in to" and "into", "set up" and "setup") are left alone, and so are
numbers. Target and state labels count too.

The spelling the file uses most is taken as the rule; each other spelling is
one finding, at its first use, quoting the file's own text ("Client Hello"
once beside "ClientHello" three times: one finding, at "Client Hello"). On a
tie, a spelling whose every capital a start explains is the rule ("Page
table" at a sentence start over "Page Table" in mid-sentence), and otherwise
the spelling written first; the other one is reported.
A longer phrase around a reported variant ("the Client Hello") is not
reported again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mechlint.document import Document, prose
from mechlint.document.termuses import FUNCTION_WORDS, fold, may_use, suspects, term_uses
from mechlint.document.views import quote, readable_path
from mechlint.model import Finding, Level
from mechlint.records import Record
from mechlint.rules import Example, RuleContext, RuleMeta

__all__ = ["FUNCTION_WORDS", "META", "check", "check_plain", "fold", "model", "term_uses"]

META = RuleMeta(
    id="plain/term-consistency",
    level=Level.WARNING,
    summary='One term is written in variant spellings in one file ("KV" and "K/V").',
    why=(
        "A reader cannot know that two spellings mean one thing; Simplified Technical English asks for one "
        "term for one thing. Variants also break search."
    ),
    location=(
        "the first use of the less used spelling (on a tie, of the one whose capitals no start explains, or else "
        "of the one written later), narrowed to it"
    ),
    examples=(
        Example(fires=True, where="/caption", json='"The cache-key check comes first. Then the cache key matches."'),
        Example(fires=False, where="/caption", json='"Request B waits. The key of request B matches."'),
    ),
    tags=("plain-language", "consistency"),
)


class Use(Record):
    surface: str
    size: int
    pointer: str
    span: tuple[int, int]
    text: str
    foldable: int  # bit i: word i's leading capital may be there only because a sentence or heading starts

    @property
    def written(self) -> str:
        """The use as the file writes it."""
        return self.text[self.span[0] : self.span[1]]


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    """Only the keys that :func:`suspects` may find written two ways, and only in the strings that
    :func:`_may_use` them; :func:`check_plain` looks at every key of every string (a test holds the two equal)."""
    passages = prose.of(document, labels=True)
    wanted = suspects(passages)
    if wanted:
        yield from _findings([p for p in passages if may_use(p.text, wanted)], wanted)


def check_plain(document: Document, context: RuleContext) -> Iterator[Finding]:
    """What :func:`check` finds, the plain way: :func:`term_uses` of every string, every key."""
    passages = prose.of(document, labels=True)
    yield from _findings(
        passages, {key for passage in passages for key, *_ in term_uses(passage.text, is_heading(passage))}
    )


def is_heading(passage: prose.Passage) -> bool:
    """Whether ``passage`` is a title or a label: text that is often in Title Case."""
    return passage.kind == "label" or passage.pointer.endswith("/title")


#: Why a spelling is the rule when another one is used as often (see :func:`_variants`).
TIE_RULES = {
    "start": "the spelling whose capitals a sentence or heading start explains is taken as the rule",
    "first": "the spelling written first is taken as the rule",
}


def _findings(passages: Sequence[prose.Passage], wanted: set[str]) -> Iterator[Finding]:
    for odd, norm, tie in _groups(passages, wanted):
        yield _finding(odd, norm, tie)


def variant_groups(document: Document) -> Iterator[tuple[list[Use], list[Use]]]:
    """``(odd uses, uses of the file's spelling)`` for each finding :func:`check` makes (what its fix rewrites)."""
    passages = prose.of(document, labels=True)
    wanted = suspects(passages)
    for odd, norm, _ in _groups([p for p in passages if may_use(p.text, wanted)], wanted) if wanted else ():
        yield odd, norm


def _groups(passages: Sequence[prose.Passage], wanted: set[str]) -> Iterator[tuple[list[Use], list[Use], str | None]]:
    """``(odd uses, uses of the file's spelling, tie)`` of each variant; ``tie`` is ``None`` unless both spellings
    are used as often, else the key in :data:`TIE_RULES` of why the file's spelling is the rule."""
    by_key: dict[str, list[Use]] = {}
    for passage in passages:
        for key, written, size, span, foldable in term_uses(passage.text, is_heading(passage)):
            if key in wanted:
                by_key.setdefault(key, []).append(Use(written, size, passage.pointer, span, passage.text, foldable))
    covered: dict[str, bytearray] = {}  # per string: 1 at each character of a reported variant
    # shorter terms first: "Client Hello" is the mistake, not also "the Client Hello" around it
    for uses in sorted(by_key.values(), key=lambda u: (min(use.size for use in u), len(u[0].written))):
        variants = _variants(uses)
        if len(variants) < 2 or any(_overlaps(use, covered) for use in uses):
            continue
        norm = variants[0]
        for odd in variants[1:]:
            for use in odd:
                mask = covered.setdefault(use.pointer, bytearray(len(use.text)))
                mask[use.span[0] : use.span[1]] = b"\x01" * (use.span[1] - use.span[0])
            yield odd, norm, _tie(odd, norm)


def _variants(uses: list[Use]) -> list[list[Use]]:
    """The uses of one key grouped by spelling, the most used spelling first (the first written on a tie);
    empty when the spellings differ only in ways that are no variant.

    A use whose capitals a start may explain joins a spelling it matches with some of them made lower
    case: "Raft" at a sentence start joins "Raft" in mid-sentence, "Page table" there joins "page table",
    and the title "Prefill B's New Tail" joins "prefill B's new tail". Spellings without such capitals
    are grouped first, so that an ambiguous use joins what the file writes elsewhere."""
    groups: list[list[int]] = []  # indices of the uses of each spelling
    for index in sorted(range(len(uses)), key=lambda index: (uses[index].foldable != 0, index)):
        use = uses[index]
        for group in groups:
            first = uses[group[0]]
            if first.size == use.size and _same_spelling(first, use):
                group.append(index)
                break
        else:
            groups.append([index])
    if len(groups) < 2:
        return []
    ordered = [[uses[index] for index in sorted(group)] for group in sorted(groups, key=min)]  # by first use
    # the most used first; on a tie, a spelling whose every capital a start explains is the rule
    return sorted(ordered, key=lambda group: (len(group), all(map(_explained, group))), reverse=True)


def _explained(use: Use) -> bool:
    """Whether ``use`` has capitals and a start explains each: "Page table" at a sentence start, not "Page Table"
    there, nor "page table"."""
    words = enumerate(use.surface.split(" "))
    return use.foldable != 0 and all(word == word.lower() or use.foldable >> index & 1 for index, word in words)


def _tie(odd: list[Use], norm: list[Use]) -> str | None:
    """Why ``norm`` is the rule over ``odd`` used as often (the order :func:`_variants` gives); ``None``: no tie."""
    if len(odd) != len(norm):
        return None
    return "start" if all(map(_explained, norm)) and not all(map(_explained, odd)) else "first"


def _same_spelling(a: Use, b: Use) -> bool:
    """Whether ``a`` and ``b`` are spelt alike but for capitals that a start may explain."""
    if a.surface == b.surface:
        return True
    words_a, words_b = a.surface.split(" "), b.surface.split(" ")
    if len(words_a) != len(words_b):
        return False
    for index, (x, y) in enumerate(zip(words_a, words_b, strict=True)):
        if x == y:
            continue
        x = x[:1].lower() + x[1:] if a.foldable >> index & 1 else x
        y = y[:1].lower() + y[1:] if b.foldable >> index & 1 else y
        if x != y:
            return False
    return True


def _overlaps(use: Use, covered: dict[str, bytearray]) -> bool:
    mask = covered.get(use.pointer)
    return mask is not None and any(mask[use.span[0] : use.span[1]])


def model(norm: list[Use]) -> str:
    """The file's spelling as it writes it where no start may have added a capital ("page table", not "Page
    table" at a sentence start): what the message quotes and what the fix writes."""
    return next((use for use in norm if not use.foldable), norm[0]).written


def _finding(odd: list[Use], norm: list[Use], tie: str | None) -> Finding:
    first = odd[0]
    times = f" ({len(odd)} times in this file, first here)" if len(odd) > 1 else ""
    often = "as often" if tie else f"{len(norm)} times"  # not a tie: the file's spelling is used twice or more
    tail = f"; {TIE_RULES[tie]}" if tie else ""
    return META.finding(
        first.pointer,
        f"{quote(first.written)}{times} is a variant of {quote(model(norm))}, which this file uses {often} "
        f"(first in {readable_path(norm[0].pointer)}); choose one spelling{tail}",
        span=first.span,
    )
