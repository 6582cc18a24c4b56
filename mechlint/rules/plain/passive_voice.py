"""Reports a verb in the passive voice.

A passive is a form of "be" or "get", optionally "not" (or a contraction
such as "isn't") and up to two adverbs ("-ly" words of five letters or
more, and a closed class of others: "then", "indeed", "duly"; "holy" and
"ugly" are adjectives), then a past participle: a
regular "-ed" form ("tied" and "used" too: a four-letter "-ed" word is one
unless it is "need", "seed" and the like) or one of a list of irregular
participles ("kept", "shown", "written"). To keep false positives down,
participles usually used as adjectives ("based", "interested", "supposed")
are skipped, and so is a participle followed directly by a noun-like word,
which makes it an adjective ("is not measured runtime"). A word after the
participle is not noun-like when it is an adverb ("is evicted early",
"is cached locally"), an adjective by its ending ("is considered harmful",
"is made visible") or a particle ("is set up", "are sent back"): those keep
it a verb. "Used" is a participle
("the blocks are used again") except in "used to" + a gerund or a noun
phrase ("is used to waiting", "is used to the noise").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from mechlint.document import Document, prose
from mechlint.document.prose import CACHE_SIZE, code_spans, in_code, word_set
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

META = RuleMeta(
    id="plain/passive-voice",
    level=Level.NOTE,
    summary="A verb is in the passive voice; say who does what.",
    why=(
        "Active sentences say who acts, which helps readers follow a mechanism step by step. Simplified "
        "Technical English allows the passive only in descriptive text, and only when the actor is unknown."
    ),
    location="the string, narrowed to the verb",
    examples=(
        Example(fires=True, where="/scenarios/0/steps/0/description", json='"The blocks are kept by the cache."'),
        Example(fires=True, where="/caption", json='"The key is not always compared."'),
        Example(fires=False, where="/scenarios/0/steps/0/description", json='"The cache keeps the blocks."'),
    ),
    tags=("plain-language",),
)

BE = word_set(
    "am is are was were be been being get gets got gotten getting isn't aren't wasn't weren't isn’t "
    "aren’t wasn’t weren’t"
)
NEGATIONS = frozenset({"not", "never"})
ADVERBS = word_set(
    "also always again already still only often once twice now then just even never rarely seldom soon "
    "first later here there too quite very almost indeed duly idly"
)
#: Adverbs that a word after a participle may be besides :data:`ADVERBS` and "-ly" words: "is evicted early".
AFTER_ADVERBS = word_set("early late fast hard well ahead alone anew aloud long")
#: Endings of adjectives, never of a noun a participle could qualify: "is considered harmful", "is made visible".
ADJECTIVE_ENDINGS = ("ous", "ive", "ful", "less", "able", "ible")
IRREGULAR = word_set(
    "arisen awoken borne beaten become begun bent bet bid bound bitten blown broken bred brought "
    "broadcast built burnt bought cast caught chosen clung come cost crept cut dealt dug done drawn "
    "dreamt drunk driven eaten fallen fed felt fought found fled flung flown forbidden forgotten forgiven "
    "frozen given gone ground grown hung had heard hidden hit held hurt kept knelt known laid led leant "
    "leapt learnt left lent let lain lit lost made meant met paid put quit read ridden rung risen run "
    "said seen sought sold sent set shaken shed shone shot shown shrunk shut sung sunk sat slain slept "
    "slid slung split spoken spent spilt spun spread sprung stood stolen stuck stung struck strung sworn "
    "swept swollen swum swung taken taught torn told thought thrown thrust trodden understood undone "
    "upset woken worn woven wept won wound withdrawn written rebuilt rerun reset rewritten overwritten "
    "undergone"
)
ADJECTIVAL = word_set(
    "based concerned interested supposed tired pleased surprised worried excited married involved "
    "experienced advanced detailed complicated sophisticated dedicated qualified unrelated related "
    "limited finished done gone aged bored scared ashamed amazed convinced determined prepared "
    "satisfied"
)
NOT_PARTICIPLES = word_set("speed embed indeed hundred exceed proceed succeed")
CONTINUERS = word_set(
    "by to in on at for with from into onto over under after before during until unless because when "
    "while if as than that which who so and or but nor via per through without within between across "
    "again once twice later first here there now then too also only still yet instead anyway "
    "up out down off away back apart aside together"
)
#: After "used to", these start a noun phrase: "is used to the noise" means "accustomed to".
NOUN_PHRASE_STARTS = word_set("the a an it this that these those them him her me us you my his its our their")
_BE_HINT = re.compile(
    r"\b(?:am|is|are|was|were|be|been|being|gets?|got|gotten|getting|isn|aren|wasn|weren)\b", re.IGNORECASE
)
#: The same hint for lower-case text, case-sensitive and factored: it finds every string that
#: :func:`passives` can find something in (its words are ASCII), several times faster.
_BE_HINT_LOWER = re.compile(r"\b(?:a(?:m|ren?)|isn?|w(?:as|ere)n?|be(?:en|ing)?|g(?:ets?|ot(?:ten)?|etting))\b")
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")


def is_participle(word: str) -> bool:
    lower = word.lower()
    if lower in ADJECTIVAL or lower in NOT_PARTICIPLES:
        return False
    return lower in IRREGULAR or _regular(lower)


def _regular(lower: str) -> bool:
    """A regular "-ed" participle: five letters or more ("stored"), or four whose stem ends in "e" ("tied",
    "used", "owed"), never "need", "seed", "feed" ("ee" then "d") nor three letters ("bed", "red")."""
    if not lower.endswith("ed"):
        return False
    return len(lower) > 4 or (len(lower) == 4 and lower[1] != "e")


def _accustomed(tokens: list[re.Match[str]], used: int) -> bool:
    """ "used to" then a gerund or a noun phrase: the adjective "accustomed", not a passive."""
    if used + 2 >= len(tokens) or tokens[used + 1].group(0).lower() != "to":
        return False
    word = tokens[used + 2].group(0).lower()
    return word in NOUN_PHRASE_STARTS or (len(word) > 4 and word.endswith("ing"))


def _is_adverb(word: str) -> bool:
    lower = word.lower()
    return lower in ADVERBS or (len(lower) > 4 and lower.endswith("ly") and lower not in {"only", "early"})


def _keeps_verb(word: str) -> bool:
    """Whether a lower-case word right after a participle leaves it a verb: a particle or other continuer, an
    adverb ("is evicted early"), or an adjective by its ending ("is considered harmful"), not a noun it qualifies
    ("is not measured runtime")."""
    lower = word.lower()
    return lower in CONTINUERS or _is_adverb(lower) or lower in AFTER_ADVERBS or lower.endswith(ADJECTIVE_ENDINGS)


@lru_cache(maxsize=CACHE_SIZE)
def passives(text: str) -> tuple[tuple[int, int], ...]:
    """Character ranges from the form of "be" to the participle."""
    return tuple(_passives(text))


def _passives(text: str) -> Iterator[tuple[int, int]]:
    if _BE_HINT.search(text) is None:
        return
    code = code_spans(text) if "`" in text else []
    tokens = list(_TOKEN.finditer(text))
    if code:
        tokens = [m for m in tokens if not in_code(code, m.start())]
    for index, token in enumerate(tokens):
        if token.group(0).lower() not in BE:
            continue
        position = index + 1
        if position < len(tokens) and tokens[position].group(0).lower() in NEGATIONS:
            position += 1
        adverbs = 0
        while position < len(tokens) and adverbs < 2 and _is_adverb(tokens[position].group(0)):
            position += 1
            adverbs += 1
        if position >= len(tokens) or not is_participle(tokens[position].group(0)):
            continue
        participle = tokens[position]
        if not re.fullmatch(r"[\s\w'’]*", text[token.end() : participle.start()]):
            continue
        after = tokens[position + 1] if position + 1 < len(tokens) else None
        if participle.group(0).lower() == "used" and _accustomed(tokens, position):
            continue
        if after is not None and text[participle.end() : after.start()].isspace():
            word = after.group(0)
            if word.islower() and not _keeps_verb(word):
                continue
        yield token.start(), participle.end()


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    """One search over the file's prose joined into one text (:meth:`prose.Joined.having`) finds the strings
    with a form of "be" or "get"; only those are read. :func:`check_plain` reads every string (a test holds
    the two equal)."""
    whole = prose.joined(document)
    hinted = whole.having(_BE_HINT_LOWER, lower=True)
    yield from _findings(whole.passages if hinted is None else [whole.passages[index] for index in hinted])


def check_plain(document: Document, context: RuleContext) -> Iterator[Finding]:
    """What :func:`check` finds, the plain way: :func:`passives` of every string."""
    yield from _findings(prose.of(document))


def _findings(passages: Iterable[prose.Passage]) -> Iterator[Finding]:
    for passage in passages:
        for start, end in passives(passage.text):
            yield META.finding(
                passage.pointer,
                f"{quote(passage.text[start:end])} is passive; say who or what does it (active voice)",
                span=(start, end),
            )
