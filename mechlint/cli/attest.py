"""``mechlint keygen``, ``attest`` and ``verify``: signed in-toto statements over a file and its sources."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_USAGE, error
from mechlint.cli.extras import require
from mechlint.cli.inputs import RootOption, provenance_or_exit, read_or_exit
from mechlint.safety.terminal import printable
from mechlint.version import __version__

__all__ = ["attest", "keygen", "verify"]


def keygen(
    prefix: Annotated[
        Path, typer.Argument(metavar="PREFIX", help="Writes PREFIX.key (private, mode 0600) and PREFIX.pub.")
    ],
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing key files.")] = False,
) -> None:
    """Write an Ed25519 key pair for attest and verify."""
    require("attest", "mechlint keygen")
    from mechlint.authoring.attest import AttestError
    from mechlint.authoring.attest import keygen as make_keys

    try:
        private, public = make_keys(prefix, force=force)
    except AttestError as problem:
        error(str(problem))
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(printable(f"Wrote {private} (keep it secret) and {public}."))


def attest(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The mechanism file to attest.")],
    key: Annotated[Path, typer.Option("--key", metavar="FILE", help="The private key (PREFIX.key).")],
    output: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--output", "-o", metavar="FILE", help="Default: FILE.intoto.jsonl."),
    ] = None,
    root: RootOption = None,
) -> None:
    """Sign a statement over a file and its sources. It is an in-toto statement in a DSSE envelope."""
    require("attest", "mechlint attest")
    import json

    from mechlint.authoring.attest import AttestError, load_private_key, sign, statement
    from mechlint.document import load
    from mechlint.run.discovery import find_project_root
    from mechlint.safety.safeio import write_atomically

    raw = read_or_exit(file)
    document = load(str(file), raw)
    if not document.parsed:
        error(f"{file} is not valid JSON; run mechlint check")
        raise typer.Exit(EXIT_FINDINGS)
    provenance = provenance_or_exit(root)
    try:
        private_key = load_private_key(key)
        envelope = sign(statement(file.absolute(), raw, document.data, provenance, __version__), private_key)
    except AttestError as problem:
        error(str(problem))
        raise typer.Exit(EXIT_FINDINGS) from None
    finally:
        provenance.close()
    target = output or file.with_name(file.name + ".intoto.jsonl")
    try:
        data = (json.dumps(envelope, sort_keys=True) + "\n").encode("utf-8")
        write_atomically(target, data, find_project_root(file.absolute().parent))
    except OSError as problem:
        error(f"cannot write {target}: {problem.strerror or problem}")
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(printable(f"Wrote {target}."))


def verify(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The mechanism file to verify.")],
    key: Annotated[Path, typer.Option("--key", metavar="FILE", help="The trusted public key (PREFIX.pub).")],
    attestation: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Default: FILE.intoto.jsonl.")] = None,  # noqa: UP045
    root: RootOption = None,
) -> None:
    """Verify an attestation against KEY and the bytes now. Exit 0 only if the signature and every subject hold."""
    require("attest", "mechlint verify")
    from mechlint.authoring.attest import AttestError
    from mechlint.authoring.attest import verify as check_attestation

    provenance = provenance_or_exit(root)
    envelope = attestation or file.with_name(file.name + ".intoto.jsonl")
    try:
        checked = check_attestation(file, envelope, key, provenance)
    except AttestError as problem:
        error(f"verification failed: {problem}")
        raise typer.Exit(EXIT_FINDINGS) from None
    finally:
        provenance.close()
    typer.echo(printable(f"Verified {file}: signature good, {len(checked)} subjects match."))
