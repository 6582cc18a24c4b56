"""The ``mechlint`` console script (and ``python -m mechlint``): the fast path for ``check``, the app for the rest.

:func:`main` runs ``check`` through :func:`mechlint.cli.fast_check.parse_check`
when that parser understands every argument, so that a pre-commit run does not
import typer; anything else goes to :func:`mechlint.cli.app.main`, and so does
every shell completion request (``_MECHLINT_COMPLETE`` set).
"""

from __future__ import annotations

import os
import signal

EXIT_INTERRUPTED = 130  # mechlint.cli.exits.EXIT_INTERRUPTED, before any import
#: Set by the shell completion scripts (typer's protocol) when they ask what to complete.
COMPLETE_VAR = "_MECHLINT_COMPLETE"


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C outside a command (while starting or exiting): one line and 130, never a traceback."""
    os.write(2, b"mechlint: interrupted\n")
    os._exit(EXIT_INTERRUPTED)


# First, before the imports below take their tens of milliseconds; a command then gets
# KeyboardInterrupt back (see run), so that it can stop its workers and remove temporary files.
if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted)

import sys  # noqa: E402

from mechlint.cli.exits import Terminated, guarded  # noqa: E402
from mechlint.cli.fast_check import parse_check  # noqa: E402
from mechlint.cli.run_check import CheckOptions, run_check  # noqa: E402

__all__ = ["main", "run"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); the exit code, never a traceback."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    return _dispatch(arguments, _fast_path(arguments))


def _dispatch(arguments: list[str], options: CheckOptions | None) -> int:
    """``check`` on the fast path when its ``options`` were parsed, else the typer app."""
    if options is not None:
        return guarded(lambda: run_check(options))
    from mechlint.cli.app import main as app_main

    return app_main(arguments)


def _fast_path(arguments: list[str]) -> CheckOptions | None:
    """The options of a ``check`` the fast parser understands, or ``None`` (the typer app's to run)."""
    if arguments[:1] == ["check"] and not os.environ.get(COMPLETE_VAR):  # completion requests are typer's
        return parse_check(arguments[1:])
    return None


def _unraisable(info: sys.UnraisableHookArgs) -> None:
    """Ctrl-C inside code whose errors Python only prints ("Exception ignored in …"): one line and 130."""
    if isinstance(info.exc_value, KeyboardInterrupt):
        os.write(2, b"mechlint: interrupted\n")
        os._exit(EXIT_INTERRUPTED)
    sys.__unraisablehook__(info)


def _terminate(signum: int, frame: object) -> None:
    raise Terminated(signum)


def _handle_termination() -> None:
    """SIGTERM and SIGHUP stop the command as Ctrl-C does: its workers are stopped and its temporary files removed.

    A signal the caller ignores (``nohup`` ignores SIGHUP) stays ignored.
    """
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_DFL:
            signal.signal(number, _terminate)


def run() -> None:
    """The console script: Ctrl-C at any moment exits 130 with one line; SIGTERM 143, after cleaning up."""
    sys.unraisablehook = _unraisable
    _handle_termination()
    arguments = sys.argv[1:]
    options = _fast_path(arguments)  # parsed once
    if options is None:
        import mechlint.cli.app  # noqa: F401 - typer and pydantic load while Ctrl-C still means "exit now"
    if signal.getsignal(signal.SIGINT) is _interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the command handles it (guarded)
    try:
        code = _dispatch(arguments, options)
    except KeyboardInterrupt:  # between the handler and the command
        code = EXIT_INTERRUPTED
        os.write(2, b"mechlint: interrupted\n")
    except Terminated as stop:
        code = stop.exit_code
    finally:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted)  # while flushing and exiting
    sys.exit(code)
