"""Reports one term written in more than one way in one file.

No list is needed: words and short phrases (up to three words, not across
punctuation) are compared after folding case and removing ``/``, ``-``,
``.`` and spaces. Forms that are then equal but written differently are
variants: "KV" and "K/V", "cache key" and "cache-key". A capital only at the
start of a word (because a sentence or a heading starts there) is no
variant: "Request B" and "request A" use the same word. Phrases made with
function words ("in to" and "into") are left alone, and so are numbers.
Target and state labels count too.

The spelling the file uses most is taken as the rule; each other spelling is
one finding, at its first use, quoting the file's own text ("Client Hello"
once beside "ClientHello" three times: one finding, at "Client Hello"). On a
tie, the spelling written first is the rule and the later one is reported.
A longer phrase around a reported variant ("the Client Hello") is not
reported again.
"""

from __future__ import annotations

from bisect import bisect_left
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


@lru_cache(maxsize=CACHE_SIZE)
def term_uses(text: str) -> tuple[tuple[str, str, int, tuple[int, int]], ...]:
    """``(folded key, written form, number of words, span)`` of each word and short phrase of ``text``."""
    analysis = analyze(text)
    found: list[tuple[str, str, int, tuple[int, int]]] = []
    every = prose.words(text)
    starts = [start for start, _ in every]
    for sentence_start, sentence_end in analysis.sentences:
        # each item: start, end, surface, plain, folded, is a function word, letters
        run: list[tuple[int, int, str, str, str, bool, int]] = []
        for start, end in every[bisect_left(starts, sentence_start) : bisect_left(starts, sentence_end)]:
            if text[start] == "`" or (analysis.code and not analysis.outside_code(start)):
                run = []
                continue
            if run and not text[run[-1][1] : start].isspace():
                run = []
            token = text[start:end]
            plain = token.replace("’", "'")
            folded = fold(token)
            letters = sum(char.isalpha() for char in folded)
            run = [*run[-2:], (start, end, surface(token), plain, folded, folded in FUNCTION_WORDS, letters)]
            last = run[-1]
            if letters >= 2:
                found.append((folded, last[2], 1, (start, end)))
            for size in (2, 3):
                if size > len(run):
                    break
                group = run[-size:]
                if any(item[5] for item in group) or sum(item[6] for item in group) < 2:
                    continue
                key = "".join(item[4] for item in group)
                written = " ".join([group[0][2], *(item[3] for item in group[1:])])
                found.append((key, written, size, (group[0][0], end)))
    return tuple(found)


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
    return found


def _may_use(text: str, wanted: set[str]) -> bool:
    """Whether ``text`` may use a key of ``wanted``: a cheap test before :func:`term_uses`."""
    keys = list(map(_fold_cached, chain.from_iterable(analyze(text).tokens)))
    if not wanted.isdisjoint(keys):
        return True
    pairs, triples = _phrases(keys)
    return not (wanted.isdisjoint(pairs) and wanted.isdisjoint(triples))


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
    yield from _findings(passages, {key for passage in passages for key, *_ in term_uses(passage.text)})


def _findings(passages: Sequence[prose.Passage], wanted: set[str]) -> Iterator[Finding]:
    by_key: dict[str, list[Use]] = {}
    for passage in passages:
        for key, written, size, span in term_uses(passage.text):
            if key in wanted:
                by_key.setdefault(key, []).append(Use(written, size, passage.pointer, span, passage.text))
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
    empty when the spellings differ only in ways that are no variant."""
    single = {use.surface for use in uses if use.size == 1}
    sizes = {use.size for use in uses}
    if len(single) < 2 and len(sizes) < 2:
        return []
    groups: dict[tuple[str, int], list[Use]] = {}
    for use in uses:
        if len(sizes) >= 2 or use.size == 1:
            groups.setdefault((use.surface, use.size), []).append(use)
    ordered = list(groups.values())  # in order of first use
    return sorted(ordered, key=len, reverse=True) if len(ordered) >= 2 else []


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
