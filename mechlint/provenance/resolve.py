"""The provenance of one run: the facts about every source of every mechanism, and where each source's bytes are.

One :class:`Provenance` serves a whole run: it finds the repository of each
mechanism file (:mod:`~mechlint.provenance.repository`, whose history opens
only when a source needs it), and keeps one :class:`~mechlint.provenance.source.Source`
per ``(path, sha256)`` of a repository, so a source shared by many mechanisms
is looked up once. It decides nothing: :meth:`Provenance.sources` gives a
document's sources with their facts, and each rule in
``mechlint/rules/provenance/`` turns them into its findings.
:meth:`Provenance.locate` answers ``pin``, ``attest`` and ``verify`` from the
same facts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mechlint.document.views import as_object, items, quote
from mechlint.provenance import paths as working_tree
from mechlint.provenance.pinned import BEYOND_CLONE, FAILED, HISTORY, NO_HISTORY, UNREACHABLE
from mechlint.provenance.repository import Repository, git_toplevel, refs_key
from mechlint.provenance.source import DIGEST, Source
from mechlint.records import Record

__all__ = ["CLASSIFICATION", "DEFAULT_FROZEN", "Located", "Provenance", "Sourced", "frozen_regex", "git_toplevel"]

DEFAULT_FROZEN = "research/*/before/**"
#: The version of the classification: part of the key of every cached result, so a changed classifier never
#: serves a result the old one gave.
CLASSIFICATION = "3: history is what HEAD reaches; gone sources; a pin in upper case is read"


class Sourced(Record):
    """A source of a document: where it is in the document, and its facts."""

    #: The RFC 6901 pointer of the source (``/sources/N``).
    pointer: str
    source: Source


class Located(Record):
    """Where the bytes of a source are, as ``pin``, ``attest`` and ``verify`` need it.

    ``kind`` is ``working-tree`` (the file has the wanted bytes), ``history``
    (the file is gone, and a blob of some commit has them), ``changed`` (the
    file has other bytes), or ``refused`` (unsafe, missing, or unknowable;
    ``detail`` says why).
    """

    kind: str
    sha256: str = ""
    git_blob: str = ""
    commit: str = ""
    detail: str = ""
    #: For ``history``: the path (relative to the sources' folder) that held the bytes in ``commit``,
    #: when it is not the source's path (a name before a rename, a frozen copy's original path).
    at: str = ""


def pin_of(value: object) -> str | None:
    """The pinned sha256 as the facts read it: a digest in upper or mixed case is read in lower case (the case
    is ``schema/violation``'s finding, and must not hide what the digest says); any other string as written."""
    if not isinstance(value, str):
        return None
    lowered = value.lower()
    return lowered if DIGEST.fullmatch(lowered) else value


def _simple_glob(text: str) -> str:
    return "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in text)


def frozen_regex(pattern: str) -> re.Pattern[str]:
    """``research/*/before/**`` as a regex whose group ``original`` is what the last ``**`` matched."""
    pattern = pattern.strip("/")
    if "**" not in pattern:
        pattern += "/**"
    head, _, tail = pattern.rpartition("**")
    head = head.replace("**/", "\0")
    body = "(?:[^/]*/)*".join(_simple_glob(part) for part in head.split("\0"))
    return re.compile(f"{body}(?P<original>.+?){_simple_glob(tail)}", re.DOTALL)


class Provenance:
    """The facts of every source of every document of one run."""

    def __init__(
        self,
        source_root: Path | None = None,
        frozen: str = DEFAULT_FROZEN,
        fallback: Path | None = None,
        *,
        many: bool = False,
    ) -> None:
        self.source_root = source_root.resolve() if source_root else None
        #: A run of many files: history is read in one pass sooner (``History.many_files``).
        self.many = many
        self.fallback = fallback.resolve() if fallback else None
        self.repositories: dict[Path, Repository] = {}
        self.by_folder: dict[Path, Repository] = {}
        self.toplevels: dict[str, Path | None] = {}
        self.frozen = frozen_regex(frozen) if frozen else None
        #: The facts of each ``(path, sha256)`` of a repository asked about, so a source shared by many mechanisms
        #: is looked up once (kept here, not on the repository, which the sources' module imports).
        self.known: dict[tuple[Path, str, str | None], Source] = {}

    def repository(self, location: Path) -> Repository:
        folder = location.parent
        if folder not in self.by_folder:
            toplevel = git_toplevel(folder, self.toplevels)
            base = self.source_root or toplevel or self.fallback or folder
            if base not in self.repositories:
                top = git_toplevel(base) if self.source_root else toplevel
                self.repositories[base] = Repository(base.resolve(), top.resolve() if top else None, many=self.many)
            self.by_folder[folder] = self.repositories[base]
        return self.by_folder[folder]

    def sources(self, data: Any, location: Path) -> list[Sourced]:
        """The sources of a mechanism that have a path, in order, with their facts.

        Each ``(path, sha256)`` of a repository is one :class:`Source`, shared
        by every mechanism that cites it; its facts are computed when a rule
        first asks.
        """
        repository = self.repository(location)
        found: list[Sourced] = []
        for _, source, pointer in items((as_object(data) or {}).get("sources"), "/sources"):
            if not isinstance(source, dict) or not isinstance(source.get("path"), str):
                continue
            key = (repository.base, source["path"], pin_of(source.get("sha256")))
            if key not in self.known:
                self.known[key] = Source(repository, key[1], key[2], self.frozen_original(key[1]))
            found.append(Sourced(pointer, self.known[key]))
        return found

    def cache_key(self, mechanism: Path, paths: list[str]) -> str:
        """What the provenance answers for these sources depend on, for the result cache.

        The repository's folder, its refs and shallowness (history), and the
        working-tree state of each source. Each part is computed once a run.
        """
        repository = self.repository(mechanism)
        if repository.refs_key is None:
            repository.refs_key = refs_key(repository.toplevel)
        parts = [CLASSIFICATION, str(repository.base), repository.refs_key]
        originals = [original for path in paths if (original := self.frozen_original(path)) is not None]
        for path in paths + originals:  # a frozen copy's claim also reads its original in the working tree
            if path not in repository.states:
                if working_tree.path_problem(path):
                    repository.states[path] = "unsafe"
                else:
                    state = repository.file_state(path)
                    repository.states[path] = f"{state.kind}:{state.sha256}:{state.detail}"
                    if state.kind == "absent":  # "did you mean" looks at the files beside it
                        from mechlint.provenance.whereabouts import nearby_files

                        repository.states[path] += "\0" + "\0".join(nearby_files(repository.base, path))
            parts.append(f"{path}={repository.states[path]}")
        return "\0".join(parts)

    def locate(self, mechanism: Path, path: str, digest: str | None) -> Located:
        """Find the bytes of one source: the file, or (for a gone file) the pinned blob in history."""
        repository = self.repository(mechanism)
        source = Source(repository, path, digest, self.frozen_original(path), blob_id=True)
        shown = quote(path, 200)
        state = source.state
        if state is None:
            return Located("refused", detail=f"{shown}: {source.problem}")
        if source.unsafe:
            return Located("refused", detail=f"{shown} {state.detail}")
        if state.kind == "file":
            if digest is None or source.in_working_tree:
                return Located("working-tree", digest or state.sha256, state.git_blob)
            return Located("changed", state.sha256, state.git_blob, detail=f"{shown} has other bytes now")
        if digest is None:
            return Located("refused", detail=f"nothing is at {shown}")
        found = source.search()
        if found.kind == NO_HISTORY:
            return Located("refused", detail=f"nothing is at {shown} and {source.history.unavailable().why}")
        if found.kind == FAILED:
            return Located("refused", detail=f"{shown}: {found.error}")
        if found.kind == BEYOND_CLONE:
            unavailable = source.history.unavailable()
            what = (
                f"{shown} is outside the sparse checkout, and neither its bytes in HEAD nor the pinned ones are in "
                "this clone"
                if source.left_out
                else f"nothing is at {shown}, and the pinned bytes are not in the history this clone has"
            )
            return Located("refused", detail=f"{what}: {unavailable.why}; {unavailable.fix}")
        if found.kind == UNREACHABLE and found.revision is not None:
            return Located(
                "refused",
                detail=f"nothing is at {shown}, and only commit {found.revision.commit[:12]}, which HEAD does not "
                "contain, held the pinned bytes there (history is what HEAD reaches: merge it first)",
            )
        if found.kind != HISTORY or found.revision is None or found.revision.blob is None:
            return Located(
                "refused",
                detail=f"nothing is at {shown}, and no commit held the pinned bytes at that path"
                + (" or at its original path" if source.original is not None else ""),
            )
        held = source.shown(found.revision.path)
        return Located("history", digest, found.revision.blob, found.revision.commit, at="" if held == path else held)

    def frozen_original(self, path: str) -> str | None:
        if self.frozen is None:
            return None
        match = self.frozen.fullmatch(path)
        return match.group("original") if match else None

    def flush(self) -> None:
        for repository in self.repositories.values():
            repository.flush()

    def close(self) -> None:
        for repository in self.repositories.values():
            repository.close()
