"""Reports a suppression (``[[tool.mechlint.ignore]]``) that matched no finding in this run.

A suppression is unused when a file it covers was checked and none of its
findings matched, or when a whole-tree run checked no file it covers at all
(the file was renamed or deleted). Runs over a few named files (pre-commit,
``--since``) only judge the suppressions of the files they checked. Remove
the entry, or fix its path, rule or pointer; keeping stale suppressions
hides the next real finding at that place.
"""

from __future__ import annotations

from mechlint.model import Level
from mechlint.rules import RuleMeta

META = RuleMeta(
    id="mechlint/unused-suppression",
    level=Level.WARNING,
    summary="A suppression in the configuration matched nothing.",
    why="A stale suppression is a blind spot: it silences the next real finding that happens to match it.",
    location="the configuration file, at the [[ignore]] entry",
    stage="engine",
)
