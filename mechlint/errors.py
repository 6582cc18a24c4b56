"""Errors that stop a run before it starts (reported as ``mechlint/invalid-config``)."""

from __future__ import annotations

from pathlib import Path


class ConfigError(Exception):
    """Configuration or a rule file that cannot be used."""

    def __init__(self, message: str, path: Path | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = str(self.path) if self.path else "command line"
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.message}"
