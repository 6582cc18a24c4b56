"""The commands that read sources: ``pin``, ``keygen``, ``attest`` and ``verify``.

Registered on the one :data:`mechlint.cli.app`; like ``check`` they never
print a traceback, and they resolve sources exactly as the provenance rules
do (a frozen source whose file is gone is found in history at its path or its
original path, by the configured frozen-copy pattern; unsafe paths are
refused).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from mechlint import __version__
from mechlint.cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, _error, app
from mechlint.terminal import printable

if TYPE_CHECKING:
    from mechlint.provenance.resolve import Provenance


def _provenance(root: Path | None) -> Provenance:
    """Sources resolved as ``check`` resolves them: the same frozen-copy pattern, from the same configuration."""
    from mechlint.config import load_config
    from mechlint.discovery import find_project_root
    from mechlint.errors import ConfigError
    from mechlint.provenance.resolve import DEFAULT_FROZEN, Provenance

    try:
        config = load_config()
    except ConfigError as error:
        _error(f"{error} [mechlint/invalid-config]")
        raise typer.Exit(EXIT_USAGE) from None
    pattern = config.options.get("provenance/frozen-copy-mismatch", {}).get("pattern")
    frozen = pattern if isinstance(pattern, str) else DEFAULT_FROZEN
    return Provenance(root, frozen, fallback=find_project_root(Path.cwd()))


def _read(path: Path) -> bytes:
    from mechlint.config import DEFAULT_MAX_FILE_SIZE
    from mechlint.discovery import find_project_root, read_file

    raw = read_file(path, DEFAULT_MAX_FILE_SIZE, find_project_root(path.absolute().parent))
    if isinstance(raw, str):
        _error(f"{path} {raw}")
        raise typer.Exit(EXIT_USAGE)
    return raw


RootOption = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option("--root", help="Folder that source paths are relative to (default: the git repository's top)."),
]


@app.command()
def pin(
    files: Annotated[list[Path], typer.Argument(help="Mechanism files to pin.")],
    check: Annotated[bool, typer.Option("--check", help="Only report what would change (exit 1 if anything).")] = False,
    root: RootOption = None,
) -> None:
    """After review, set each source's sha256 to its current bytes; only those values change."""
    from mechlint.pin import pin_file, write_pins

    provenance = _provenance(root)
    results = []
    try:
        for path in files:
            results.append(pin_file(path, str(path), _read(path), provenance))
    finally:
        provenance.close()
    problems = 0
    for result in results:
        for change in result.changes:
            typer.echo(printable(f"{result.shown}: {change}"))
        for problem in result.problems:
            problems += 1
            _error(f"{result.shown}: {problem}")
    changed = [r for r in results if r.text is not None]
    if check:
        raise typer.Exit(EXIT_FINDINGS if changed or problems else EXIT_OK)
    try:
        write_pins(changed)
    except OSError as error:
        _error(f"cannot write: {error.strerror or error} ({error.filename})")
        raise typer.Exit(EXIT_USAGE) from None
    count = sum(len(r.changes) for r in results)
    typer.echo(
        f"Pinned {count} source{'s' if count != 1 else ''} in {len(changed)} file{'s' if len(changed) != 1 else ''}.",
        err=True,
    )
    raise typer.Exit(EXIT_FINDINGS if problems else EXIT_OK)


@app.command()
def keygen(
    prefix: Annotated[Path, typer.Argument(help="Writes PREFIX.key (private, mode 0600) and PREFIX.pub.")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing key files.")] = False,
) -> None:
    """Write an Ed25519 key pair for attest and verify."""
    from mechlint.attest import AttestError
    from mechlint.attest import keygen as make_keys

    try:
        private, public = make_keys(prefix, force=force)
    except AttestError as error:
        _error(str(error))
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(printable(f"Wrote {private} (keep it secret) and {public}."))


@app.command()
def attest(
    file: Annotated[Path, typer.Argument(help="The mechanism file to attest.")],
    key: Annotated[Path, typer.Option("--key", help="The private key (PREFIX.key).")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Default: FILE.intoto.jsonl.")] = None,  # noqa: UP045
    root: RootOption = None,
) -> None:
    """Sign an in-toto statement over the file and its sources (a DSSE envelope)."""
    import json

    from mechlint.attest import AttestError, load_private_key, sign, statement
    from mechlint.discovery import find_project_root
    from mechlint.document import load
    from mechlint.safeio import write_atomically

    raw = _read(file)
    document = load(str(file), raw)
    if not document.parsed:
        _error(f"{file} is not valid JSON; run mechlint check")
        raise typer.Exit(EXIT_FINDINGS)
    provenance = _provenance(root)
    try:
        private_key = load_private_key(key)
        envelope = sign(statement(file.absolute(), raw, document.data, provenance, __version__), private_key)
    except AttestError as error:
        _error(str(error))
        raise typer.Exit(EXIT_FINDINGS) from None
    finally:
        provenance.close()
    target = output or file.with_name(file.name + ".intoto.jsonl")
    try:
        data = (json.dumps(envelope, sort_keys=True) + "\n").encode("utf-8")
        write_atomically(target, data, find_project_root(file.absolute().parent))
    except OSError as error:
        _error(f"cannot write {target}: {error.strerror or error}")
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(printable(f"Wrote {target}."))


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="The mechanism file to verify.")],
    key: Annotated[Path, typer.Option("--key", help="The trusted public key (PREFIX.pub).")],
    attestation: Annotated[Optional[Path], typer.Option(help="Default: FILE.intoto.jsonl.")] = None,  # noqa: UP045
    root: RootOption = None,
) -> None:
    """Exit 0 only if the signature verifies with KEY and every subject matches the bytes now."""
    from mechlint.attest import AttestError
    from mechlint.attest import verify as check_attestation

    provenance = _provenance(root)
    envelope = attestation or file.with_name(file.name + ".intoto.jsonl")
    try:
        checked = check_attestation(file, envelope, key, provenance)
    except AttestError as error:
        _error(f"verification failed: {error}")
        raise typer.Exit(EXIT_FINDINGS) from None
    finally:
        provenance.close()
    typer.echo(printable(f"Verified {file}: signature good, {len(checked)} subjects match."))
