"""The version of mechlint (also ``mechlint.__version__``); modules import it from here, not from the package."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
