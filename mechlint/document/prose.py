"""The prose of a mechanism file, split the way plain-language rules need it.

:func:`passages` yields every prose string with its JSON pointer and whether
it is step text (procedural) or descriptive text; labels are included only
when asked, for the consistency rules. :func:`sentences` and :func:`words`
return character ranges inside one string, so that a finding can narrow its
region to the sentence or word at fault.

Words are counted the way Simplified Technical English counts them: a
hyphenated word, an identifier (``P=4``, ``K/V``, ``p1–p4``), a code span and
a number with its unit (``3000 ms``) are each one word.

Long: the splitting of prose into passages, sentences and words with the exceptions (abbreviations,
code, numbers, quotations) that every plain-language rule would otherwise repeat.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from mechlint.document.jsonscan import escape_token
from mechlint.document.placeholder import is_placeholder
from mechlint.document.views import as_object, members, scenarios
from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.document import Document

Kind = Literal["step", "text", "label"]


def word_set(text: str) -> frozenset[str]:
    """A set of words written as one space-separated string."""
    return frozenset(text.split())


class Passage(Record):
    pointer: str
    text: str
    kind: Kind


_TOP_FIELDS = ("title", "description", "caption", "alt")


def of(document: Document, *, labels: bool = False) -> tuple[Passage, ...]:
    """The passages of a document, computed once and shared by every prose rule."""
    return document.derived(_with_labels) if labels else document.derived(_prose)


def _with_labels(document: Document) -> tuple[Passage, ...]:
    return tuple(passages(document.data, labels=True))


def _prose(document: Document) -> tuple[Passage, ...]:
    return tuple(p for p in of(document, labels=True) if p.kind != "label")


#: Joins the strings of a file for whole-file regex passes; the patterns used so never match it.
SEPARATOR = "\x00"

Payload = TypeVar("Payload")


class Joined(Record):
    """The passages of a document as one text, for one regex pass over the whole file.

    A pattern run over ``text`` finds what it finds in each passage, as long
    as no match crosses a :data:`SEPARATOR` (seen as a non-word character, as
    the end of a string is) and the pattern has no ``^``, ``$``, ``\\A`` or
    ``\\Z``. :meth:`split` checks the first condition. A rule that uses it has
    a ``check_plain`` beside its ``check`` that reads each string alone
    (``tests/test_prose_fast_paths.py`` holds the two equal).
    """

    text: str
    starts: tuple[int, ...]
    passages: tuple[Passage, ...]

    def split(self, matches: Iterable[tuple[int, int, Payload]]) -> list[tuple[int, int, int, Payload]] | None:
        """``(passage index, start, end, payload)`` of each match, in the passage; ``None`` if one crosses passages."""
        out = []
        starts = self.starts
        for start, end, payload in matches:
            index = bisect_right(starts, start) - 1
            offset = starts[index]
            if end - offset > len(self.passages[index].text):
                return None
            out.append((index, start - offset, end - offset, payload))
        return out

    def having(self, pattern: re.Pattern[str], *, lower: bool = False) -> list[int] | None:
        """The indices of the passages in which ``pattern`` finds a match; ``None`` if a match crosses passages.

        One search per passage that has a match: after a hit, the search goes
        on at the start of the next passage. With ``lower``, the pattern is
        searched in the lower-case text (a case-sensitive pattern is much
        faster than an ``IGNORECASE`` one); ``None`` if lower case changes the
        length of the text.
        """
        found: list[int] = []
        starts, passages, text = self.starts, self.passages, self.text
        if lower:
            text = text.lower()
            if len(text) != len(self.text):
                return None
        position = 0
        while (match := pattern.search(text, position)) is not None:
            index = bisect_right(starts, match.start()) - 1
            if match.end() - starts[index] > len(passages[index].text):
                return None
            found.append(index)
            if index + 1 == len(starts):
                break
            position = starts[index + 1]
        return found


def joined(document: Document, *, labels: bool = False) -> Joined:
    """The passages of :func:`of` as one :class:`Joined` text, computed once per document."""
    return document.derived(_joined_with_labels) if labels else document.derived(_joined_prose)


def _join(found: tuple[Passage, ...]) -> Joined:
    starts, position = [], 0
    for passage in found:
        starts.append(position)
        position += len(passage.text) + 1
    return Joined(SEPARATOR.join(p.text for p in found), tuple(starts), found)


def _joined_with_labels(document: Document) -> Joined:
    return _join(of(document, labels=True))


def _joined_prose(document: Document) -> Joined:
    return _join(of(document))


def passages(data: Any, *, labels: bool = False) -> Iterator[Passage]:
    """Every prose string of the document, in document order; placeholders (``TODO: …``) are not prose yet."""
    for passage in _passages(data, labels):
        if not is_placeholder(passage.text):
            yield passage


def _passages(data: Any, labels: bool) -> Iterator[Passage]:
    root = as_object(data) or {}
    for name in _TOP_FIELDS:
        if isinstance(root.get(name), str):
            yield Passage(f"/{name}", root[name], "text")
    limitations = root.get("limitations")
    if isinstance(limitations, list):
        for index, value in enumerate(limitations):
            if isinstance(value, str):
                yield Passage(f"/limitations/{index}", value, "text")
    if labels:
        for _, target, pointer in members(root.get("targets"), "/targets"):
            if isinstance(target, dict) and isinstance(target.get("label"), str):
                yield Passage(pointer + "/label", target["label"], "label")
        yield from _strings(root.get("stateLabels"), "/stateLabels", "label")
    for _, scenario, pointer in scenarios(data):
        for name in ("title", "description"):
            if isinstance(scenario.get(name), str):
                yield Passage(f"{pointer}/{name}", scenario[name], "text")
        yield from _strings(scenario.get("initial"), pointer + "/initial", "text")
        scenario_steps = scenario.get("steps")
        if not isinstance(scenario_steps, list):
            continue
        for index, step in enumerate(scenario_steps):
            if not isinstance(step, dict):
                continue
            step_pointer = f"{pointer}/steps/{index}"
            for name in ("title", "description"):
                if isinstance(step.get(name), str):
                    yield Passage(f"{step_pointer}/{name}", step[name], "step")
            yield from _strings(step.get("state"), step_pointer + "/state", "step")


def _strings(value: Any, pointer: str, kind: Kind) -> Iterator[Passage]:
    """The string members of an object, as passages."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str):
                yield Passage(f"{pointer}/{escape_token(key)}", item, kind)


# --- words -----------------------------------------------------------------

_JOINERS = r"[-/.=+:@–'’_]"
_CODE = r"`[^`\n]*`"
_WORD = rf"[^\W_]\w*(?:{_JOINERS}[^\W_]\w*)*"
UNITS = word_set(
    "ms s sec secs min h ns µs us B KB MB GB TB KiB MiB GiB TiB px em rem Hz kHz MHz GHz % x fps W kW V "
    "mm cm m km kg g bit bits byte bytes"
)
_UNIT = "|".join(re.escape(unit) for unit in sorted(UNITS, key=len, reverse=True) if unit != "%")
#: A number and its unit ("3000 ms") is one word; it is tried before a plain word.
_NUMBER_UNIT = rf"(?<![\w.,])\d[\d,]*(?:\.\d+)? (?:{_UNIT})(?![\w'’]|{_JOINERS}[^\W_])"
#: One STE word (a code span, a number with its unit, or a word with its joiners); never crosses a line break.
TOKEN = re.compile(rf"{_CODE}|{_NUMBER_UNIT}|{_WORD}")


_span = re.Match.span


_CODE_SPAN = re.compile(_CODE)


def code_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges of the code spans (`...`) of ``text``."""
    if "`" not in text:
        return []
    return [match.span() for match in _CODE_SPAN.finditer(text)]


def in_code(spans: Sequence[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` falls inside one of ``spans`` (from :func:`code_spans`: sorted, disjoint), by bisection."""
    index = bisect_right(spans, (offset, sys.maxsize)) - 1
    return index >= 0 and spans[index][0] <= offset < spans[index][1]


def words(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Character ranges of the words in ``text[start:end]``, counted as STE counts them."""
    stop = len(text) if end is None else end
    return list(map(_span, TOKEN.finditer(text, start, stop)))


# --- sentences -------------------------------------------------------------

ABBREVIATIONS = word_set(
    "e.g i.e cf vs approx fig figs eq eqs no nos dr mr mrs ms prof st al incl resp ca esp etc viz sec ch vol"
)
#: A sentence end. The run of ``.!?`` is taken whole (possessive) and only from its first character
#: (the look-behind): otherwise a search gives up and starts again at each character of a long run of
#: dots, quadratic in its length.
_END = re.compile(r"((?<![.!?])[.!?]++|…|\.\.\.)([\"'”’)\]]*)(\s+|$)")
_OPENERS = "\"'“‘([`"


_WORD_BEFORE = re.compile(r"([A-Za-z]+(?:\.[A-Za-z]+)*)\Z")


def _word_before(text: str, dot: int) -> str:
    """The word (letters and inner dots) that ends just before ``dot``; looks back a few characters only."""
    match = _WORD_BEFORE.search(text, max(0, dot - 24), dot)
    return match.group(1).lower() if match else ""


def sentences(text: str) -> list[tuple[int, int]]:
    """Character ranges of the sentences of ``text`` (without the space between them).

    A line break always ends a sentence; inside a line, see :func:`_line_sentences`.
    """
    if "\n" not in text:
        marks = text.count(".") + text.count("!") + text.count("?") + text.count("…")
        if not marks or (marks == 1 and text[-1] in ".!?…"):  # no end, or only the last character: one sentence
            return [trimmed_span(text, 0, len(text))] if text and not text.isspace() else []
        first = _END.search(text)
        if first is None:  # no sentence end: one sentence, or none
            return [trimmed_span(text, 0, len(text))] if text and not text.isspace() else []
        if first.end() == len(text):  # the only end is the end of the text
            end = first.end(2)
            return [trimmed_span(text, 0, end)] if not text[:end].isspace() else []
        return _line_sentences(text)
    return sentences_plain(text)


def sentences_plain(text: str) -> list[tuple[int, int]]:
    """What :func:`sentences` gives, the plain way: each line split on its own (a test holds them equal)."""
    out: list[tuple[int, int]] = []
    start = 0
    for line in text.split("\n"):
        out += [(start + a, start + b) for a, b in _line_sentences(line)]
        start += len(line) + 1
    return out


def _line_sentences(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        mark, gap_end = match.group(1), match.end()
        following = text[gap_end : gap_end + 1]
        if following:
            if mark in ("…", "...") or mark.endswith(".."):
                continue
            if not (following.isupper() or following.isdigit() or following in _OPENERS):
                continue
            before = _word_before(text, match.start(1)) if mark == "." else ""
            if before in ABBREVIATIONS and not (before == "etc" and following.isupper()):
                continue
        end = match.end(2)
        if text[start:end].strip():
            out.append(trimmed_span(text, start, end))
        start = gap_end
    if text[start:].strip():
        out.append(trimmed_span(text, start, len(text)))
    return out


def trimmed_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` without the white space at its ends, as a span of ``text``."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# --- syllables -------------------------------------------------------------

_SYLLABLE_TABLE = {
    "every": 2,
    "everything": 3,
    "different": 3,
    "business": 2,
    "evening": 2,
    "area": 3,
    "idea": 3,
    "real": 1,
    "really": 2,
    "create": 2,
    "created": 3,
    "creates": 2,
    "science": 2,
    "quiet": 2,
    "being": 2,
    "doing": 2,
    "going": 2,
    "seeing": 2,
    "the": 1,
    "queue": 1,
    "queues": 1,
    "cache": 1,
    "caches": 2,
    "cached": 1,
    "key": 1,
    "reuse": 2,
    "reused": 2,
    "prefill": 2,
    "prefills": 2,
    "someone": 2,
    "sometimes": 2,
    "something": 2,
    "one": 1,
    "once": 1,
    "people": 2,
    "naive": 2,
    "poem": 2,
    "fire": 1,
    "hour": 1,
    "our": 1,
    "ok": 2,
    "data": 2,
    "via": 2,
    "variable": 4,
    "previous": 3,
}


def syllables(word: str) -> int:
    """A rule-based syllable count, with a small table for words the rules get wrong."""
    letters = re.sub(r"[^a-z]", "", word.lower())
    if not letters:
        return 1 if any(char.isdigit() for char in word) else 0
    if letters in _SYLLABLE_TABLE:
        return _SYLLABLE_TABLE[letters]
    count = len(re.findall(r"[aeiouy]+", letters))
    if (
        (letters.endswith("e") and not re.search(r"[^aeiouy]le$", letters) and count > 1)
        or (letters.endswith("ed") and not letters.endswith(("ted", "ded")) and count > 1)
        or (letters.endswith("es") and not re.search(r"(?:[sxz]|[cs]h|[cg])es$", letters) and count > 1)
    ):
        count -= 1
    count += len(re.findall(r"[^aeioucts]ia|[^aeiou]eo|[^aeiougq]ua|[^aeiou]io$", letters))
    return max(count, 1)


#: Whether a string has a letter (a match, or ``None``); a C function, for ``filter``.
has_letter = re.compile(r"[^\W\d_]").search


# --- one analysis per string, shared by the rules ---------------------------

#: How many distinct strings the per-process caches below remember.
CACHE_SIZE = 1 << 11


class Analysis(Record):
    """A string split once: its sentences, the STE words of each (as written), and its code spans."""

    sentences: tuple[tuple[int, int], ...]
    tokens: tuple[tuple[str, ...], ...]
    code: tuple[tuple[int, int], ...]

    def outside_code(self, offset: int) -> bool:
        return not in_code(self.code, offset)


@lru_cache(maxsize=CACHE_SIZE)
def analyze(text: str) -> Analysis:
    """The analysis of ``text``; pure, so it is computed once per distinct string.

    A word belongs to the sentence it starts in. Sentences partition the text
    up to white space, and only a code span crosses white space, so without
    one the words of a sentence are the matches inside its range (the whole
    string when it has one sentence): one search per sentence instead of
    :func:`analyze_plain`'s grouping of every word (a test holds the two equal;
    ``benchmarks/fast_paths.py`` measures what it saves).
    """
    if "`" in text:
        return analyze_plain(text)
    found = tuple(sentences(text))
    if len(found) == 1:
        return Analysis(found, (tuple(TOKEN.findall(text)),), ())
    return Analysis(found, tuple(tuple(TOKEN.findall(text, start, end)) for start, end in found), ())


def analyze_plain(text: str) -> Analysis:
    """What :func:`analyze` gives, the plain way: every word of the text, in the sentence it starts in."""
    found = tuple(sentences(text))
    every = words(text)
    starts = [start for start, _ in every]
    grouped = (every[bisect_left(starts, a) : bisect_left(starts, b)] for a, b in found)
    tokens = tuple(tuple(text[a:b] for a, b in group) for group in grouped)
    return Analysis(found, tokens, tuple(code_spans(text)))


@lru_cache(maxsize=CACHE_SIZE)
def syllables_cached(word: str) -> int:
    return syllables(word)
