"""Reports configuration that mechlint cannot use.

``[tool.mechlint]`` in ``pyproject.toml``, ``mechlint.toml``, or a rule file:
malformed TOML, an unknown key, a value of the wrong type, an unknown rule id
or level. The message names the file, the line, the key and what was
expected, and the name a typo most likely meant. Every mistake of the file
(and of the word-list and invariant files it names) is reported, each on its
own line, before the run stops with exit code 2, because checking with a configuration the user did
not mean would give answers they did not ask for.
"""

from __future__ import annotations

from mechlint.model import Level
from mechlint.rules import RuleMeta

META = RuleMeta(
    id="mechlint/invalid-config",
    level=Level.ERROR,
    summary="Configuration or a rule file is malformed.",
    why="A misspelt option that is silently ignored leaves the user believing a rule is configured when it is not.",
    location="the configuration file, at the key",
    stage="engine",
)
