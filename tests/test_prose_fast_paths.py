"""The fast paths of the prose rules give exactly what their plain twins give.

Each fast path (one search per sentence instead of grouping every word,
candidate positions before a big pattern, one regex pass over a whole file,
set operations before an exact pass) is checked against the plain function
beside it, through public names, on generated text full of the characters
that make prose hard. ``benchmarks/fast_paths.py`` measures what each saves.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mechlint.document import load, prose
from mechlint.language.plainlists import PlainLists, Substitution, shipped
from mechlint.rules import RuleContext
from mechlint.rules.plain import passive_voice, term_consistency, word_choice

from .conftest import SEED

PIECES = (
    "KV", "K/V", "kv", "cache key", "cache-key", "Cache Key", "the", "is", "was", "are", "been", "got",
    "stored", "kept", "written", "not", "always", "by", "prior to", "Prior To", "utilize", "UTILIZES",
    "in order to", "e.g.", "i.e.", "etc.", "TTFT", "time to first token (TTFT)", "GPU", "A/B", "B's", "B’s",
    "`code span`", "`", "3000 ms", "1.5", "v2.0", "P=4", "p1–p4", "…", "...", ".", "!", "?", ",", "(", ")",
    "“", "”", "'", '"', "\n", "\t", "  ", "İ", "ı", "ſ", "\u212a", "ß", "Σ", "é", "x", "Re-use", "re-use",
    "a", "leverage", "leveraging", "whilst", "due to", "\x00", "so-called", "SO-CALLED", "UTİLİZE", "über", "Über",
    "ſo-called", "(sic)", "K", "V", "k v", "kvcache", "KV-cache", "prior-to", "Use `a. B` now",
)  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=30).map(" ".join) | st.text(
    alphabet=st.sampled_from("aAbBkKsS .-'’`İıſ\u212a\n(TV/"), max_size=40
)


@settings(max_examples=400, deadline=None)
@given(texts)
@example("Use `a. B` now.")
@example("A `b\nc` d. E `f`. G")
@example("One. Two! Three?")
@example("Plain words")
def test_analysis_equals_the_plain_analysis(text: str) -> None:
    assert prose.analyze(text) == prose.analyze_plain(text)


ODD_LISTS = (
    shipped(),
    PlainLists.build([Substitution("e.g.", "for example", ""), Substitution("ſo-called", "so", "")], []),
    PlainLists.build([Substitution("(sic)", "", ""), Substitution("über", "over", "")], []),
    # forms sharing a first run, of different lengths, one with a Kelvin sign (each lead has its own pattern)
    PlainLists.build([Substitution(w, "x", "") for w in ("k", "k v", "kv cache", "\u212av", "k v cache", "so")], []),
)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from(ODD_LISTS))
def test_word_list_matches_equal_a_plain_scan_with_the_whole_pattern(text: str, lists: PlainLists) -> None:
    assert list(lists.find(text)) == list(lists.find_plain(text))


# --- whole rules: the fast way and the plain way on generated documents -------


def _document(strings: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SEED.read_text(encoding="utf-8"))
    fields = ["title", "description", "caption", "alt"]
    for name, text in zip(fields, strings, strict=False):
        data[name] = text
    steps = data["scenarios"][0]["steps"]
    for step, text in zip(steps, strings[len(fields) :], strict=False):
        step["description"] = text
    data["limitations"] = strings[len(fields) + len(steps) :] or data["limitations"]
    return data


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([word_choice, passive_voice, term_consistency]), st.lists(texts, min_size=1, max_size=12))
@example(term_consistency, ["The k v cache fills.", "The kvcache is full."])
@example(term_consistency, ["The KV cache fills.", "A K V cache is full."])
@example(term_consistency, ["Cache key first.", "The cache-key matches.", "Is stored by A."])
@example(word_choice, ["Wait prior", "to this", "in order to"])
@example(passive_voice, ["It is", "kept. It IS kept", "Was not always written"])
def test_prose_rules_find_with_their_fast_paths_what_their_plain_twins_find(rule: Any, strings: list[str]) -> None:
    data = _document(strings)
    document = load("x.json", json.dumps(data).encode())
    context = RuleContext(options={"allow": []}, word_lists=shipped())
    fast = [(f.pointer, f.message, f.span) for f in rule.check(document, context)]
    plain = [(f.pointer, f.message, f.span) for f in rule.check_plain(document, context)]
    assert fast == plain


def test_a_listed_phrase_across_two_strings_falls_back_to_each_string_alone() -> None:
    lists = PlainLists.build([Substitution("in\x00order", "x", "")], [])
    data = _document(["Wait in", "order now"])
    document = load("x.json", json.dumps(data).encode())
    whole = prose.joined(document)
    assert whole.split(lists.find(whole.text)) is None
    context = RuleContext(options={}, word_lists=lists)
    assert list(word_choice.check(document, context)) == []


def test_joined_text_maps_matches_back_to_their_strings() -> None:
    document = load("x.json", json.dumps(_document(["Alpha beta.", "Gamma"])).encode())
    whole = prose.joined(document)
    hits = whole.split((m.start(), m.end(), m.group()) for m in re.finditer(r"[A-Z]\w+", whole.text))
    assert hits is not None
    assert [(whole.passages[i].pointer, whole.passages[i].text[a:b]) for i, a, b, _ in hits][:2] == [
        ("/title", "Alpha"),
        ("/description", "Gamma"),
    ]
