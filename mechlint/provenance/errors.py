"""The error the git layer raises, importable without importing the git layer itself."""

from __future__ import annotations


class GitError(Exception):
    """git could not answer; the message says why in a person's words.

    ``broken`` is true when the repository should have answered and could not
    (a missing or corrupt object, a special file where git reads a file, a
    configuration mechlint refuses, git stalled); false for the documented
    situations where history is simply not there (not a repository, a
    repository git refuses to read because another user owns it). ``fix``
    says how to let git answer, when fetching history is not the way.
    """

    def __init__(self, message: str, *, broken: bool = True, fix: str = "") -> None:
        super().__init__(message)
        self.broken = broken
        self.fix = fix
