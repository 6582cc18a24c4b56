"""Reports a file that was given or found but cannot be read as a regular file.

A FIFO, a device, a directory named like a mechanism file, a broken or
looping symbolic link, a file without read permission, or a file larger than
``max-file-size`` (10 MiB by default). Such a file is never opened for reading
as content, so a FIFO cannot hang the run.
"""

from __future__ import annotations

from mechlint.model import Level
from mechlint.rules import Example, RuleMeta

META = RuleMeta(
    id="mechlint/unreadable-file",
    level=Level.ERROR,
    summary="A file given or found cannot be read as a regular file.",
    why="A mechanism file that cannot be read is not checked; saying so keeps a broken link from passing as clean.",
    location="the file (line 1)",
    stage="engine",
    examples=(Example(fires=False, json='{"version": 1}', note="any readable file"),),
)
