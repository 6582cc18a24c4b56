"""mechlint: a linter for the mechanism files of a technical blog."""

from __future__ import annotations

from mechlint.version import __version__

# Not ``typing.TYPE_CHECKING``: importing typing here would delay the console script's Ctrl-C handler.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from mechlint.run.engine import lint as lint


def __getattr__(name: str) -> Any:
    # ``lint`` is imported lazily so that ``import mechlint`` stays cheap.
    if name == "lint":
        from mechlint.run.engine import lint

        return lint
    raise AttributeError(name)


__all__ = ["__version__", "lint"]
