"""Values derived from a document are typed, cached accessors keyed by the function that computes them."""

from __future__ import annotations

from mechlint.document import Document, load, prose

from .conftest import SEED


def test_a_derived_value_is_computed_once_per_document_and_function() -> None:
    document = load("seed.json", SEED.read_bytes())
    calls: list[str] = []

    def count_steps(document: Document) -> int:
        calls.append("steps")
        return len(document.lines)

    def count_chars(document: Document, extra: int) -> int:
        calls.append("chars")
        return len(document.text) + extra

    assert document.derived(count_steps) == document.derived(count_steps) == len(document.lines)
    assert document.derived(count_chars, 1) == len(document.text) + 1
    assert document.derived(count_chars, 1) == len(document.text) + 1
    assert calls == ["steps", "chars"]
    other = load("seed.json", SEED.read_bytes())
    other.derived(count_steps)
    assert calls == ["steps", "chars", "steps"], "each document has its own values"


def test_the_prose_views_are_shared_and_consistent() -> None:
    document = load("seed.json", SEED.read_bytes())
    assert prose.of(document) is prose.of(document)
    assert prose.joined(document) is prose.joined(document)
    assert prose.joined(document, labels=True) is not prose.joined(document)
    assert all(p.kind != "label" for p in prose.of(document))
    assert len(prose.of(document, labels=True)) >= len(prose.of(document))


def test_there_is_no_string_keyed_scratchpad() -> None:
    assert not hasattr(Document, "memo")
