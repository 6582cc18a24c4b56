"""Exit codes, the one error printer, and :func:`guarded`, which turns any failure into an exit code.

Exit codes: 0 nothing at or above ``--fail-on``, 1 findings, 2 usage or
configuration error, 130 interrupted, 128 + N stopped by signal N (143 for
SIGTERM, as ``timeout`` sends).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from mechlint.safety.terminal import printable

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Terminated",
    "config_error",
    "error",
    "guarded",
]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: raised where the program is, so that its clean-up runs (as for Ctrl-C)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def name(self) -> str:
        import signal

        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


def error(message: str) -> None:
    """The one place that prints an error: one line, with anything read from input made inert."""
    sys.stdout.flush()
    sys.stderr.write(f"mechlint: {printable(message)}\n")
    sys.stderr.flush()


def config_error(problem: Exception) -> None:
    """Print a configuration error: each mistake it holds on its own line, with its file and line, and the rule."""
    from mechlint.rules.mechlint.invalid_config import META as INVALID_CONFIG_RULE

    for each in getattr(problem, "errors", None) or [problem]:
        error(f"{each} [{INVALID_CONFIG_RULE.id}]")


def guarded(run: Callable[[], int]) -> int:
    """Run a command; an interruption, a closed pipe or a bug becomes an exit code, never a traceback."""
    try:
        return run()
    except KeyboardInterrupt:
        error("interrupted")
        return EXIT_INTERRUPTED
    except Terminated as stop:
        error(f"stopped by {stop.name}")
        return stop.exit_code
    except BrokenPipeError:
        return EXIT_OK
    except Exception as failure:  # the last line of defence: never a traceback
        error(f"internal error ({type(failure).__name__}: {failure}); please report it")
        return EXIT_USAGE
