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

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import chain
from operator import add

from mechlint import prose
from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.prose import CACHE_SIZE, analyze, word_set
from mechlint.records import Record
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import quote, readable_path

META = RuleMeta(
    id="plain/term-consistency",
    level=Level.WARNING,
    summary='One term is written in variant spellings in one file ("KV" and "K/V").',
    why=(
        "A reader cannot know that two spellings mean one thing; Simplified Technical English asks for one "
        "term for one thing. Variants also break search."
    ),
    location="the first use of the less used spelling (on a tie, of the one written later), narrowed to it",
    examples=(
        Example(fires=True, where="/caption", json='"The cache-key check comes first. Then the cache key matches."'),
        Example(fires=False, where="/caption", json='"Request B waits. The key of request B matches."'),
    ),
    tags=("plain-language", "consistency"),
)

FUNCTION_WORDS = word_set(
    "a an the in on at to of for by with up out off into onto over and or but is are be it its as no not "
    "any some every each all can may one this that these those from per via"
)
_FOLD_TABLE = str.maketrans({"/": None, "-": None, ".": None, " ": None, "’": "'"})


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


def fold(token: str) -> str:
    """The key of a token: lower case, without ``/``, ``-``, ``.`` and spaces, apostrophes straight."""
    return token.lower().translate(_FOLD_TABLE)


def surface(token: str) -> str:
    """A token as written, with a leading capital alone folded and apostrophes made straight."""
    if "’" in token:
        token = token.replace("’", "'")
    rest = token[1:]
    if token[:1].isupper() and rest == rest.lower():
        token = token[0].lower() + rest
    return token


#: One word of a run: start, end, plain, folded, is a function word, letters, foldable.
_Item = tuple[int, int, str, str, bool, int, bool]


def _capitalised(token: str) -> bool:
    """Whether ``token`` has a capital only at its start ("Page", not "ClientHello" or "KV")."""
    rest = token[1:]
    return token[:1].isupper() and rest == rest.lower()


@lru_cache(maxsize=CACHE_SIZE)
def term_uses(text: str, heading: bool = False) -> tuple[tuple[str, str, int, tuple[int, int], int], ...]:
    """``(folded key, written form, number of words, span, foldable)`` of each word and short phrase of
    ``text``. ``foldable`` has bit ``i`` set when word ``i`` starts with a capital that may be there only
    because a sentence, a title or a label starts there (each word of a ``heading``)."""
    analysis = analyze(text)
    found: list[tuple[str, str, int, tuple[int, int], int]] = []
    every = prose.words(text)
    starts = [start for start, _ in every]
    for sentence_start, sentence_end in analysis.sentences:
        # each item: start, end, plain, folded, is a function word, letters, foldable
        run: list[_Item] = []
        first = True
        for start, end in every[bisect_left(starts, sentence_start) : bisect_left(starts, sentence_end)]:
            if text[start] == "`" or (analysis.code and not analysis.outside_code(start)):
                run = []
                first = False
                continue
            if run and not text[run[-1][1] : start].isspace():
                run = []
            token = text[start:end]
            plain = token.replace("’", "'")
            folded = fold(token)
            letters = sum(char.isalpha() for char in folded)
            at_start = first or heading or _after_colon(text, start)
            first = False
            item = (start, end, plain, folded, folded in FUNCTION_WORDS, letters, at_start and _capitalised(token))
            run = [*run[-3:], item]
            if letters >= 2:
                # a single word's leading capital is never a variant on its own: "Go", "Edge" are names too
                found.append((folded, plain, 1, (start, end), int(_capitalised(token))))
            for size in (2, 3, 4):
                if size > len(run):
                    break
                group = run[-size:]
                if any(item[4] for item in group):
                    if not _bridged(group) or (size == 3 and _literal_from(run, group)):
                        continue
                elif size == 4 or sum(item[5] for item in group) < 2:
                    continue
                key = "".join(item[3] for item in group)
                written = " ".join(item[2] for item in group)
                foldable = sum(1 << index for index, item in enumerate(group) if item[6])
                found.append((key, written, size, (group[0][0], end), foldable))
    return tuple(found)


def _after_colon(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows a colon ("Step 2: Page table walk"), where a capital may start."""
    index = start - 1
    while index >= 0 and text[index] in " \t":
        index -= 1
    return index >= 0 and text[index] == ":"


def _bridged(group: Sequence[_Item]) -> bool:
    """Whether ``group`` is a compound bridged by function words: "copy on write", "state of the art"."""
    ends = (group[0], group[-1])
    return all(not item[4] and item[5] >= 2 for item in ends) and all(item[4] for item in group[1:-1])


def _literal_from(
    run: Sequence[_Item],
    group: Sequence[_Item],
) -> bool:
    """Whether ``group`` ("end to end") is the tail of the literal phrase "from end to end"."""
    return len(run) > len(group) and run[-len(group) - 1][3] == "from" and group[1][3] == "to"


#: Stands for a function word in the phrase keys of :func:`suspects`: no phrase is made across it.
_BLANK = "\x00"
_BLANKED = dict.fromkeys(FUNCTION_WORDS, _BLANK)
_BETWEEN = ("the",)
_fold_cached = lru_cache(maxsize=CACHE_SIZE * 4)(fold)
_surface_cached = lru_cache(maxsize=CACHE_SIZE * 4)(surface)


def _phrases(keys: list[str]) -> tuple[set[str], set[str]]:
    """The keys of every run of two and of three consecutive tokens."""
    joined = list(map(add, keys, keys[1:]))
    return set(joined), set(map(add, joined, keys[2:]))


def suspects(passages: Sequence[prose.Passage]) -> set[str]:
    """Keys that may be written in more than one way across ``passages``: the only ones worth a closer look.

    A cheap over-approximation of what :func:`term_uses` finds (it ignores
    sentence ends, code spans and letter counts), made of whole-file list and
    set operations instead of a loop over words: every key that
    :func:`term_uses` could report as a variant is in the result.
    """
    # the words of each string, with a function word between strings: as the other prose rules split them
    # (analysed once, shared), and labels, which only this rule reads, without splitting them into sentences
    tokens = list(
        chain.from_iterable(
            chain.from_iterable(
                (prose.TOKEN.findall(p.text), _BETWEEN) if p.kind == "label" else (*analyze(p.text).tokens, _BETWEEN)
                for p in passages
            )
        )
    )
    keys = list(map(_fold_cached, tokens))
    pairs, triples = _phrases(list(map(_BLANKED.get, keys, keys)))
    singles = {key for key in set(keys) if len(key) >= 2}
    # a phrase with a function word in it (its key holds _BLANK) is no key: dropped after the intersections
    found = {key for key in (singles & pairs) | (singles & triples) | (pairs & triples) if _BLANK not in key}
    distinct = set(tokens)
    forms = set(zip(map(_fold_cached, distinct), map(_surface_cached, distinct), strict=True))
    if len(forms) != len({key for key, _ in forms}):  # some key is written in two ways; find which
        seen: dict[str, str] = {}
        for key, form in forms:
            if seen.setdefault(key, form) != form and key in singles:
                found.add(key)
    # a compound bridged by function words ("copy on write") beside its hyphenated or joined spelling
    bridged = _bridged_keys(keys)
    found |= bridged & singles
    # a phrase with a word written with and without a capital ("Page Table", "page table")
    spellings = Counter(map(_fold_cached, {token.replace("’", "'") for token in distinct}))
    twice = {key for key, count in spellings.items() if count > 1}
    if twice:
        blanked = list(map(_BLANKED.get, keys, keys))
        found |= {
            a + b for a, b, x, y in zip(blanked, blanked[1:], keys, keys[1:], strict=False) if x in twice or y in twice
        }
        found |= {
            a + b + c
            for a, b, c, x, y, z in zip(blanked, blanked[1:], blanked[2:], keys, keys[1:], keys[2:], strict=False)
            if x in twice or y in twice or z in twice
        }
        found |= bridged
        found = {key for key in found if _BLANK not in key}
    return found


def _bridged_keys(keys: list[str]) -> set[str]:
    """The keys of every run of three or four tokens whose inner tokens, and only those, are function words."""
    words = [key not in FUNCTION_WORDS for key in keys]
    three = {
        a + b + c
        for a, b, c, p, q, r in zip(keys, keys[1:], keys[2:], words, words[1:], words[2:], strict=False)
        if p and r and not q
    }
    four = {
        a + b + c + d
        for a, b, c, d, p, q, r, t in zip(
            keys, keys[1:], keys[2:], keys[3:], words, words[1:], words[2:], words[3:], strict=False
        )
        if p and t and not q and not r
    }
    return three | four


def _may_use(text: str, wanted: set[str]) -> bool:
    """Whether ``text`` may use a key of ``wanted``: a cheap test before :func:`term_uses`."""
    keys = list(map(_fold_cached, chain.from_iterable(analyze(text).tokens)))
    if not wanted.isdisjoint(keys):
        return True
    pairs, triples = _phrases(keys)
    return not (wanted.isdisjoint(pairs) and wanted.isdisjoint(triples) and wanted.isdisjoint(_bridged_keys(keys)))


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    """Only the keys that :func:`suspects` may find written two ways, and only in the strings that
    :func:`_may_use` them; :func:`check_plain` looks at every key of every string (a test holds the two equal)."""
    passages = prose.of(document, labels=True)
    wanted = suspects(passages)
    if wanted:
        yield from _findings([p for p in passages if _may_use(p.text, wanted)], wanted)


def check_plain(document: Document, context: RuleContext) -> Iterator[Finding]:
    """What :func:`check` finds, the plain way: :func:`term_uses` of every string, every key."""
    passages = prose.of(document, labels=True)
    yield from _findings(
        passages, {key for passage in passages for key, *_ in term_uses(passage.text, is_heading(passage))}
    )


def is_heading(passage: prose.Passage) -> bool:
    """Whether ``passage`` is a title or a label: text that is often in Title Case."""
    return passage.kind == "label" or passage.pointer.endswith("/title")


def _findings(passages: Sequence[prose.Passage], wanted: set[str]) -> Iterator[Finding]:
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
            yield _finding(odd, norm, tie=len(odd) == len(norm))


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
    return sorted(ordered, key=lambda group: (len(group), all(use.foldable for use in group)), reverse=True)


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


def _finding(odd: list[Use], norm: list[Use], tie: bool) -> Finding:
    first = odd[0]
    times = f" ({len(odd)} times in this file, first here)" if len(odd) > 1 else ""
    often = "as often" if tie else f"{len(norm)} time{'s' if len(norm) != 1 else ''}"
    tail = "; the spelling written first is taken as the rule" if tie else ""
    return META.finding(
        first.pointer,
        f"{quote(first.written)}{times} is a variant of {quote(norm[0].written)}, which this file uses {often} "
        f"(first in {readable_path(norm[0].pointer)}); choose one spelling{tail}",
        span=first.span,
    )
