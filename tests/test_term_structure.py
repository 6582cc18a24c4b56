"""Term variants and acronyms decided by structure (issue 26, point 2).

A capital is a variant unless a sentence, a title or a label starts there; a
compound is one term in its spaced, hyphenated and joined spellings even
with a function word inside; a plural definition defines the singular. Each
case has its control: the careful text that looks alike and is right.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mechlint.run.engine import lint_bytes

from .test_corpus import BLOG, CORPUS, GC


def findings(description: str, caption: str, **more: str) -> list[tuple[str, str, str]]:
    doc: Any = json.loads((CORPUS / BLOG / GC).read_text(encoding="utf-8"))
    doc["description"] = "A garbage collector (GC) frees memory. " + description
    doc["caption"] = caption
    if "label" in more:
        doc["targets"]["a"]["label"] = more["label"]
    if "title" in more:
        doc["scenarios"][0]["steps"][0]["title"] = more["title"]
    return [
        (r.rule_id, r.pointer, r.message)
        for r in lint_bytes(json.dumps(doc, indent=2).encode())
        if r.rule_id in ("plain/term-consistency", "plain/undefined-acronym")
    ]


VARIANTS = [
    ("The CPU walks the page table.", "A miss reads the Page Table.", '"Page Table" is a variant of "page table"'),
    ("The CPU walks the page table.", "A miss reads the Page table.", '"Page table" is a variant of "page table"'),
    ("The kernel shares the page table.", "Each process has a Page Table Entry.",
     '"Page Table" is a variant of "page table"'),
    ("A write to the page does copy on write.", "The kernel marks the page copy-on-write.",
     '"copy-on-write" is a variant of "copy on write"'),
    ("The kernel marks the page copy-on-write.", "A write to the page does copy on write.",
     '"copy on write" is a variant of "copy-on-write"'),
    ("The test runs end to end.", "An end-to-end test is slow.", '"end-to-end" is a variant of "end to end"'),
    ("Each request is checked end-to-end.", "The end to end check is slow.",
     '"end to end" is a variant of "end-to-end"'),
    ("The design is state-of-the-art.", "A state of the art design is rare.",
     '"state of the art" is a variant of "state-of-the-art"'),
]  # fmt: skip


@pytest.mark.parametrize(("description", "caption", "says"), VARIANTS)
def test_a_variant_is_found_by_its_structure(description: str, caption: str, says: str) -> None:
    found = findings(description, caption)
    assert [(rule, pointer) for rule, pointer, _ in found] == [("plain/term-consistency", "/caption")]
    assert found[0][2].startswith(says)


CONTROLS = [
    # a capital at a sentence start, after a colon, in a title or in a label
    ("The CPU walks the page table.", "Page tables live in memory. Page table walks are slow."),
    ("The CPU walks the page table.", "Step two: Page table walk."),
    ("The CPU walks the page table.", "A miss starts a walk.", "title", "Walk the Page Table"),
    ("The CPU walks the page table.", "A miss starts a walk.", "label", "Page Table"),
    # a proper name the file never writes in lower case, at a start and in mid-sentence
    ("Raft elects a leader.", "In Raft, each server votes once. Raft Leaders send heartbeats to Raft Followers."),
    ("The Linux Kernel keeps a page cache.", "Linux Kernel threads write the pages back."),
    # a single word with a capital is a name as often as a mistake: Go, Edge
    ("Requests go to the server.", "The Go runtime sends them."),
    # "from end to end" is a phrase, not the compound
    ("The packet travels from end to end.", "An end-to-end check finds the loss."),
    # a phrase of function words, or a function word at the end, is no compound
    ("The server sets up the page.", "The setup takes a second."),
    ("The data goes in to the page.", "The data goes into the page."),
    # one spelling only
    ("A write does copy on write.", "Copy on write saves memory."),
    ("The kernel marks the page copy-on-write.", "Copy-on-write saves memory."),
]


@pytest.mark.parametrize("case", CONTROLS, ids=[case[1] for case in CONTROLS])
def test_careful_text_is_no_variant(case: tuple[str, ...]) -> None:
    description, caption, *where = case
    more = {where[0]: where[1]} if where else {}
    assert findings(description, caption, **more) == []


@pytest.mark.parametrize(
    ("description", "caption"),
    [
        ("The CPU keeps translation lookaside buffers (TLBs).", "A miss in the TLB walks the table."),
        ("The CPU keeps translation lookaside buffers (TLBs).", "The kernel flushes the TLBs."),
        ("The kernel flushes the TLBs.", "The CPU keeps translation lookaside buffers (TLBs)."),
        ("The CPU keeps a translation lookaside buffer (TLB).", "A miss in both TLBs walks the table."),
        ("TLBs (translation lookaside buffers) cache walks.", "A miss in the TLB walks the table."),
        ("TLBs, short for translation lookaside buffers, cache walks.", "The TLB misses."),
    ],
)
def test_a_plural_definition_defines_the_singular_and_the_reverse(description: str, caption: str) -> None:
    assert findings(description, caption) == []


def test_an_undefined_plural_is_still_reported_once_where_it_is_used() -> None:
    found = findings("The kernel flushes the TLBs.", "A miss in the TLB walks the table.")
    assert [(rule, pointer) for rule, pointer, _ in found] == [("plain/undefined-acronym", "/description")]
    assert '"TLB"' in found[0][2]
