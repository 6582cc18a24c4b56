"""The cold CI path (issue 19, round 2): what a fresh clone pays, and shortcuts that must not change answers."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from mechlint.document import prose
from mechlint.invariants.textsearch import text_column, text_column_plain
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.git import CatFile, open_history
from mechlint.provenance.index import BlobIndex
from mechlint.run.parallel import chunks
from mechlint.safety.saferegex import UnsafePattern, compile_pattern

from .gitrepo import commit, git, init


class _CountingReader:
    """A ``cat-file`` reader that counts the objects it is asked for."""

    def __init__(self, reader: CatFile) -> None:
        self.reader = reader
        self.asked: list[str] = []

    def read_many(self, oids: Iterable[str]) -> Iterator[tuple[str, str, bytes | None]]:
        wanted = list(oids)
        self.asked += wanted
        return self.reader.read_many(wanted)

    def close(self) -> None:
        self.reader.close()


def _blobs(folder: Path) -> dict[str, bytes]:
    init(folder)
    bodies = {"a.md": b"first article\n", "b.md": b"second article\n", "c.bin": b"\x00\xff binary"}
    commit(folder, "add", dict(bodies.items()))
    return {git(folder, "rev-parse", f"HEAD:{name}"): body for name, body in bodies.items()}


def test_a_blob_hashed_in_this_process_is_believed_without_a_second_read(tmp_path: Path) -> None:
    blobs = _blobs(tmp_path / "repo")
    history = open_history(tmp_path / "repo")
    counting = _CountingReader(history.cat)
    history.cat = counting  # type: ignore[assignment]
    index = BlobIndex(history, BlobCache(None))
    tree = git(tmp_path / "repo", "rev-parse", "HEAD^{tree}")
    digests = index.digests([*blobs, tree])
    assert digests == {**{oid: hashlib.sha256(body).hexdigest() for oid, body in blobs.items()}, tree: None}
    read = len(counting.asked)
    for oid, body in blobs.items():
        assert index.verified(oid, hashlib.sha256(body).hexdigest())
        assert not index.verified(oid, hashlib.sha256(body + b"x").hexdigest())
        assert not index.verified(oid, "")
    assert len(counting.asked) == read  # no second read of a blob hashed here
    assert not index.verified(tree, "0" * 64)  # not a blob: read, and refused as before
    history.close()


def test_verified_answers_the_same_with_and_without_a_digest_made_here(tmp_path: Path) -> None:
    blobs = _blobs(tmp_path / "repo")
    history = open_history(tmp_path / "repo")
    cache = BlobCache(None)
    warm, cold = BlobIndex(history, cache), BlobIndex(history, cache)
    warm.digests(blobs)
    candidates = [hashlib.sha256(body).hexdigest() for body in blobs.values()] + ["", "0" * 64]
    for oid in blobs:
        for digest in candidates:
            assert warm.verified(oid, digest) == cold.verified(oid, digest), (oid, digest)
    history.close()


# -- invariants: a text atom's column, one search over the joined step texts first --------------------------------

_PATTERN_PIECES = st.sampled_from(
    [
        "a",
        "b",
        "ab",
        ".",
        "é",
        "^",
        "$",
        "\\A",
        "\\z",
        "\\Z",
        "\\b",
        "\\B",
        "\\n",
        "\\w",
        "\\s",
        "\\\\",
        "\\Q",
        "\\E",
        "(?m)",
        "(?s)",
        "(?i)",
        "(?-m:",
        "(?:",
        "(",
        ")",
        "|",
        "*",
        "+",
        "?",
        "{2}",
        "[",
        "]",
        "[^",
        "[]",
        "[$]",
        "[^^]",
        " ",
        "\n",
    ]
)
_STEP_TEXT = st.lists(
    st.sampled_from(["a", "b", "A", " ", "\n", ".", "é", "ab", "$", "^", "[", "]", "日本", "😀"]), max_size=8
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_PATTERN_PIECES, min_size=1, max_size=8).map("".join), st.lists(_STEP_TEXT.map("".join), max_size=6))
@example("^a", ["b", "a"])
@example("a$", ["a", "b"])
@example("\\Aa", ["b", "a"])
@example("a\\z", ["a", "b"])
@example("(?m)^a$", ["b", "a"])
@example("\\ba\\b", ["a", "a"])
@example("[^^]a[$]", ["ba$", "x"])
@example("a\\n.", ["a", "b"])
@example("a(\\nb)?", ["xa", "b"])  # the first match runs into the next text; the text it starts in still matches
@example("a\\s*b", ["a", "b", "ab"])
def test_text_column_agrees_with_a_search_per_step(pattern: str, texts: list[str]) -> None:
    try:
        compile_pattern(pattern)
    except UnsafePattern:
        assume(False)
    assert text_column(pattern, texts) == text_column_plain(pattern, texts)


def test_text_column_fails_on_a_lone_surrogate_as_a_search_per_step_does() -> None:
    for column in (text_column, text_column_plain):
        with pytest.raises(UnicodeError):
            column("a", ["b", "a\ud800"])


def test_text_column_agrees_on_the_documented_invariants() -> None:
    """The text() patterns of the shipped invariants and of docs/invariants.md's worked examples (the built-in
    one reads its text by clauses now, and has none)."""
    root = Path(__file__).resolve().parent.parent
    files = [*sorted((root / "rules" / "invariants").glob("*.toml")), root / "docs" / "invariants.md"]
    source = "\n".join(path.read_text(encoding="utf-8") for path in files)
    patterns = [json.loads(f'"{found}"') for found in re.findall(r'text\("((?:[^"\\]|\\.)*)"\)', source)]
    assert patterns
    texts = ["The key of B is compared with the entries.", "Same key", "B waits.", "A looks up the cache.", ""]
    for pattern in patterns:
        for count in range(1, len(texts) + 1):
            for start in range(len(texts)):
                chosen = (texts[start:] + texts[:start])[:count]
                assert text_column(pattern, chosen) == text_column_plain(pattern, chosen), (pattern, chosen)


# -- workers: short chunks, so that no worker waits long for the other at the end ------------------------------------


@given(st.integers(min_value=0, max_value=30_000), st.integers(min_value=1, max_value=8))
def test_chunks_cover_every_file_in_order_and_stay_short(total: int, jobs: int) -> None:
    found = chunks(total, jobs)
    assert [index for start, stop in found for index in range(start, stop)] == list(range(total))
    assert all(stop > start for start, stop in found)
    assert max((stop - start for start, stop in found), default=0) <= max(4, min(64, total // (jobs * 16)))


# -- prose: a string with no sentence mark, or one as its last character, is one sentence --------------------------


@pytest.mark.parametrize(
    "text",
    [
        *("", " ", "\t ", "Plain words", "  Plain words  ", "Ends here.", "Ends here!", "Asks?", "Trails…", " x. "),
        *(".", "!", "…", " .", "Mid. sentence", "A.b", "e.g", "“Quoted.”", "Quoted.”", "(So.)", "x\u2028y."),
        *("One. Two.", "One.  ", "Dr. Who", "v2.0", "3.5 ms.", "a.. b", "\u00a0x.", "x.\u00a0", "ı.", "İ"),
    ],
)
def test_sentences_of_a_string_with_one_mark_at_most_agree_with_the_plain_split(text: str) -> None:
    assert prose.sentences(text) == prose.sentences_plain(text)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("aB .!?…\"”)\t\u00a0\u2028'"), max_size=12))
def test_sentences_agree_with_the_plain_split_on_few_marks(text: str) -> None:
    assert prose.sentences(text) == prose.sentences_plain(text)
