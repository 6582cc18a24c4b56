"""Reports an acronym that the file does not define and the allow list does not know.

An acronym is a word of two to five capital letters, optionally with digits,
``/``, ``&`` or ``-`` (``TTFT``, ``K/V``, ``FP16``, ``UTF-8``), and an
optional plural "s". It counts as defined when the file's prose anywhere has
"words (ABC)", "ABC (words)" (where a word in the parentheses starts with
the acronym's first letter: "ACK (acknowledgment)", not "PSK (see below)"), or
"ABC stands for words" ("is short for"). ``K/V`` and ``KV`` are the
same acronym, and so are a plural and its singular: "translation lookaside
buffers (TLBs)" defines ``TLB`` too, and "a buffer (TLB)" defines ``TLBs``.
Each undefined acronym is reported once, where it first appears.

Not every word in capitals is an acronym:

- A single capital ("request A") is a name, and a Roman numeral ("Type II",
  "Phase XIV") is a number.
- A word of six or more capitals (``LISTEN``, ``CLOSED``, ``ESTABLISHED``,
  ``NXDOMAIN``, ``FOLLOWER``) is a name, and so is a word joined with ``_``
  (``SYN_SENT``, ``TIME_WAIT``).
- A word of four or five capitals, or a hyphenated compound of four
  capitals or more, that is the whole of a state value somewhere in the file
  (``"state": {"server": "SLEEP"}``, ``"TIME-WAIT"``) is the name of a state,
  wherever it appears in the file.
- A compound joined by ``-`` or ``/`` is defined when each of its parts of
  two or more capitals is defined or allowed: ``SYN-ACK`` where ``SYN`` and
  ``ACK`` are, ``HTTP/2`` where ``HTTP`` is. Otherwise the undefined parts
  are reported, each once.

Why two to five capitals, when Vale's widely used acronym rules look only at
runs of three to five: a two-capital acronym (``GC``, ``LB``, ``PK``) stops a
reader as much as a longer one, so the rule keeps the catalogue's range. Vale
skips two capitals to avoid false alarms on a few common words; here those
words are on the shipped allow list instead: well-known two-capital acronyms
(``ID``, ``IO``, ``KV``, ``OK``, ``UI``) and English words written in
capitals for emphasis or as keywords (``OR``, ``IF``, ``NO``, the RFC 2119
words ``MUST``, ``NOT``, ``MAY``, HTTP methods such as ``GET``, and state
words such as ``IDLE``, ``DONE``, ``GRAY``). Six capitals and more are names,
as in Vale.

The allow list ships in ``rules/plain/acronyms.toml``. Extend it with
``allow = ["QPS"]`` in a word-list file named by ``word-lists = [...]`` in the
configuration, or with this rule's ``allow`` option.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from mechlint.document import Document, prose
from mechlint.document.prose import CACHE_SIZE, code_spans, in_code
from mechlint.document.views import quote
from mechlint.language.plainlists import acronym_key
from mechlint.model import Finding, Level
from mechlint.rules import Example, Option, RuleContext, RuleMeta

META = RuleMeta(
    id="plain/undefined-acronym",
    level=Level.WARNING,
    summary="An acronym is neither defined in the file nor on the allow list.",
    why=(
        "An unexplained acronym stops a reader who does not know it (WCAG 2.2, 3.1.4 Abbreviations; "
        "Simplified Technical English asks to explain abbreviations)."
    ),
    location="the string, narrowed to the first use of the acronym",
    options=(Option("allow", "strings", [], "more acronyms to accept without a definition"),),
    examples=(
        Example(fires=True, where="/caption", json='"The TTFT is short."'),
        Example(fires=False, where="/caption", json='"The time to first token (TTFT) is short."'),
        Example(fires=False, where="/caption", json='"The GPU keeps the blocks."', note="on the allow list"),
        Example(
            fires=False,
            where="/caption",
            json='"The server waits in LISTEN, then reaches ESTABLISHED."',
            note="six or more capitals: names of states",
        ),
        Example(
            fires=False,
            where="/caption",
            json='"Synchronize (SYN) and acknowledge (ACK) make the SYN-ACK."',
            note="a compound of defined acronyms",
        ),
    ),
    tags=("plain-language",),
)

ACRONYM_HINT = re.compile(r"[A-Z][^a-z\s]*[A-Z]")
ACRONYM = re.compile(r"(?<![\w/&-])([A-Z][A-Z0-9]*(?:[/&-][A-Z0-9]+)*)(s?)(?![\w/&-])")
#: More capitals than this make a word a name (LISTEN, ESTABLISHED), not an acronym.
MAX_CAPITALS = 5
#: A whole state value that is a word of four or five capitals: the name of a state.
STATE_NAME = re.compile(r"\s*([A-Z]{4,5}|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\s*")
_STATE_VALUE = re.compile(r"/(?:initial|state)/[^/]+$")
_PART = re.compile(r"[A-Z0-9]+")
_CLOSING = re.compile(r"\s*\)")
_OPENING = re.compile(r"\s*\(")
_WORD_BEFORE = re.compile(r"[A-Za-z]{2,}\W*\Z")
_EXPANSION = re.compile(r"\s*([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z-]+)*)\s*\)")
#: "SYN stands for synchronize", "SYN, short for synchronize,", "SYN is short for synchronize".
STANDS_FOR = re.compile(r"s?,?\s+(?:stands for|is short for|short for)\s+(?:(?:the|a|an)\s+)?([A-Za-z])")
#: A Roman numeral of two or more letters (Type II, Phase III): a number, not an acronym.
ROMAN = re.compile(r"X{0,3}(?:IX|IV|V?I{0,3})")


def _capitals(word: str) -> int:
    return sum(char.isupper() for char in word)


@lru_cache(maxsize=CACHE_SIZE)
def acronyms(text: str) -> tuple[tuple[int, int, str], ...]:
    return tuple(_acronyms(text))


def _acronyms(text: str) -> Iterator[tuple[int, int, str]]:
    if not ACRONYM_HINT.search(text):
        return
    code = code_spans(text)
    for match in ACRONYM.finditer(text):
        word = match.group(1)
        if _capitals(word) < 2 or ROMAN.fullmatch(word) or in_code(code, match.start()):
            continue
        capitals = [_capitals(part) for part in _PART.findall(word)]
        if max(capitals) > MAX_CAPITALS and not any(2 <= count <= MAX_CAPITALS for count in capitals):
            continue  # a name such as LISTEN, or a compound of names
        yield match.start(), match.end(1), word


def _expands(word: str, text: str, position: int) -> bool:
    """Whether the parenthesis opened before ``position`` holds the expansion of ``word``."""
    words = _EXPANSION.match(text, position)
    if words is None:
        return False
    # "(time to first token)", "(acknowledgment)", "(pre-shared key)"; not "(see below)"
    return any(part[0].lower() == word[0].lower() for part in re.split(r"[\s-]+", words.group(1)) if part)


def _stands_for(word: str, text: str, end: int) -> bool:
    """Whether "stands for" and a word with the acronym's first letter follow (not "TTFT is short for B")."""
    match = STANDS_FOR.match(text, end)
    return match is not None and match.group(1).lower() == word[0].lower()


@lru_cache(maxsize=CACHE_SIZE)
def definitions(text: str) -> frozenset[str]:
    """The acronyms that ``text`` defines; linear in its length (no slice or search runs to an end of the text)."""
    found = set()
    for start, stem_end, word in acronyms(text):
        # a plural defines the singular and the reverse: "translation buffers (TLBs)", "TLBs (translation ...)"
        end = stem_end + 1 if text.startswith("s", stem_end) else stem_end
        opening = start - 1
        while opening >= 0 and text[opening].isspace():
            opening -= 1
        # "words (ABC)": a word of two letters or more just before the parenthesis
        defined_before = (
            opening >= 0
            and text[opening] == "("
            and _CLOSING.match(text, end) is not None
            and _WORD_BEFORE.search(text[max(0, opening - 80) : opening]) is not None
        )
        after = _OPENING.match(text, end)
        if defined_before or (after is not None and _expands(word, text, after.end())) or _stands_for(word, text, end):
            found.add(acronym_key(word))
    return frozenset(found)


def unknown_parts(start: int, end: int, word: str, known: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """The parts of an acronym at ``start`` that are not ``known``: the word itself, or a compound's parts.

    A compound (``SYN-ACK``, ``HTTP/2``) is known as a whole, or when each of
    its parts of two to five capitals is; single letters and numbers
    (``K/V``, ``/2``) are no acronyms of their own.
    """
    if known(acronym_key(word)):
        return []
    parts = [(start + m.start(), start + m.end(), m.group()) for m in _PART.finditer(word)]
    checked = [part for part in parts if 2 <= _capitals(part[2]) <= MAX_CAPITALS]
    if len(parts) < 2 or not checked:
        return [(start, end, word)]
    return [part for part in checked if not known(acronym_key(part[2]))]


def state_names(passages: Iterable[prose.Passage]) -> set[str]:
    """Words of four or more capitals (``IDLE``, ``TIME-WAIT``) that are the whole of a state value: state names."""
    found = set()
    for passage in passages:
        match = STATE_NAME.fullmatch(passage.text) if _STATE_VALUE.search(passage.pointer) else None
        if match and _capitals(match.group(1)) >= 4:
            found.add(acronym_key(match.group(1)))
    return found


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    texts = prose.of(document)
    allowed = context.lists.allow | {acronym_key(item) for item in context.options["allow"]}
    used = {acronym_key(word) for passage in texts for _, _, word in acronyms(passage.text)}
    if used <= allowed:  # every acronym is on the allow list: no need to look for definitions
        return
    defined: set[str] = set(state_names(texts))
    for passage in texts:
        defined |= definitions(passage.text)
    known = allowed.union(defined).__contains__
    reported: set[str] = set()
    for passage in texts:
        for start, end, word in acronyms(passage.text):
            for part_start, part_end, part in unknown_parts(start, end, word, known):
                key = acronym_key(part)
                if key in reported:
                    continue
                reported.add(key)
                within = f" in {quote(word)}" if part != word else ""
                yield META.finding(
                    passage.pointer,
                    f"the acronym {quote(part)}{within} is not defined in this file; write it out once, as in "
                    f'"words ({part})", or, if every reader knows it, add it to `allow = [...]` in a word-list '
                    "file named by `word-lists = [...]` in the configuration (mechlint.toml or [tool.mechlint])",
                    span=(part_start, part_end),
                )
