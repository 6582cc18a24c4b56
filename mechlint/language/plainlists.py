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

from mechlint.prebuilt import prebuilt_data
from mechlint.records import Record
from mechlint.resources import data_folder
from mechlint.schema.datafile import check_schema, read_toml

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
    """The substitutions and the acronym allow list of a run, with the matcher built once (see :meth:`build`).

    Equal when the entries and the allow list are; the matcher follows from them.
    """

    __slots__ = ("_by_lead", "_compiled", "_forms", "_leads", "allow", "substitutions")

    def __init__(
        self,
        substitutions: tuple[Substitution, ...] = (),
        allow: frozenset[str] = frozenset(),
        forms: dict[str, Substitution] | None = None,
    ) -> None:
        self.substitutions = substitutions
        self.allow = allow
        self._forms = forms or {}
        #: The forms by the first folded run of each, longest first (``None``: every form, the whole pattern).
        self._by_lead: dict[str | None, list[str]] = {None: sorted(self._forms, key=len, reverse=True)}
        leads: set[str | tuple[str, str]] = set()
        anywhere = False  # a form that does not start with a word character could start anywhere
        for form in self._by_lead[None]:
            lead = _lead(form)
            if lead is None:
                anywhere = True
            else:
                leads.add(lead)
                self._by_lead.setdefault(lead if isinstance(lead, str) else lead[0], []).append(form)
        #: What the folded runs of a text must hold where a form matches (see :func:`_lead`);
        #: ``None`` when a form does not start with a word character.
        self._leads = None if anywhere else frozenset(leads)
        #: The pattern of each lead, compiled when a text first needs it (the whole one takes milliseconds).
        self._compiled: dict[str | None, re.Pattern[str]] = {}

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
        return cls(entries, frozenset(acronym_key(item) for item in allow), forms)

    def pattern(self, lead: str | None = None) -> re.Pattern[str] | None:
        """The pattern of the forms whose first run is ``lead`` (folded); of every form for ``None``.

        One alternative for each form, longest first, case-insensitive, each
        standing whole (no word character or joiner on either side).
        """
        compiled = self._compiled.get(lead)
        if compiled is None:
            alternatives = self._by_lead.get(lead)
            if not alternatives:
                return None
            body = "|".join(r"\s+".join(map(re.escape, form.split())) for form in alternatives)
            compiled = self._compiled[lead] = re.compile(rf"(?<![\w'’-])(?:{body})(?![\w'’-])", re.IGNORECASE)
        return compiled

    def find(self, text: str) -> Iterator[tuple[int, int, Substitution]]:
        """``(start, end, substitution)`` for each listed word or phrase in ``text``.

        The same matches as the whole pattern's ``finditer``, but a pattern is
        tried only where a run of word characters starts that a form can start
        with, and there only the forms that start with that run: where an ASCII
        run's lower case is the first run of a form (a form with another first
        run cannot match there), and (the whole pattern) at any run with other
        characters.
        """
        if not self._forms:
            return
        if self._leads is None:
            whole = self.pattern()
            assert whole is not None
            matches: Iterator[re.Match[str]] = whole.finditer(text)
        else:
            matches = _candidates(self, self._leads, text)
        yield from self._entries(matches)

    def find_plain(self, text: str) -> Iterator[tuple[int, int, Substitution]]:
        """What :meth:`find` gives, the plain way: the whole pattern over the whole text.

        ``tests/test_prose_fast_paths.py`` holds them equal; ``benchmarks/fast_paths.py`` measures what
        :meth:`find` saves.
        """
        whole = self.pattern()
        if whole is not None:
            yield from self._entries(whole.finditer(text))

    def _entries(self, matches: Iterator[re.Match[str]]) -> Iterator[tuple[int, int, Substitution]]:
        for match in matches:
            entry = self._forms.get(" ".join(match.group(0).lower().split()))
            if entry is not None:
                yield match.start(), match.end(), entry


def _candidates(lists: PlainLists, leads: frozenset[str | tuple[str, str]], text: str) -> Iterator[re.Match[str]]:
    """The whole pattern's ``finditer``, tried only where the text's runs are what some form starts with.

    The runs are compared folded (lower case, and the four non-ASCII letters
    that ``IGNORECASE`` takes for ASCII ones made ASCII); at the start of any
    run with other non-ASCII characters the whole pattern is always tried.
    """
    folded = _fold(text)
    starts: list[tuple[int, str | None]]
    if len(folded) == len(text):  # positions in ``folded`` are positions in ``text``
        runs = _RUN.findall(folded)
        present = leads.intersection(runs) | leads.intersection(pairwise(runs))
        firsts = frozenset(lead if isinstance(lead, str) else lead[0] for lead in present)
        starts = [(m.start(), m.group()) for m in _lead_pattern(firsts).finditer(folded)] if firsts else []
        if not text.isascii():
            wide = {m.start() for m in _NON_ASCII_RUN.finditer(text)}
            kept = [(start, lead) for start, lead in starts if start not in wide]
            starts = sorted([*kept, *((start, None) for start in wide)], key=lambda pair: pair[0])
    else:
        starts = [(run.start(), None) for run in _RUN.finditer(text)]
    end = 0
    for start, lead in starts:
        if start < end:
            continue
        pattern = lists.pattern(lead)
        match = pattern.match(text, start) if pattern is not None else None
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
