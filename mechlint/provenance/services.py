"""The per-run services: what the rules of one run share, the roots and services built once and closed at the end."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

__all__ = ["RunServices"]

if TYPE_CHECKING:
    from mechlint.provenance.resolve import Provenance


class RunServices:
    """Read-only facts of a run, and lazily built services (git history, caches)."""

    __slots__ = ("_provenance", "frozen_pattern", "many", "root", "source_root")

    def __init__(self, root: Path, source_root: Path | None = None, frozen_pattern: str | None = None) -> None:
        self.root = root
        self.source_root = source_root
        self.frozen_pattern = frozen_pattern
        #: A run of many files (set once they are found, before any rule runs): history is read in one pass.
        self.many = False
        self._provenance: Provenance | None = None

    def provenance(self) -> Provenance:
        if self._provenance is None:
            from mechlint.provenance.resolve import DEFAULT_FROZEN, Provenance

            pattern = DEFAULT_FROZEN if self.frozen_pattern is None else self.frozen_pattern
            self._provenance = Provenance(self.source_root, pattern, fallback=self.root, many=self.many)
        return self._provenance

    def flush(self) -> None:
        """Write what the run's caches hold in memory (a worker, after each chunk: it ends without :meth:`close`)."""
        if self._provenance is not None:
            self._provenance.flush()

    def close(self) -> None:
        if self._provenance is not None:
            self._provenance.close()
            self._provenance = None
