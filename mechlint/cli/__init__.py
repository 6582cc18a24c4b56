"""The ``mechlint`` command line.

Where things are:

- :mod:`~mechlint.cli.entry` — the console script (``mechlint``) and
  ``python -m mechlint``: the fast path for ``check``, everything else to the app.
- :mod:`~mechlint.cli.app` — the typer app; registers every command.
- one module per command or group: :mod:`~mechlint.cli.check`,
  :mod:`~mechlint.cli.fix`, :mod:`~mechlint.cli.rules` (``rules``, ``rule``),
  :mod:`~mechlint.cli.pin`, :mod:`~mechlint.cli.attest` (``keygen``,
  ``attest``, ``verify``), :mod:`~mechlint.cli.server`,
  :mod:`~mechlint.cli.completion` (shell completion scripts).
- :mod:`~mechlint.cli.run_check` — what ``check`` does once its arguments are
  parsed, without typer (both parsers call it); :mod:`~mechlint.cli.fixing` —
  its fixing step (``--fix``, ``--diff``), also the whole of ``mechlint fix``;
  :mod:`~mechlint.cli.fast_check` — the parser of the fast path.
- shared: :mod:`~mechlint.cli.exits` (exit codes, the one error printer,
  :func:`~mechlint.cli.exits.guarded`), :mod:`~mechlint.cli.output` (writing
  reports), :mod:`~mechlint.cli.inputs` (configuration, files and sources a
  command reads, each failure an error and exit 2), :mod:`~mechlint.cli.progress`.

Modules here import each other downwards only (commands → shared helpers),
never this package's ``__init__``.
"""

from __future__ import annotations

from mechlint.cli.entry import main, run

__all__ = ["main", "run"]
