"""A corpus written as careful authors would, and single-defect mutants of it (issue 13).

``tests/corpus/`` holds mechanisms on subjects other than caching (a TCP
handshake, a Raft election, DNS, TLS 1.3, a B-tree insert, mark and sweep,
HTTP/2 flow control, a hash ring, TLS tickets, HTTP keep-alive; for issue 26 a
write-ahead log, a Bloom filter, a token bucket, and three caches: a DNS stub
resolver's cache with a time to live, a CPU cache line fill, a build cache)
and the source files they pin, as they were when pinned. The module builds one git
repository from it with a history: drafts before the pinned articles, an
article renamed after it was pinned, an edit reverted, a migration that
freezes two illustrations under ``research/<name>/before/`` and changes the
originals, and a later commit that deletes one frozen copy and two notes
files. So the clean files need history to pass.

Every clean file must give no warning and no error, and no note except the
ones the catalogue says are right (``provenance/frozen-resolved`` for a pinned
file that is gone). Each mutant in ``MUTANTS`` is one small edit of one clean
file; it must give exactly the findings listed (rule id and pointer) beyond
those of its clean file, on the line of the mutant text named by ``at``.
Adding a case needs no code: a row of the table. ``MUTANTS_26`` holds the
rows of issue 26 (term variants, acronyms, schema patterns and numbers,
messages, and the compare step and provenance cases whose verdict needs
another branch's work: those are marked ``needs(n)``, a strict xfail).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.model import Level, Result

from .gitrepo import commit, init, shallow_clone

CORPUS = Path(__file__).parent / "corpus"
BLOG = "content/blog/"
FROZEN = "research/mechanism-migration-2026-11-02/before/"

TCP = "2026-02-03_tcp-handshake/mechanisms/three-way-handshake.json"
RAFT = "2026-02-17_raft-leader-election/mechanisms/leader-election.json"
DNS = "2026-03-04_dns-resolution/mechanisms/recursive-resolution.json"
TLS = "2026-03-18_tls-13-handshake/mechanisms/full-handshake.json"
BTREE = "2026-04-01_b-tree-insert/mechanisms/leaf-split.json"
GC = "2026-04-15_mark-and-sweep/mechanisms/mark-and-sweep.json"
H2 = "2026-05-06_http2-flow-control/mechanisms/stream-window.json"
RING = "2026-05-20_consistent-hashing/mechanisms/add-a-server.json"
TICKET = "2026-06-03_tls-session-resumption/mechanisms/ticket-resumption.json"
KEEP = "2026-06-17_http-keep-alive/mechanisms/keep-alive.json"
WAL = "2026-07-01_write-ahead-log/mechanisms/commit-and-crash.json"
BLOOM = "2026-07-15_bloom-filter/mechanisms/membership-test.json"
BUCKET = "2026-07-29_token-bucket/mechanisms/rate-limit.json"
RESOLVER = "2026-08-12_dns-cache-ttl/mechanisms/cached-answer.json"
LINE = "2026-08-26_cache-line-fill/mechanisms/line-fill.json"
BUILD = "2026-09-09_build-cache/mechanisms/cached-compile.json"
#: The subjects of issue 26's round: three caches (with store0 and reuse0) and three mechanisms that are not.
ROUND_26 = (WAL, BLOOM, BUCKET, RESOLVER, LINE, BUILD)
CLEAN = (TCP, RAFT, DNS, TLS, BTREE, GC, H2, RING, TICKET, KEEP, *ROUND_26)

TCP_POST = BLOG + "2026-02-03_tcp-handshake/post.md"
DNS_POST = BLOG + "2026-03-04_dns-resolution/post.md"
RING_POST = BLOG + "2026-05-20_consistent-hashing/post.md"
#: Where an article was before a later commit renamed it.
RENAMED = {RING_POST: BLOG + "2026-05-20_consistent-hashing/article.md"}
#: Articles that had a shorter draft committed before the pinned version (at their first path).
DRAFTED = (TCP_POST, DNS_POST, RING_POST)
#: An article edited after it was pinned, and the edit reverted.
REVERTED = DNS_POST
#: Illustrations frozen by the migration (then changed at their original path).
MIGRATED = (
    BLOG + "2026-03-18_tls-13-handshake/illustrations/handshake.svg",
    BLOG + "2026-04-01_b-tree-insert/illustrations/split.svg",
)
#: Pinned files deleted from the working tree after they were pinned.
#: Notes pinned by no clean file, deleted later: a mutant cites them (issue 26, point 5: a gone source).
GONE_NOTES = BLOG + "2026-07-15_bloom-filter/notes/false-positives.md"
DELETED = (FROZEN + MIGRATED[1], GONE_NOTES)
#: A "frozen copy" whose bytes never were at its original path.
FALSE_COPY = FROZEN + BLOG + "2026-03-18_tls-13-handshake/post.md"
FALSE_COPY_BYTES = b"# The TLS 1.3 handshake, retold\n"

#: The notes the catalogue says are right on the clean corpus.
EXPECTED_NOTES = {
    BTREE: [("provenance/frozen-resolved", "/sources/1/path")],
}


def point(n: int, what: str = "") -> pytest.MarkDecorator:
    """The numbered point of issue 13 a case covers (select them with ``-m issue13``)."""
    return pytest.mark.issue13(n, what)


def p26(n: int, what: str = "") -> pytest.MarkDecorator:
    """The numbered point of issue 26 a case covers (select them with ``-m issue26``)."""
    return pytest.mark.issue26(n, what)


def needs(n: int) -> pytest.MarkDecorator:
    """A case whose right verdict needs issue 26 point ``n``, built on another branch: it fails until that
    work merges, then XPASS fails, and the mark goes."""
    return pytest.mark.xfail(strict=True, reason=f"needs issue 26 point {n} (other branch)")


def FALSE_ALARM(what: str) -> pytest.MarkDecorator:
    """A false alarm or a confusing finding this corpus found, outside the points of issue 13 (now fixed)."""
    return pytest.mark.false_alarm(what)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def draft(relative: str) -> bytes:
    """The draft of an article: its first six lines."""
    return b"".join((CORPUS / relative).read_bytes().splitlines(keepends=True)[:6])


def migrated(relative: str) -> bytes:
    return (CORPUS / relative).read_bytes().replace(b"<svg ", b'<svg class="migrated" ', 1)


# -- the repository --------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    repo: Path
    clean: dict[str, list[Result]]
    mutants: dict[str, tuple[str, list[Result]]] = field(default_factory=dict)


def build(repo: Path) -> None:
    init(repo)
    commit(repo, "drafts", {RENAMED.get(relative, relative): draft(relative) for relative in DRAFTED})
    files = {p.relative_to(CORPUS).as_posix(): p.read_bytes() for p in sorted(CORPUS.rglob("*")) if p.is_file()}
    commit(repo, "articles and mechanisms", {RENAMED.get(path, path): data for path, data in files.items()})
    renames: dict[str, bytes | str | None] = dict.fromkeys(RENAMED.values())
    commit(repo, "rename articles", renames | {path: files[path] for path in RENAMED})
    commit(repo, "a typo", {REVERTED: files[REVERTED].replace(b"address", b"adress", 1)})
    commit(repo, "revert the typo", {REVERTED: files[REVERTED]})
    migration: dict[str, bytes | str | None] = {FROZEN + path: files[path] for path in MIGRATED}
    migration.update({path: migrated(path) for path in MIGRATED})
    migration[FALSE_COPY] = FALSE_COPY_BYTES
    commit(repo, "migrate illustrations", migration)
    commit(repo, "remove old material", dict.fromkeys(DELETED))


def run(repo: Path, files: list[Path]) -> dict[Path, list[Result]]:
    report = lint(files, Config(root=repo), root=repo)
    by_path: dict[Path, list[Result]] = {path: [] for path in files}
    for result in report.results:
        by_path[(Path.cwd() / result.path).resolve()].append(result)
    return by_path


# -- the mutants -------------------------------------------------------------------

Edit = Callable[[Any], Any]


def _walk(doc: Any, pointer: str) -> tuple[Any, str]:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    for part in parts[:-1]:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc, parts[-1]


def put(pointer: str, value: Any) -> Edit:
    """Set (or add, or append with ``-``) the value at ``pointer``."""

    def edit(doc: Any) -> Any:
        parent, last = _walk(doc, pointer)
        if isinstance(parent, list):
            if last == "-":
                parent.append(value)
            else:
                parent[int(last)] = value
        else:
            parent[last] = value
        return doc

    return edit


def delete(pointer: str) -> Edit:
    def edit(doc: Any) -> Any:
        parent, last = _walk(doc, pointer)
        del parent[int(last) if isinstance(parent, list) else last]
        return doc

    return edit


def rename(pointer: str, new: str) -> Edit:
    """Rename the member at ``pointer``, keeping its place among its siblings."""

    def edit(doc: Any) -> Any:
        parent, last = _walk(doc, pointer)
        items = list(parent.items())
        parent.clear()
        parent.update((new if key == last else key, value) for key, value in items)
        return doc

    return edit


def move(pointer: str, to: int) -> Edit:
    """Move an array element to another index."""

    def edit(doc: Any) -> Any:
        parent, last = _walk(doc, pointer)
        parent.insert(to, parent.pop(int(last)))
        return doc

    return edit


def text(old: str, new: str) -> tuple[str, str]:
    """Replace ``old``, which must occur exactly once, in the file's text."""
    return (old, new)


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    edit: Edit | tuple[str, str]
    #: The findings the mutant adds, as (rule id, pointer); the first one is on the line of ``at``.
    finds: list[tuple[str, str | None]]
    #: A piece of the mutant's text, found exactly once, that ends on the line the first finding must be on.
    at: str | None = None
    #: A piece of text the first finding's message must contain.
    says: str | None = None
    marks: tuple[pytest.MarkDecorator, ...] = ()


def serialise(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def mutate(mutant: Mutant) -> str:
    original = (CORPUS / BLOG / mutant.file).read_text(encoding="utf-8")
    if isinstance(mutant.edit, tuple):
        old, new = mutant.edit
        assert original.count(old) == 1, f"{mutant.id}: {old!r} occurs {original.count(old)} times"
        return original.replace(old, new)
    return serialise(mutant.edit(copy.deepcopy(json.loads(original))))


LONG_ALT = (
    "Three servers, S1, S2 and S3, each with a timer. S1 times out first and asks for votes. "
    "S2 gives its vote. S1 has a majority and becomes the leader. It sends heartbeats."
)
LONG_SENTENCE = "The GC walks the heap from the first object to the last and frees each one that has no mark on it now."


def blinking(doc: Any) -> Any:
    """A second scenario that lights and darkens object A every 150 ms."""
    state = doc["scenarios"][0]["initial"]
    steps = [
        {"title": "Blink", "description": "", "duration": 150, "active": ["a"] if i % 2 == 0 else [], "paths": [],
         "state": state}
        for i in range(8)
    ]  # fmt: skip

    doc["scenarios"].append({"id": "blink", "title": "Blink", "description": "A fast blink.", "initial": state,
                             "unselected": [], "steps": steps})  # fmt: skip
    return doc


def resumed_without_ticket(doc: Any) -> Any:
    """A second scenario that checks and uses a ticket that no step of it keeps."""
    scenario = copy.deepcopy(doc["scenarios"][0])
    scenario["id"] = "no-ticket"
    scenario["steps"] = scenario["steps"][1:]
    doc["scenarios"].append(scenario)
    return doc


MUTANTS = [
    # -- schema
    Mutant("misspelled-key", RAFT, rename("/scenarios/0/steps/1/duration", "duraton"),
           [("schema/violation", None)], at='"duraton"', says="duration", marks=(point(9),)),
    Mutant("unsupported-version", GC, put("/version", 2), [("schema/unsupported-version", "/version")],
           at='"version": 2'),
    Mutant("duration-as-string", H2, put("/scenarios/0/steps/0/duration", "5000"),
           [("schema/violation", "/scenarios/0/steps/0/duration")], at='"duration": "5000"'),
    Mutant("unknown-top-level-key", RING, put("/notes", "Draft."), [("schema/violation", None)], at='"notes"'),
    Mutant("extension-key-is-fine", RING, put("/x-draft", True), []),
    Mutant("extension-key-in-a-step", RING, put("/scenarios/0/steps/0/x-note", "Drawn at 1:2."), []),
    Mutant("duplicate-key", RAFT, text('"title": "How Raft elects a leader",',
                                       '"title": "How Raft elects a leader",\n  "title": "Raft elections",'),
           [("schema/duplicate-key", None)], at='"title": "Raft elections"'),
    Mutant("trailing-comma", DNS, text('"192.0.2.10"\n          }\n        },\n        {\n          "title": "Answer',
                                       '"192.0.2.10",\n          }\n        },\n        {\n          "title": "Answer'),
           [("schema/invalid-json", None)], at='"192.0.2.10",'),
    # -- reference
    Mutant("unknown-target", TLS, put("/scenarios/0/steps/0/active/0", "cleint"),
           [("reference/unknown-target", "/scenarios/0/steps/0/active/0")], at='"cleint"', says="client"),
    Mutant("look-alike-key", TLS, put("/scenarios/0/steps/0/active/0", "\u0441lient"),
           [("reference/unknown-target", "/scenarios/0/steps/0/active/0")], at='"\u0441lient"'),
    Mutant("look-alike-key-named", TLS, put("/scenarios/0/steps/0/active/0", "\u0441lient"),
           [("reference/unknown-target", "/scenarios/0/steps/0/active/0")], at='"\u0441lient"', says="U+0441",
           marks=(point(8, "name the look-alike code point"),)),
    Mutant("edge-in-active", GC, put("/scenarios/0/steps/1/active/-", "a-to-b"),
           [("reference/kind-mismatch", "/scenarios/0/steps/1/active/2")], at='"b",\n            "a-to-b"'),
    Mutant("node-in-paths", RING, put("/scenarios/0/steps/2/paths/-", "server-d"),
           [("reference/kind-mismatch", "/scenarios/0/steps/2/paths/1")], at='"move",\n            "server-d"'),
    Mutant("typo-in-the-only-use", GC, put("/scenarios/0/steps/1/paths/0", "a_to_b"),
           [("reference/unknown-target", "/scenarios/0/steps/1/paths/0")], at='"a_to_b"', says="a-to-b"),
    Mutant("typo-and-another-unused-target", RING, lambda doc: put("/scenarios/0/steps/2/paths/0", "mov")(
               put("/targets/spare", {"id": "mechanism-spare", "kind": "edge", "label": "Spare"})(doc)),
           [("reference/unknown-target", "/scenarios/0/steps/2/paths/0"),
            ("reference/unused-target", "/targets/spare")],
           at='"mov"', says="move"),
    Mutant("typo-in-a-target-key", TLS, rename("/targets/server", "sever"),
           [("reference/unknown-target", "/targets/sever")], at='"sever": {', says="server",
           marks=(FALSE_ALARM("one typo in a targets key gave 3 unknown-target findings advising the typo "
                                      "for the 3 correct uses, and an id-mismatch advising it for the id"),)),
    Mutant("id-mismatch", DNS, put("/targets/tld/id", "mechanism-com"),
           [("reference/id-mismatch", "/targets/tld/id")], at='"mechanism-com"'),
    Mutant("duplicate-id", DNS, put("/targets/auth/id", "mechanism-tld"),
           [("reference/duplicate-id", "/targets/auth/id"), ("reference/id-mismatch", "/targets/auth/id")],
           at='"auth": {\n      "id": "mechanism-tld"'),
    Mutant("unused-target", H2, put("/targets/spare", {"id": "mechanism-spare", "kind": "node", "label": "Spare"}),
           [("reference/unused-target", "/targets/spare")], at='"spare": {'),
    Mutant("missing-state-key", RAFT, delete("/scenarios/0/steps/2/state/votes"),
           [("reference/state-keys", "/scenarios/0/steps/2/state")],
           at='"grant-s2"\n          ],\n          "state": {'),
    Mutant("state-label-typo", RAFT, rename("/stateLabels/votes", "vots"),
           [("reference/state-keys", "/stateLabels/vots")], at='"vots"', says="votes"),
    Mutant("state-label-missing", RAFT, delete("/stateLabels/votes"),
           [("reference/state-keys", "/stateLabels")], at='"stateLabels": {', says="votes"),
    Mutant("state-label-not-filled-in", GC, put("/stateLabels/cycle", "Cycle"),
           [("reference/state-keys", "/stateLabels/cycle")], at='"cycle"'),
    Mutant("extra-initial-key", H2, put("/scenarios/0/initial/streams", "1"),
           [("reference/state-keys", "/scenarios/0/initial")], at='"initial": {'),
    Mutant("unselected-lit", BTREE, put("/scenarios/0/steps/0/active/-", "right"),
           [("reference/unselected-active", "/scenarios/0/steps/0/active/2")], at='"left",\n            "right"'),
    Mutant("duplicate-scenario", BTREE, put("/scenarios/1/id", "split"),
           [("reference/duplicate-scenario", "/scenarios/1/id")], at='},\n    {\n      "id": "split"'),
    Mutant("unknown-unselected", BTREE, put("/scenarios/1/unselected/0", "leftt"),
           [("reference/unknown-target", "/scenarios/1/unselected/0")], at='"leftt"'),
    # -- provenance
    Mutant("mistyped-file-name", TCP, put("/sources/0/path", BLOG + "2026-02-03_tcp-handshake/psot.md"),
           [("provenance/missing-source", "/sources/0/path")], at="psot.md", says="post.md", marks=(point(1),)),
    Mutant("wrong-case-file-name", TCP, put("/sources/0/path", BLOG + "2026-02-03_tcp-handshake/Post.md"),
           [("provenance/missing-source", "/sources/0/path")], at="Post.md", marks=(point(1),)),
    Mutant("copied-to-a-folder-that-never-was", DNS, put("/sources/0/path", BLOG + "2026-03-11_dns-lookup/post.md"),
           [("provenance/missing-source", "/sources/0/path")], at="2026-03-11_dns-lookup", marks=(point(1),)),
    Mutant("copied-with-another-posts-folder", DNS, put("/sources/0/path", TCP_POST),
           [("provenance/digest-mismatch", "/sources/0/sha256")], at=sha((CORPUS / DNS_POST).read_bytes())),
    Mutant("stale-pin", TCP, put("/sources/0/sha256", sha(draft(TCP_POST))),
           [("provenance/stale-source", "/sources/0/sha256")], at=sha(draft(TCP_POST))),
    Mutant("path-from-before-a-rename", RING, put("/sources/0/path", RENAMED[RING_POST]),
           [("provenance/gone-source", "/sources/0/path")], at="article.md"),
    Mutant("pin-from-before-a-rename", RING, put("/sources/0/sha256", sha(draft(RING_POST))),
           [("provenance/stale-source", "/sources/0/sha256")], at=sha(draft(RING_POST))),
    Mutant("pin-of-a-reverted-edit", DNS,
           put("/sources/0/sha256", sha((CORPUS / DNS_POST).read_bytes().replace(b"address", b"adress", 1))),
           [("provenance/stale-source", "/sources/0/sha256")], at='"sha256"'),
    Mutant("path-is-a-folder", RING, put("/sources/0/path", BLOG + "2026-05-20_consistent-hashing"),
           [("provenance/unsafe-path", "/sources/0/path")], at='consistent-hashing"', says="folder"),
    Mutant("upper-case-digest", RING, put("/sources/0/sha256", sha((CORPUS / RING_POST).read_bytes()).upper()),
           [("schema/violation", "/sources/0/sha256")]),
    Mutant("path-with-a-trailing-space", RING, put("/sources/0/path", RING_POST + " "),
           [("provenance/missing-source", "/sources/0/path")], marks=(point(1),)),
    Mutant("wrong-digest", RING, put("/sources/0/sha256", "0" * 64),
           [("provenance/digest-mismatch", "/sources/0/sha256")], at="0" * 64),
    Mutant("unpinned", H2, delete("/sources/0/sha256"), [("provenance/unpinned-source", "/sources/0")],
           at='"sources": [\n    {'),
    Mutant("parent-path", GC, put("/sources/0/path", "../post.md"),
           [("provenance/unsafe-path", "/sources/0/path")], at='"../post.md"'),
    Mutant("git-path", GC, put("/sources/0/path", ".git/config"),
           [("provenance/unsafe-path", "/sources/0/path")], at='".git/config"'),
    Mutant("false-frozen-copy", TLS, lambda doc: put("/sources/1/sha256", sha(FALSE_COPY_BYTES))(
               put("/sources/1/path", FALSE_COPY)(doc)),
           [("provenance/frozen-copy-mismatch", "/sources/1/path")], at=f'"{FALSE_COPY}"'),
    Mutant("frozen-copy-pinned-to-the-new-bytes", TLS, put("/sources/1/sha256", sha(migrated(MIGRATED[0]))),
           [("provenance/digest-mismatch", "/sources/1/sha256")], at=sha(migrated(MIGRATED[0]))),
    # -- a11y
    Mutant("too-short", DNS, put("/scenarios/0/steps/3/duration", 1500),
           [("a11y/reading-time", "/scenarios/0/steps/3/duration")], at='"duration": 1500'),
    Mutant("below-one-second", RING, lambda doc: put("/scenarios/0/steps/1/duration", 800)(
               put("/scenarios/0/steps/1/description", "D joins.")(doc)),
           [("a11y/reading-time", "/scenarios/0/steps/1/duration")], at='"duration": 800', says="1000 ms"),
    Mutant("longer-text-same-duration", RING, put("/scenarios/0/steps/3/description",
           "Keys 100, 200 and 300 keep their servers, because no new server sits between them and their owners."),
           [("a11y/reading-time", "/scenarios/0/steps/3/duration")]),
    Mutant("underscore-language", GC, put("/language", "en_US"), [("a11y/language", "/language")],
           at='"en_US"'),
    Mutant("underscore-language-suggests", GC, put("/language", "en_US"), [("a11y/language", "/language")],
           at='"en_US"', says="en-US", marks=(point(6, "suggest en-US"),)),
    Mutant("xhosa-south-africa", GC, put("/language", "xh-ZA"), [], marks=(point(6, "xh is Xhosa"),)),
    Mutant("soga", GC, put("/language", "xog"), [], marks=(point(6, "xog is Soga"),)),
    Mutant("unregistered-region", GC, put("/language", "en-UK"), [("a11y/language", "/language")],
           says="en-GB", marks=(point(6, "UK is not a region subtag of the IANA registry; GB is"),)),
    Mutant("swiss-german", GC, put("/language", "de-CH"), []),
    Mutant("private-use-language", GC, put("/language", "en-x-house"), []),
    Mutant("flashing", GC, blinking,
           [("a11y/flash-rate", "/scenarios/1/steps/3")]
           + [("a11y/reading-time", f"/scenarios/1/steps/{i}/duration") for i in range(8)]),
    Mutant("alt-is-the-title", RAFT, put("/alt", "How Raft elects a leader."), [("a11y/alt-redundant", "/alt")],
           at='"alt": "How Raft'),
    Mutant("blank-alt", RAFT, put("/alt", "   "), [("a11y/alt-missing", "/alt")], at='"alt": "   "'),
    Mutant("alt-image-of", RAFT, put("/alt", "Diagram of three servers that elect a leader."),
           [("a11y/alt-redundant", "/alt")], at="Diagram of three"),
    Mutant("alt-too-long", RAFT, put("/alt", LONG_ALT), [("a11y/alt-length", "/alt")], at="each with a timer"),
    Mutant("blank-label", RAFT, put("/targets/s2/label", ""), [("a11y/label-missing", "/targets/s2/label")],
           at='"label": ""'),
    # -- plain
    Mutant("long-sentence", GC, put("/scenarios/0/steps/2/description", LONG_SENTENCE),
           [("plain/sentence-length", "/scenarios/0/steps/2/description")], at="walks the heap from"),
    Mutant("word-choice", TICKET, text("use the ticket's secret again", "utilize the ticket's secret again"),
           [("plain/word-choice", "/scenarios/0/steps/2/description")], at="utilize", says="use"),
    Mutant("word-choice-inflected", H2, text("The receiver reads the buffer", "The receiver utilizes the buffer"),
           [("plain/word-choice", "/scenarios/0/steps/2/description")], at="utilizes"),
    Mutant("modulo-remainder-is-a-term", RING, put("/limitations/-",
           "With a plain modulo hash, a key goes to the remainder of its hash divided by the number of servers."), []),
    Mutant("utilization-is-a-metric", H2, put("/limitations/-", "The diagram does not show link utilization."), []),
    Mutant("passive-voice", GC, text("The GC clears the marks on A and B", "The marks on A and B are cleared"),
           [("plain/passive-voice", "/scenarios/0/steps/3/description")], at="are cleared"),
    Mutant("undefined-acronym", GC, text("A garbage collector (GC) marks", "A GC marks"),
           [("plain/undefined-acronym", "/description")], at="A GC marks", says="GC"),
    Mutant("allowed-acronym-needs-no-definition", DNS,
           text("The Domain Name System (DNS) resolver", "The DNS resolver"), []),
    Mutant("plural-definition", RAFT,
           text("asks for votes and wins", "asks for votes with remote procedure calls (RPCs) and wins"),
           [], marks=(FALSE_ALARM("a definition in the plural, 'remote procedure calls (RPCs)'"),)),
    Mutant("allowed-acronyms-joined", KEEP, text("opens a TCP connection", "opens a TCP/IP connection"),
           [], marks=(FALSE_ALARM("TCP and IP are allowed, so TCP/IP is too (as SYN-ACK in point 5)"),)),
    Mutant("allowed-acronym-with-a-version", KEEP, text("show pipelining.", "show HTTP/1.1 pipelining."),
           [], marks=(FALSE_ALARM("HTTP/1.1 is HTTP, allowed, version 1.1; reported as 'HTTP/1'"),)),
    Mutant("term-spelled-two-ways-once", TLS, text("The ClientHello lists", "The Client Hello lists"),
           [("plain/term-consistency", "/scenarios/0/steps/0/description")], at="Client Hello",
           says="Client Hello", marks=(point(7),)),
    Mutant("hyphenated-once", TLS, text("The server picks a suite and sends a ServerHello with its own key share.",
                                        "The server picks a suite and sends a ServerHello with its own key-share."),
           [("plain/term-consistency", "/scenarios/0/steps/1/description")], at="key-share",
           marks=(point(7, "two findings today, for 'key-share' and 'own key-share'"),)),
    Mutant("mixed-apostrophes", TLS, text("The client's key share", "The client’s key share"),
           [("plain/typography-consistency", "/scenarios/0/steps/0/state/server")], at="client’s"),
    # -- invariant
    Mutant("reuse-before-store", TICKET, move("/scenarios/0/steps/0", 2),
           [("invariant/reuse-after-store-and-compare", "/scenarios/0/steps/1")]),
    Mutant("reuse-without-compare", TICKET, text("the server compares the ticket with its ticket key",
                                                 "the server reads the ticket"),
           [("invariant/reuse-after-store-and-compare", "/scenarios/0/steps/2")],
           at='"title": "Resume the session"'),
    Mutant("other-scenario-reuses-without-store", TICKET, resumed_without_ticket,
           [("invariant/reuse-after-store-and-compare", "/scenarios/1/steps/1")]),
    Mutant("other-scenario-named", TICKET, resumed_without_ticket,
           [("invariant/reuse-after-store-and-compare", "/scenarios/1/steps/1")], says="no-ticket",
           marks=(point(8, "invariant messages name the scenario"),)),
    Mutant("compare-in-the-state-text", TICKET, lambda doc: put("/scenarios/0/steps/1/state/ticket",
               "The server compares it with its ticket key")(put("/scenarios/0/steps/1/description",
               "On the second connection, the server reads the ticket.")(doc)), []),
    Mutant("compare-as-checked-against", TICKET, text("compares the ticket with its ticket key",
                                                      "checks the ticket against its ticket key"),
           [], marks=(point(4, "'checked against' is a comparison"),)),
    Mutant("compare-as-equal-to", TICKET, text("the server compares the ticket with its ticket key",
                                               "the key in the ticket is equal to the server's ticket key"),
           [], marks=(point(4, "'is equal to' is a comparison"),)),
]  # fmt: skip


def sha_of(relative: str) -> str:
    return sha((CORPUS / relative).read_bytes())


WAL_POST = BLOG + "2026-07-01_write-ahead-log/post.md"
BLOOM_POST = BLOG + "2026-07-15_bloom-filter/post.md"
#: The description of the WAL file with its acronym defined in the plural and used in the singular.
WAL_PLURAL = (
    "The database appends each change to one of its write-ahead logs (WALs) before it changes the page on "
    "disk. After a crash, it replays the WAL."
)
LONG = "1" + "0" * 5000  # an integer longer than Python's 4,300-digit conversion limit


def gone_source(doc: Any) -> Any:
    """A second source: notes that a later commit deleted from the working tree (not a frozen copy)."""
    doc["sources"].append(
        {"path": GONE_NOTES, "sha256": sha_of(GONE_NOTES), "description": "The notes on the rate of false positives."}
    )
    return doc


#: Issue 26: text read for what the author meant. Each row of kind "control" (no finding) is careful text
#: that looks suspicious; rows marked ``needs(n)`` wait for another branch's work on point n.
MUTANTS_26 = [
    # -- point 2: a capital in mid-sentence is part of the spelling; compounds with function words
    Mutant("title-case-in-mid-sentence", WAL, text("appends its change to the log.",
           "appends its change to the Write-Ahead Log."),
           [("plain/term-consistency", "/scenarios/0/steps/0/description")], at="Write-Ahead Log",
           says='"Write-Ahead" is a variant of "write-ahead"', marks=(p26(2),)),
    Mutant("proper-name-in-lower-case", BLOOM, put("/limitations/0",
           "The diagram does not show how the size of the array sets the rate of false positives of a bloom filter."),
           [("plain/term-consistency", "/limitations/0")], says='"bloom filter" is a variant of "Bloom filter"',
           marks=(p26(2),)),
    Mutant("proper-name-all-capitals-words", BLOOM, put("/limitations/0", "A Bloom Filter of ten bits fills fast."),
           [("plain/term-consistency", "/limitations/0")], says='"Bloom Filter" is a variant of "Bloom filter"',
           marks=(p26(2),)),
    Mutant("title-case-stub-resolver", RESOLVER, text("so the stub resolver sends", "so the Stub Resolver sends"),
           [("plain/term-consistency", "/scenarios/0/steps/0/description")], at="Stub Resolver", marks=(p26(2),)),
    Mutant("title-case-recursive-resolver", RESOLVER, text("No query goes upstream.",
           "No query goes to the Recursive Resolver."),
           [("plain/term-consistency", "/scenarios/0/steps/3/description")], at="Recursive Resolver", marks=(p26(2),)),
    Mutant("title-case-build-tool", BUILD, text("The build tool keeps each object file",
           "The Build Tool keeps each object file"),
           [("plain/term-consistency", "/description")], at="Build Tool", says='"Build Tool"', marks=(p26(2),)),
    Mutant("title-case-object-file", BUILD, text("The tool copies the stored object file.",
           "The tool copies the stored Object File."),
           [("plain/term-consistency", "/scenarios/0/steps/2/description")], at="Object File", marks=(p26(2),)),
    Mutant("title-case-cached-line", LINE, text("from the cached line.", "from the Cached Line."),
           [("plain/term-consistency", "/scenarios/0/steps/2/description")], at="Cached Line", marks=(p26(2),)),
    Mutant("title-case-with-a-function-word", WAL, text("The page on disk still holds", "The Page on Disk still holds"),
           [("plain/term-consistency", "/scenarios/0/steps/1/description")], at="Page on Disk", marks=(p26(2),)),
    Mutant("hyphenated-time-to-live", RESOLVER, put("/limitations/0",
           "The diagram does not show negative answers or an entry whose time-to-live runs out."),
           [("plain/term-consistency", "/limitations/0")], says='"time-to-live" is a variant of "time to live"',
           marks=(p26(2),)),
    Mutant("spaced-point-in-time", WAL, text("The database crashes and starts again.",
           "At a point in time, the database crashes."),
           [("plain/term-consistency", "/scenarios/0/steps/2/description")], at="point in time",
           says='"point in time" is a variant of "point-in-time"', marks=(p26(2),)),
    Mutant("spaced-write-ahead", WAL, text("to a write-ahead log (WAL)", "to a write ahead log (WAL)"),
           [("plain/term-consistency", "/description")], at="write ahead log"),
    Mutant("hyphenated-token-bucket", BUCKET, put("/limitations/0",
           "The diagram does not show a token-bucket for each client."),
           [("plain/term-consistency", "/limitations/0")], says='"token-bucket"'),
    Mutant("hyphenated-stub-resolver", RESOLVER, text("and the stub resolver keeps the answer.",
           "and the stub-resolver keeps the answer."),
           [("plain/term-consistency", "/alt")], at="stub-resolver"),
    Mutant("undefined-wal", WAL, text("to a write-ahead log (WAL) before", "to a WAL before"),
           [("plain/undefined-acronym", "/description")], says='"WAL"'),
    Mutant("undefined-ttl", RESOLVER, text("its time to live (TTL).", "its TTL."),
           [("plain/undefined-acronym", "/description")], says='"TTL"'),
    Mutant("undefined-lru", LINE, text("does not show eviction,", "does not show LRU eviction,"),
           [("plain/undefined-acronym", "/limitations/0")], says='"LRU"'),
    Mutant("undefined-plural", LINE, put("/limitations/-", "The diagram does not show the TLBs."),
           [("plain/undefined-acronym", "/limitations/1")], says='"TLB"'),
    # controls for point 2
    Mutant("capital-at-a-sentence-start", RESOLVER, put("/limitations/-", "Stub resolver caches stay small."), [],
           marks=(p26(2),)),
    Mutant("title-case-label", RESOLVER, put("/targets/stub/label", "Stub Resolver"), [], marks=(p26(2),)),
    Mutant("title-case-step-title", RESOLVER, put("/scenarios/0/steps/0/title", "Ask the Recursive Resolver"), [],
           marks=(p26(2),)),
    Mutant("title-case-scenario-title", BLOOM, put("/scenarios/0/title", "Add Two Words, Test a Third"), [],
           marks=(p26(2),)),
    Mutant("capital-after-a-colon", BUILD, put("/limitations/0",
           "Not shown: Build tool caches that a remote machine shares."), [], marks=(p26(2),)),
    Mutant("proper-name-in-mid-sentence", BLOOM, put("/limitations/-", "Burton Bloom described the filter in 1970."),
           [], marks=(p26(2),)),
    Mutant("from-end-to-end-is-a-phrase", BUCKET, put("/limitations/0",
           "The diagram does not show an end-to-end limit that follows each request from end to end."),
           [], marks=(p26(2),)),
    Mutant("function-word-at-the-end", BUCKET, put("/limitations/0",
           "The setup has one client. The server sets up one bucket."), [], marks=(p26(2),)),
    Mutant("compound-at-a-sentence-start", RESOLVER, text("The TTL of 300 seconds is an example.",
           "Time to live: 300 seconds, as an example."),
           [], marks=(p26(2),)),
    Mutant("title-case-step-title-with-a-term", BUILD, put("/scenarios/0/steps/1/title", "Same Inputs, Same Key"), [],
           marks=(p26(2),)),
    Mutant("title-case-label-of-a-term", BUILD, put("/targets/cache/label", "Build Cache"), [], marks=(p26(2),)),
    Mutant("a-phrase-with-a-function-word-inside", BUCKET, put("/limitations/-",
           "The timer may drift from time to time."),
           [], marks=(p26(2),)),
    Mutant("a-product-name-in-mid-sentence", BLOOM, put("/limitations/-",
           "Google Chrome once checked web addresses with a Bloom filter."),
           [], marks=(p26(2),)),
    Mutant("acronym-defined-in-the-plural", WAL, put("/description", WAL_PLURAL), [], marks=(p26(2),)),
    Mutant("acronym-used-in-the-plural", RESOLVER, put("/limitations/0",
           "The diagram does not show negative answers or entries whose TTLs run out."),
           [], marks=(p26(2),)),
    # -- point 3: the schema means what JSON Schema means
    Mutant("digest-with-a-newline", WAL, put("/sources/0/sha256", sha_of(WAL_POST) + "\n"),
           [("schema/violation", "/sources/0/sha256")], marks=(p26(3),)),
    Mutant("digest-with-a-newline-and-a-wrong-path", BLOOM, lambda doc: put("/sources/0/sha256",
           sha_of(BLOOM_POST) + "\n")(
               put("/sources/0/path", BLOG + "2026-07-15_bloom-filter/psot.md")(doc)),
           [("schema/violation", "/sources/0/sha256"), ("provenance/missing-source", "/sources/0/path")],
           marks=(p26(3), p26(4))),
    Mutant("version-of-5001-digits", BLOOM, text('"version": 1,', f'"version": 2{LONG[1:]},'),
           [("schema/unsupported-version", "/version")], says="a 5001-digit number", marks=(p26(3),)),
    Mutant("version-one-and-a-half", BLOOM, put("/version", 1.5), [("schema/violation", "/version")]),
    Mutant("version-written-1-0", BLOOM, text('"version": 1,', '"version": 1.0,'), [], marks=(p26(3,
           "1.0 is the integer 1"),)),
    Mutant("duration-of-5001-digits", WAL, text('"duration": 5500', f'"duration": {LONG}'), [], marks=(p26(3),)),
    # -- point 6: messages
    Mutant("malformed-key-whose-id-follows", BUCKET, put("/targets/refill timer", {"id": "mechanism-refill-timer",
           "kind": "node", "label": "Refill timer"}),
           [("schema/violation", "/targets/refill timer"), ("reference/unused-target", "/targets/refill timer")],
           marks=(p26(6),)),
    Mutant("malformed-key-with-another-id", BUCKET, put("/targets/refill timer", {"id": "mechanism-timer",
           "kind": "node", "label": "Refill timer"}),
           [("reference/id-mismatch", "/targets/refill timer/id"), ("schema/violation", "/targets/refill timer"),
            ("reference/unused-target", "/targets/refill timer")],
           says='rename it to "refill-timer" and give the target the id "mechanism-refill-timer"', marks=(p26(6),)),
    Mutant("id-of-another-target", RESOLVER, put("/targets/entry/id", "mechanism-cache"),
           [("reference/id-mismatch", "/targets/entry/id")], at='"mechanism-cache"', says='expected "mechanism-entry"'),
    Mutant("language-iso-639-2", LINE, put("/language", "eng"), [("a11y/language", "/language")],
           says='did you mean "en"?',
           marks=(p26(6),)),
    Mutant("language-iso-639-2-with-region", LINE, put("/language", "eng-GB"), [("a11y/language", "/language")],
           says='did you mean "en-GB"?', marks=(p26(6),)),
    Mutant("language-xhosa-three-letters", LINE, put("/language", "xho-ZA"), [("a11y/language", "/language")],
           says='did you mean "xh-ZA"?', marks=(p26(6),)),
    Mutant("language-bibliographic-code", LINE, put("/language", "ger"), [("a11y/language", "/language")],
           says='did you mean "de"?', marks=(p26(6),)),
    Mutant("language-unregistered-variant", LINE, put("/language", "en-GB-oxford"), [("a11y/language", "/language")],
           says='did you mean "en-GB-oxendict"?', marks=(p26(6),)),
    Mutant("language-registered-variant", LINE, put("/language", "en-GB-oxendict"), [], marks=(p26(6),)),
    Mutant("language-scottish-english", LINE, put("/language", "en-scotland"), []),
    Mutant("label-of-an-em-space", BUILD, put("/targets/cache/label", "\u2003"), [("a11y/label-missing",
           "/targets/cache/label")],
           says="only white space (U+2003 EM SPACE)", marks=(p26(6),)),
    Mutant("label-of-spaces", BUILD, put("/targets/cache/label", "   "), [("a11y/label-missing",
           "/targets/cache/label")],
           says="only white space (U+0020 SPACE)", marks=(p26(6),)),
    Mutant("label-of-a-control-character", BUILD, put("/targets/cache/label", "\u001f"),
           [("a11y/label-missing", "/targets/cache/label")], says="U+001F INFORMATION SEPARATOR ONE", marks=(p26(6),)),
    Mutant("label-of-a-zero-width-space", BUILD, put("/targets/cache/label", "\u200b"),
           [("a11y/label-missing", "/targets/cache/label")], says="no visible character (U+200B ZERO WIDTH SPACE)",
           marks=(p26(6),)),
    Mutant("label-of-a-symbol", LINE, put("/targets/line/label", "Line 0x1000 …"), []),
    # -- point 1 (other branch): the compare step read for its meaning
    Mutant("never-compares-the-key", RESOLVER,
           text("The resolver looks up the name and type among its cached keys and finds them.",
                                                    "The resolver never compares the key; it trusts the entry."),
           [("invariant/reuse-after-store-and-compare", "/scenarios/0/steps/3")], marks=(p26(1),)),
    Mutant("hypothetical-compare", LINE, lambda doc: put("/scenarios/0/steps/1/title", "The second load")(
               put("/scenarios/0/steps/1/state/load", "0x1008")(
                   put("/scenarios/0/steps/1/description",
                       "The second load arrives. If the tags were equal, the load would hit.")(doc))),
           [("invariant/reuse-after-store-and-compare", "/scenarios/0/steps/2")], marks=(p26(1),)),
    Mutant("skips-the-key-check", BUILD, lambda doc: put("/scenarios/0/steps/1/title", "The second build")(
               put("/scenarios/0/steps/1/description",
                   "On the second build, the tool hashes the same inputs. The tool skips the key check.")(doc)),
           [("invariant/reuse-after-store-and-compare", "/scenarios/0/steps/2")], marks=(p26(1),)),
    Mutant("compares-an-age-not-a-key", RESOLVER,
           text("The resolver looks up the name and type among its cached keys and finds them.",
                                                       "The resolver compares the age of the entry with its TTL."),
           [("invariant/reuse-after-store-and-compare", "/scenarios/0/steps/3")], marks=(p26(1),)),
    Mutant("hashes-to-the-same-key", BUILD, text("The new key matches the stored key 3f9a.",
           "The same inputs hash to the same key."),
           [], marks=(p26(1),)),
    Mutant("question-title", RESOLVER, lambda doc: put("/scenarios/0/steps/2/title", "Do the keys match?")(
               put("/scenarios/0/steps/2/description", "Ten seconds later, the same query comes in.")(doc)),
           [], marks=(p26(1),)),
    Mutant("lookup-by-key-succeeds", RESOLVER,
           text("The resolver looks up the name and type among its cached keys and finds them.",
                                                    "The lookup by key succeeds."), [], marks=(p26(1),)),
    # -- points 4 and 5 (other branches): provenance
    Mutant("gone-source", BLOOM, gone_source, [("provenance/gone-source", "/sources/1/path")],
           marks=(p26(5),)),
    Mutant("mistyped-path-and-upper-case-digest", WAL, lambda doc: put("/sources/0/sha256", sha_of(WAL_POST).upper())(
               put("/sources/0/path", BLOG + "2026-07-01_write-ahead-log/psot.md")(doc)),
           [("provenance/missing-source", "/sources/0/path"), ("schema/violation", "/sources/0/sha256")],
           marks=(p26(4),)),
    Mutant("mistyped-path", BLOOM, put("/sources/0/path", BLOG + "2026-07-15_bloom-filter/psot.md"),
           [("provenance/missing-source", "/sources/0/path")], at="psot.md", says="post.md"),
]  # fmt: skip
MUTANTS += MUTANTS_26


# -- the runs, once per module -----------------------------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    repo = tmp_path_factory.mktemp("corpus") / "blog"
    build(repo)
    clean_paths = [(repo / BLOG / name).resolve() for name in CLEAN]
    found = run(repo, clean_paths)
    clean = {name: found[path] for name, path in zip(CLEAN, clean_paths, strict=True)}
    paths = {}
    for mutant in MUTANTS:
        # beside its clean file, so that paths relative to the post mean the same
        path = (repo / BLOG / mutant.file).with_name(f"{Path(mutant.file).stem}--{mutant.id}.json")
        path.write_text(mutate(mutant), encoding="utf-8")
        paths[mutant.id] = path.resolve()
    results = run(repo, list(paths.values()))
    mutants = {mutant.id: (mutate(mutant), results[paths[mutant.id]]) for mutant in MUTANTS}
    return Corpus(repo, clean, mutants)


def pairs(results: list[Result]) -> Counter[tuple[str, str]]:
    return Counter((r.rule_id, r.pointer) for r in results)


def shown(results: list[Result]) -> str:
    return "\n".join(f"{r.region.start_line}: {r.level.label} {r.rule_id} {r.pointer} {r.message}" for r in results)


CLEAN_MARKS: dict[str, tuple[pytest.MarkDecorator, ...]] = {
    TCP: (point(5, "LISTEN, CLOSED, ESTABLISHED are state names; SYN-ACK is made of defined SYN and ACK"),),
    H2: (FALSE_ALARM("HTTP/2 is HTTP, allowed, and a version"),),
    KEEP: (point(3, "a TCP keep-alive edge reuse0 in a file without store targets"),),
}


@pytest.mark.parametrize("name", [pytest.param(n, id=n.split("/")[0], marks=CLEAN_MARKS.get(n, ())) for n in CLEAN])
def test_clean_file_has_no_warning_or_error(corpus: Corpus, name: str) -> None:
    results = corpus.clean[name]
    unexpected = [
        r for r in results if r.level is not Level.NOTE or (r.rule_id, r.pointer) not in EXPECTED_NOTES.get(name, [])
    ]
    assert not unexpected, shown(unexpected)


@pytest.mark.parametrize(
    "word",
    [pytest.param(word, marks=point(5, why)) for word, why in [
        ("LISTEN", "a state name of six capitals"),
        ("CLOSED", "a state name of six capitals"),
        ("ESTABLISHED", "a state name of eleven capitals"),
        ("SYN-ACK", "SYN and ACK are both defined"),
        ("SYN-SENT", "a state name: SYN is defined, SENT is an English word"),
        ("SYN-RECEIVED", "a state name: SYN is defined, RECEIVED is an English word"),
    ]] + ["SYN", "ACK"],
)  # fmt: skip
def test_tcp_words_that_are_not_undefined_acronyms(corpus: Corpus, word: str) -> None:
    """The TCP file defines SYN and ACK; its state names and the SYN-ACK compound need no definition."""
    flagged = [r.message for r in corpus.clean[TCP] if r.rule_id == "plain/undefined-acronym"]
    assert not [message for message in flagged if f'"{word}"' in message]


@pytest.mark.parametrize("name", sorted(EXPECTED_NOTES))
def test_files_only_in_history_give_the_note_the_catalogue_names(corpus: Corpus, name: str) -> None:
    notes = [(r.rule_id, r.pointer) for r in corpus.clean[name] if r.level is Level.NOTE]
    assert notes == EXPECTED_NOTES[name]


def test_the_corpus_is_written_as_the_mutants_expect() -> None:
    """Mutants re-serialise the JSON, so a clean file must already be in that form."""
    for name in CLEAN:
        original = (CORPUS / BLOG / name).read_text(encoding="utf-8")
        assert serialise(json.loads(original)) == original, name
    assert len(CLEAN) >= 8
    assert len([m for m in MUTANTS if m.finds]) >= 40
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)
    # issue 26: six new subjects, three of them caches, 40 mutants and 20 controls of its kinds
    assert len(ROUND_26) >= 6
    caches = [name for name in ROUND_26 if '"store0"' in (CORPUS / BLOG / name).read_text(encoding="utf-8")]
    assert len(caches) >= 3
    assert len([m for m in MUTANTS_26 if m.finds]) >= 40
    assert len([m for m in MUTANTS_26 if not m.finds]) >= 20


@pytest.mark.parametrize("mutant", [pytest.param(m, id=m.id, marks=m.marks) for m in MUTANTS])
def test_mutant(corpus: Corpus, mutant: Mutant) -> None:
    mutated, results = corpus.mutants[mutant.id]
    added = pairs(results) - pairs(corpus.clean[mutant.file])
    expected: Counter[tuple[str, str]] = Counter()
    for rule, pointer in mutant.finds:
        match = [key for key in added if key[0] == rule and (pointer is None or key[1] == pointer)]
        assert match, f"{rule} at {pointer} not found; got:\n{shown(results)}"
        expected[match[0]] += 1
    assert added == expected, f"findings beyond the expected ones:\n{shown(results)}"
    if not mutant.finds:
        return
    rule, pointer = mutant.finds[0]
    first = next(r for r in results if r.rule_id == rule and (pointer is None or r.pointer == pointer))
    if mutant.at is not None:
        assert mutated.count(mutant.at) == 1, f"{mutant.at!r} is not unique in the mutant"
        line = mutated[: mutated.index(mutant.at) + len(mutant.at)].count("\n") + 1
        assert first.region.start_line == line, shown(results)
    if mutant.says is not None:
        assert mutant.says in first.message, first.message


@pytest.fixture(scope="module")
def shallow(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Result]]:
    clone = shallow_clone(corpus.repo, tmp_path_factory.mktemp("shallow") / "blog")
    paths = [(clone / BLOG / name).resolve() for name in CLEAN]
    found = run(clone, paths)
    return {
        name: [r for r in found[path] if r.rule_id.startswith("provenance/")]
        for name, path in zip(CLEAN, paths, strict=True)
    }


def test_a_shallow_clone_of_the_corpus_gives_no_false_error(shallow: dict[str, list[Result]]) -> None:
    """Only the sources that need history are reported, and only as history-unavailable (a warning)."""
    found = {name: sorted({(r.rule_id, r.pointer) for r in results}) for name, results in shallow.items()}
    unavailable = [("provenance/history-unavailable", "/sources/1/path")]
    assert found == {name: unavailable if name in (TLS, BTREE) else [] for name in CLEAN}


@FALSE_ALARM("a frozen copy gone from a shallow clone got two history-unavailable warnings")
def test_a_shallow_clone_gives_one_warning_per_source(shallow: dict[str, list[Result]]) -> None:
    assert shallow
    for results in shallow.values():
        pointers = [r.pointer for r in results]
        assert len(pointers) == len(set(pointers)), shown(results)


# -- found in passing ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "comma"),
    [('{"a": 1,}', 7), ('{"a": [1, 2,\n]}', 11), ('{"a": 1,\n\n  }', 7), ("[1,\n  ]", 2)],
)
def test_a_trailing_comma_is_reported_at_the_comma(text: str, comma: int) -> None:
    from mechlint.document.jsonscan import JsonSyntaxError, scan

    with pytest.raises(JsonSyntaxError) as raised:
        scan(text)
    assert raised.value.offset == comma


@pytest.mark.parametrize(
    ("sentence", "passive"),
    [
        ("The cached blocks are used again.", "are used"),
        ("The key is used to find the entry.", "is used"),
        ("The heap is set up before the program runs.", "is set"),
        ("The ticket is sent back to the server.", "is sent"),
        ("The connection is shut down.", "is shut"),
        ("The data is spread out over two pages.", "is spread"),
        ("He is used to the noise.", None),
        ("The server is used to waiting.", None),
        ("The used blocks stay in memory.", None),
        ("The window is full.", None),
    ],
)
def test_passive_voice_sees_used_and_phrasal_verbs(sentence: str, passive: str | None) -> None:
    from mechlint.rules.plain.passive_voice import passives

    assert [sentence[start:end] for start, end in passives(sentence)] == ([passive] if passive else [])


@pytest.mark.parametrize(("language", "scored"), [("en", True), ("en-GB", True), ("EN_us", True), ("de", False),
                                                  ("fr-CH", False), ("x-house", True), ("", True)])  # fmt: skip
def test_readability_scores_only_english(language: str, scored: bool) -> None:
    """Flesch–Kincaid is an English formula: German compounds would read as grade 12 in any text."""
    from mechlint.run.engine import lint_bytes

    doc = json.loads((CORPUS / BLOG / DNS).read_text(encoding="utf-8"))
    doc["language"] = language
    doc["limitations"] = ["Zeitüberschreitungswahrscheinlichkeiten verursachen Wiederholungsanfragenverzögerungen."] * 9
    found = [r.rule_id for r in lint_bytes(serialise(doc).encode()) if r.rule_id == "plain/readability"]
    assert found == (["plain/readability"] if scored else [])
