"""The key a typo most likely meant, and keys that differ from a real one only by a character that looks alike.

A key copied from a document in another script can hold a Cyrillic ``с``
(U+0441) where a Latin ``c`` belongs, a Greek omicron for an ``o``, a
fullwidth letter, or an invisible zero-width character. Such a key looks
right and is not: :func:`suggestion` then names the code point, so the
reader can see what the eye cannot.
"""

from __future__ import annotations

import difflib
import unicodedata
from functools import lru_cache

from mechlint.document.views import quote
from mechlint.text.charnames import char_name

# Cyrillic and Greek letters drawn like a Latin letter, and dashes drawn like a hyphen-minus, in common fonts
# (a subset of Unicode's confusables.txt).
# fmt: off
_LOOKS_LIKE = {
    0x0131: "i", 0x0391: "A", 0x0392: "B", 0x0395: "E", 0x0396: "Z", 0x0397: "H", 0x0399: "I", 0x039A: "K",
    0x039C: "M", 0x039D: "N", 0x039F: "O", 0x03A1: "P", 0x03A4: "T", 0x03A5: "Y", 0x03A7: "X", 0x03B1: "a",
    0x03B9: "i", 0x03BA: "k", 0x03BD: "v", 0x03BF: "o", 0x03C1: "p", 0x03C5: "u", 0x03C7: "x", 0x03F2: "c",
    0x03F3: "j", 0x0405: "S", 0x0406: "I", 0x0408: "J", 0x0410: "A", 0x0412: "B", 0x0415: "E", 0x041A: "K",
    0x041C: "M", 0x041D: "H", 0x041E: "O", 0x0420: "P", 0x0421: "C", 0x0422: "T", 0x0423: "Y", 0x0425: "X",
    0x0430: "a", 0x0435: "e", 0x043A: "k", 0x043E: "o", 0x0440: "p", 0x0441: "c", 0x0443: "y", 0x0445: "x",
    0x0455: "s", 0x0456: "i", 0x0458: "j", 0x04BB: "h", 0x04CF: "l", 0x0501: "d", 0x051B: "q", 0x051D: "w",
    0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2212: "-",
}
# fmt: on
# Characters that show nothing, or nothing visible, in most fonts.
_INVISIBLE = dict.fromkeys(
    [
        *(0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFEFF, 0xFFA0),
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        *range(0xFE00, 0xFE10),
    ]
)
# Letters and digits that look alike within ASCII: swapping one for the other is the likeliest typo.
_ASCII_LOOK_ALIKE = {frozenset(pair) for pair in ("l1", "i1", "o0", "s5", "b8", "z2", "-_")}


def skeleton(text: str) -> str:
    """``text`` as it looks: compatibility forms folded (fullwidth ``ｃ`` → ``c``), invisible characters
    dropped, and Cyrillic and Greek letters that are drawn like Latin ones replaced by them."""
    return _skeleton_of_key(text) if len(text) <= 64 else _skeleton(text)


def _skeleton(text: str) -> str:
    return unicodedata.normalize("NFKC", text.translate(_INVISIBLE)).translate(_LOOKS_LIKE)


#: Keys are short and compared many times over: their skeletons are kept.
_skeleton_of_key = lru_cache(maxsize=4096)(_skeleton)


def odd_characters(text: str) -> list[str]:
    """Each character of ``text`` that is not printable ASCII, named by code point (``U+0441 CYRILLIC SMALL
    LETTER ES``), with what it looks like."""
    described: list[str] = []
    for char in dict.fromkeys(text):
        if char.isascii() and char.isprintable():
            continue
        name = char_name(char)
        shown = skeleton(char)
        if not shown:
            described.append(f"U+{ord(char):04X} {name} (invisible)")
        elif shown != char and shown.isascii():
            described.append(f"U+{ord(char):04X} {name}, which looks like {quote(shown)}")
        else:
            described.append(f"U+{ord(char):04X} {name}")
    return described


def edit_distance(a: str, b: str) -> float:
    """Damerau-Levenshtein distance (optimal string alignment): typos and swaps cost 1.

    Replacing a character by one that looks alike (``l`` and ``1``) costs half.
    """
    previous2: list[float] = []
    previous: list[float] = [float(j) for j in range(len(b) + 1)]
    for i, char_a in enumerate(a, start=1):
        current: list[float] = [float(i)] + [0.0] * len(b)
        for j, char_b in enumerate(b, start=1):
            cost = 0.0 if char_a == char_b else 0.5 if frozenset((char_a, char_b)) in _ASCII_LOOK_ALIKE else 1.0
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def closest(name: str, candidates: list[str]) -> str | None:
    """The candidate a typo most likely meant, or None when none is close.

    A candidate that ``name`` only looks like (same :func:`skeleton`) wins,
    then one equal but for case, then the nearest by :func:`edit_distance`.
    """
    if len(name) > 200 or not candidates:
        return None
    looks = skeleton(name)
    for candidate in candidates:
        if candidate != name and skeleton(candidate) == looks:
            return candidate
    folded = {candidate.lower(): candidate for candidate in candidates}
    if looks.lower() in folded:
        return folded[looks.lower()]
    limit = max(1, min(3, len(name) // 2))
    scored = [
        (edit_distance(looks, candidate), -difflib.SequenceMatcher(None, looks, candidate).ratio(), candidate)
        for candidate in candidates
        if abs(len(candidate) - len(looks)) <= limit
    ]
    best = min(scored, default=None)
    return best[2] if best is not None and best[0] <= limit else None


def explain(name: str, meant: str) -> str:
    """Why ``name`` is not ``meant`` when the two look alike: the code points that differ; or nothing."""
    if name == meant or skeleton(name) != skeleton(meant):
        return ""
    odd = _listed(odd_characters(name))
    return f"{quote(name)} only looks like {quote(meant)}: it has {odd}" if odd else ""


def _listed(described: list[str], limit: int = 3) -> str:
    if len(described) > limit:
        return f"{', '.join(described[:limit])} and {len(described) - limit} more"
    return ", ".join(described)


def suggestion(name: str, candidates: list[str]) -> str:
    """`` (did you mean "x"?)`` for the closest candidate, or `` ("x" only looks like "y": it has U+…)``; or
    nothing."""
    match = closest(name, candidates)
    if match is None:
        return ""
    odd = _listed(odd_characters(name))
    return (
        f" ({explain(name, match) or f'did you mean {quote(match)}?' + (f' {quote(name)} has {odd}' if odd else '')})"
    )
