"""mechlint: a linter for the mechanism files of a technical blog."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from mechlint.engine import lint as lint


def __getattr__(name: str) -> Any:
    # ``lint`` is imported lazily so that ``import mechlint`` stays cheap.
    if name == "lint":
        from mechlint.engine import lint

        return lint
    raise AttributeError(name)


__all__ = ["__version__", "lint"]
