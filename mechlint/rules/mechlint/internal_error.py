"""Reports a rule that crashed on a file.

The run goes on with the other rules and files; the message names the rule
and the error, so that it can be reported to the mechlint maintainers. In
SARIF the crash is also a tool execution notification.

In a run on several processes (``--jobs``), a worker process that ends while
it checks a file (killed, out of memory) is reported the same way, on that
file: the file was not checked, every other file was.
"""

from __future__ import annotations

from mechlint.model import Level
from mechlint.rules import RuleMeta

META = RuleMeta(
    id="mechlint/internal-error",
    level=Level.ERROR,
    summary="A rule crashed on this file; the other rules still ran.",
    why="A crash must not hide the findings of the other rules, nor pass silently as a clean file.",
    location="the file (line 1)",
    stage="engine",
)
