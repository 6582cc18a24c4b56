"""The typer app: registers every command and runs the full command line.

``main(argv) -> int`` never lets a traceback reach the user. The console
script (:mod:`mechlint.cli.entry`) comes here for everything but the common
``check`` invocations. To add a command, write it in its own module here and
register it below.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mechlint.cli.attest import attest, keygen, verify
from mechlint.cli.check import check
from mechlint.cli.completion import completion
from mechlint.cli.diff import diff
from mechlint.cli.exits import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, error, guarded
from mechlint.cli.fix import fix
from mechlint.cli.new import new_file, print_schema
from mechlint.cli.pin import pin
from mechlint.cli.rules import list_rules, show_rule
from mechlint.cli.server import server
from mechlint.version import __version__

__all__ = ["app", "first_sentence", "main"]

app = typer.Typer(
    name="mechlint",
    help="Check the mechanism files of a technical blog: schema, references and more.",
    add_completion=True,  # --install-completion, --show-completion; see also `mechlint completion SHELL`
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mechlint {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        Optional[bool],  # noqa: UP045 - typer needs Optional on Python 3.11
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """mechlint: a linter for mechanism files."""


app.command()(check)
app.command()(fix)
app.command("new")(new_file)
app.command("schema")(print_schema)
app.command("rules")(list_rules)
app.command("rule")(show_rule)
app.command()(pin)
app.command("diff")(diff)
app.command()(keygen)
app.command()(attest)
app.command()(verify)
app.command()(server)
app.command()(completion)


def _command() -> typer.core.TyperGroup:
    """The click command of the app, with arguments shown as a man page shows them (``RULE``,
    ``[PATHS]...``), never by Python's types (``<list[Path]>``) or in braces (``{rule_id}``)."""
    command = typer.main.get_command(app)
    for sub in getattr(command, "commands", {}).values():
        sub.short_help = first_sentence(sub.help or "")
        for param in sub.params:
            if isinstance(param, typer.core.TyperArgument):
                _plain_argument(param)
    assert isinstance(command, typer.core.TyperGroup)
    return command


def first_sentence(text: str) -> str:
    """The first sentence of a command's help: its summary in ``mechlint --help``, shown whole (click would cut a
    long one, or stop at the dot of "e.g.", so every command's help starts with a sentence that stands alone)."""
    words = text.split()
    for index, word in enumerate(words):
        if word.endswith(".") and (index + 1 == len(words) or words[index + 1][:1].isupper()):
            return " ".join(words[: index + 1])
    return " ".join(words)


def _plain_argument(param: typer.core.TyperArgument) -> None:
    name = (param.metavar or param.name or "").upper()
    many = "..." if param.nargs != 1 else ""
    usage = f"{name}{many}" if param.required else f"[{name}]{many}"
    param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]
    param._rich_display_name = lambda: f"{name}{many}"  # type: ignore[method-assign]
    param._usage_display_name = lambda: usage  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    """Run the full command line on ``argv``; the exit code instead of raising."""
    return guarded(lambda: _run_app(argv))


def _run_app(argv: list[str] | None) -> int:
    try:
        result = _command().main(args=argv, prog_name="mechlint", standalone_mode=False)
    except typer.Exit as done:
        result = int(done.exit_code)
    except typer.TyperException as problem:  # usage errors: unknown option, bad value
        show = getattr(problem, "show", None)
        if callable(show):
            show()
        else:
            error(problem.format_message())
        return EXIT_USAGE
    except typer.Abort:
        raise KeyboardInterrupt from None
    if result == EXIT_INTERRUPTED:  # typer turns Ctrl-C inside a command into a silent Exit(130)
        raise KeyboardInterrupt
    return result if isinstance(result, int) else EXIT_OK
