"""Reports configuration that mechlint cannot use.

``[tool.mechlint]`` in ``pyproject.toml``, ``mechlint.toml``, or a rule file:
malformed TOML, an unknown key, a value of the wrong type, an unknown rule id
or level. The message names the file, the line, the key and what was
expected, and the name a typo most likely meant. Every mistake of the file
(and of the word-list and invariant files it names) is reported, each on its
own line, before the run stops with exit code 2, because checking with a configuration the user did
not mean would give answers they did not ask for.

The reports of the stopped run are still written: ``--format json`` (or
``sarif``, ``github``, ``junit``, ``gitlab``, ``html``) on standard output
and every ``-o`` file hold each mistake as a finding of this rule at its
file (the configuration, a rule file it names, the baseline) and line, so a
CI step that uploads the SARIF log finds one and shows the broken line (the
log says ``executionSuccessful: false``). The text report on standard output
is the error lines alone. A mistake of the command line (``--select`` naming
no rule) has no file to point at, and writes no report, as any usage error.
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
