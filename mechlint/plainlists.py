"""The plain-language word lists: substitutions and the acronym allow list.

The shipped lists are ``rules/plain/words.toml`` and ``rules/plain/acronyms.toml``;
files named by ``word-lists`` in the configuration add entries, replace
entries with the same word, or ``remove`` shipped words. Every file is
validated by ``schemas/word-lists.schema.json``. The matcher is compiled once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from itertools import pairwise
from pathlib import Path

from mechlint.datafile import check_schema, read_toml
from mechlint.prebuilt import prebuilt_data
from mechlint.records import Record
from mechlint.resources import data_folder

SCHEMA_NAME = "word-lists.schema.json"
SHIPPED = ("plain/words.toml", "plain/acronyms.toml")


class Substitution(Record):
    word: str
    use: str
    why: str


#: A run of the characters a listed word is made of; a listed word or phrase starts at the start of one.
_RUN = re.compile(r"[\w'’-]+")
#: The non-ASCII letters that a case-insensitive regex matches with ASCII ones (Python's re documents these four).
_ASCII_LOOKALIKES = str.maketrans({"\u212a": "k", "\u017f": "s", "\u0130": "i", "\u0131": "i"})


def _fold(text: str) -> str:
    return text.translate(_ASCII_LOOKALIKES).lower()


def _lead(form: str) -> str | tuple[str, str] | None:
    """What a text's runs must be, folded, where ``form`` matches: its first run, or its first two.

    ``None`` if the form does not start with a run (it could then start anywhere).
    """
    if not _RUN.match(form):
        return None
    runs = _RUN.findall(_fold(form))
    return runs[0] if len(runs) == 1 else (runs[0], runs[1])


_NO_JOINERS = str.maketrans("", "", "/-")


def acronym_key(text: str) -> str:
    """``K/V``, ``KV`` and ``KVs`` are one acronym."""
    text = text[:-1] if len(text) > 2 and text.endswith("s") else text
    return text.translate(_NO_JOINERS).upper()


def inflections(word: str) -> list[str]:
    """The forms of a word (or of a phrase's first word) that the list also finds."""
    first, space, rest = word.lower().partition(" ")
    forms = {first}
    if len(first) > 3:
        if first.endswith("e"):
            forms |= {first + "s", first + "d", first[:-1] + "ing"}
        elif first.endswith("y") and first[-2] not in "aeiou":
            forms |= {first[:-1] + "ies", first[:-1] + "ied", first + "ing"}
        elif first.endswith(("s", "x", "z", "ch", "sh")):
            forms |= {first + "es", first + "ed", first + "ing"}
        else:
            forms |= {first + "s", first + "ed", first + "ing"}
    return sorted(form + space + rest for form in forms)


class PlainLists:
    """The substitutions and the acronym allow list of a run, with the matcher compiled once (see :meth:`build`).

    Equal when the entries and the allow list are; the compiled parts follow from them.
    """

    __slots__ = ("_forms", "_leads", "_pattern", "allow", "substitutions")

    def __init__(
        self,
        substitutions: tuple[Substitution, ...] = (),
        allow: frozenset[str] = frozenset(),
        forms: dict[str, Substitution] | None = None,
        pattern: re.Pattern[str] | None = None,
        leads: frozenset[str | tuple[str, str]] | None = frozenset(),
    ) -> None:
        self.substitutions = substitutions
        self.allow = allow
        self._forms = forms or {}
        self._pattern = pattern
        #: What the folded runs of a text must hold where a form matches (see :func:`_lead`);
        #: ``None`` when a form does not start with a word character.
        self._leads = leads

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlainLists):
            return NotImplemented
        return (self.substitutions, self.allow) == (other.substitutions, other.allow)

    def __hash__(self) -> int:
        return hash((self.substitutions, self.allow))

    def __repr__(self) -> str:
        return f"PlainLists(substitutions={self.substitutions!r}, allow={self.allow!r})"

    @classmethod
    def build(cls, substitutions: Iterable[Substitution], allow: Iterable[str]) -> PlainLists:
        entries = tuple(substitutions)
        forms: dict[str, Substitution] = {}
        for entry in entries:
            for form in inflections(entry.word):
                forms.setdefault(" ".join(form.split()), entry)
        alternatives = sorted(forms, key=len, reverse=True)
        pattern = None
        if alternatives:
            body = "|".join(r"\s+".join(map(re.escape, form.split())) for form in alternatives)
            pattern = re.compile(rf"(?<![\w'’-])(?:{body})(?![\w'’-])", re.IGNORECASE)
        found = [_lead(form) for form in forms]
        leads = None if None in found else frozenset(lead for lead in found if lead is not None)
        return cls(entries, frozenset(acronym_key(item) for item in allow), forms, pattern, leads)

    def find(self, text: str) -> Iterator[tuple[int, int, Substitution]]:
        """``(start, end, substitution)`` for each listed word or phrase in ``text``.

        The same matches as the pattern's ``finditer``, but the pattern (one
        alternative for each form) is tried only where a run of word
        characters starts that a form can start with: an ASCII run whose lower
        case is the first run of a form, or any run with other characters.
        """
        if self._pattern is None:
            return
        if self._leads is None:
            matches: Iterator[re.Match[str]] = self._pattern.finditer(text)
        else:
            matches = _candidates(self._pattern, self._leads, text)
        yield from self._entries(matches)

    def find_plain(self, text: str) -> Iterator[tuple[int, int, Substitution]]:
        """What :meth:`find` gives, the plain way: the whole pattern over the whole text.

        ``tests/test_prose_fast_paths.py`` holds them equal; ``benchmarks/fast_paths.py`` measures what
        :meth:`find` saves.
        """
        if self._pattern is not None:
            yield from self._entries(self._pattern.finditer(text))

    def _entries(self, matches: Iterator[re.Match[str]]) -> Iterator[tuple[int, int, Substitution]]:
        for match in matches:
            entry = self._forms.get(" ".join(match.group(0).lower().split()))
            if entry is not None:
                yield match.start(), match.end(), entry


def _candidates(
    pattern: re.Pattern[str], leads: frozenset[str | tuple[str, str]], text: str
) -> Iterator[re.Match[str]]:
    """The pattern's ``finditer``, tried only where the text's runs are what some form starts with.

    The runs are compared folded (lower case, and the four non-ASCII letters
    that ``IGNORECASE`` takes for ASCII ones made ASCII); at the start of any
    run with other non-ASCII characters the pattern is always tried.
    """
    folded = _fold(text)
    if len(folded) == len(text):  # positions in ``folded`` are positions in ``text``
        runs = _RUN.findall(folded)
        present = leads.intersection(runs) | leads.intersection(pairwise(runs))
        firsts = frozenset(lead if isinstance(lead, str) else lead[0] for lead in present)
        starts = [m.start() for m in _lead_pattern(firsts).finditer(folded)] if firsts else []
        if not text.isascii():
            starts = sorted({*starts, *(m.start() for m in _NON_ASCII_RUN.finditer(text))})
    else:
        starts = [run.start() for run in _RUN.finditer(text)]
    end = 0
    for start in starts:
        if start < end:
            continue
        match = pattern.match(text, start)
        if match is not None:
            end = match.end()
            yield match


#: A run with a character outside ASCII: the case-insensitive pattern is always tried there.
_NON_ASCII_RUN = re.compile(r"(?<![\w'’-])(?=[\w'’-]*?[^\x00-\x7f])[\w'’-]+")


@lru_cache(maxsize=256)
def _lead_pattern(present: frozenset[str]) -> re.Pattern[str]:
    """Where one of these lower-case runs stands whole in a lower-case text."""
    body = "|".join(map(re.escape, sorted(present, key=len, reverse=True)))
    return re.compile(rf"(?<![\w'’-])(?:{body})(?![\w'’-])")


def _read(path: Path, shipped_as: str = "") -> tuple[list[Substitution], list[str], list[str]]:
    """The entries of one list; a shipped one (``shipped_as``: ``rules/…``) comes prebuilt while it is unchanged."""
    found = prebuilt_data(shipped_as) if shipped_as else None
    if found is not None:
        data = found[0]
    else:
        data, text = read_toml(path, "the word list")
        check_schema(data, SCHEMA_NAME, path, text)
    words = [Substitution(item["word"], item["use"], item.get("why", "")) for item in data.get("words", [])]
    return words, list(data.get("allow", [])), [item.lower() for item in data.get("remove", [])]


def load_lists(extra: Iterable[Path] = ()) -> PlainLists:
    """The shipped lists merged with ``extra`` files, in order; later entries win."""
    by_word: dict[str, Substitution] = {}
    allow: list[str] = []
    shipped_lists = [(data_folder("rules") / name, f"rules/{name}") for name in SHIPPED]
    for path, shipped_as in (*shipped_lists, *((path, "") for path in extra)):
        words, allowed, removed = _read(path, shipped_as)
        for entry in words:
            by_word[entry.word.lower()] = entry
        for name in removed:
            by_word.pop(name, None)
        allow += allowed
    return PlainLists.build(by_word.values(), allow)


@cache
def shipped() -> PlainLists:
    return load_lists()
