"""``mechlint pin``: rewrite each source's ``sha256`` to the bytes it has now, after review.

Only the digest values change (or, for an unpinned source, one
``"sha256"`` member is added right after its ``path``); the rest of the file
stays byte for byte. A source whose file is gone but whose pinned bytes are
in history (a frozen source) is left alone; an unsafe path is refused, as
``check`` refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mechlint.document import Document, load
from mechlint.document.edit import StringEdit, apply_edits, write_atomically
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import as_object, items, quote
from mechlint.provenance.resolve import Provenance


@dataclass
class PinResult:
    path: Path
    shown: str
    changes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    text: str | None = None


def _insert_digest(document: Document, source_pointer: str, digest: str, text: str) -> str:
    """Add ``"sha256": digest`` after the source's ``path`` member, in the file's own layout."""
    spans = document.scan()
    path_value = spans.values[pointer_join(source_pointer, "path")]
    path_key = spans.keys[pointer_join(source_pointer, "path")]
    line_start = text.rfind("\n", 0, path_key[0]) + 1
    indent = text[line_start : path_key[0]]
    object_start = spans.values[source_pointer][0]
    multiline = "\n" in text[object_start : path_key[0]] and not indent.strip()
    member = f',\n{indent}"sha256": "{digest}"' if multiline else f', "sha256": "{digest}"'
    return text[: path_value[1]] + member + text[path_value[1] :]


def pin_file(path: Path, shown: str, raw: bytes, provenance: Provenance) -> PinResult:
    result = PinResult(path, shown)
    document = load(shown, raw)
    if not document.parsed:
        result.problems.append("is not valid JSON; run mechlint check to see why")
        return result
    location = path.absolute()
    edits: list[StringEdit] = []
    inserts: list[tuple[str, str]] = []
    for _, source, pointer in items((as_object(document.data) or {}).get("sources"), "/sources"):
        if not isinstance(source, dict) or not isinstance(source.get("path"), str):
            continue
        name = source["path"]
        digest = source.get("sha256") if isinstance(source.get("sha256"), str) else None
        located = provenance.locate(location, name, digest)
        if located.kind == "working-tree" and digest is not None:
            continue
        if located.kind == "history":
            continue  # a frozen source: its pinned bytes are kept in history
        if located.kind == "refused":
            result.problems.append(f"{pointer}: not pinned: {located.detail}")
            continue
        if digest is None:
            inserts.append((pointer, located.sha256))
            result.changes.append(f"{pointer}/sha256: added {located.sha256[:12]}… for {quote(name, 200)}")
        else:
            edits.append(StringEdit(pointer + "/sha256", 0, len(digest), located.sha256))
            result.changes.append(
                f"{pointer}/sha256: {digest[:12]}… → {located.sha256[:12]}… ({quote(name, 200)} changed)"
            )
    if edits or inserts:
        text = apply_edits(document, edits)
        if inserts:
            document = load(shown, text.encode("utf-8"))
            for pointer, digest in reversed(inserts):
                text = _insert_digest(document, pointer, digest, text)
        result.text = text
    return result


def write_pins(results: list[PinResult]) -> None:
    """Write each changed file; a file that is a link inside its repository is written through, so the link stays."""
    from mechlint.run.discovery import find_project_root

    for result in results:
        if result.text is not None:
            root = find_project_root(result.path.absolute().parent)
            write_atomically(result.path, result.text.encode("utf-8"), root)
