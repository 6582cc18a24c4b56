"""The error the git layer raises, importable without importing the git layer itself."""

from __future__ import annotations


class GitError(Exception):
    """git could not answer; the message says why in a person's words."""
